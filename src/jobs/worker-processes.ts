// The workers `npm start` runs beside the service (JOB_WORKERS, default 1): child processes, so a large import's
// parsing and memory stay out of the process that answers HTTP. A worker that exits unasked is started again after a
// pause; each one has an IPC channel to the service, so it stops when the service is gone, even killed.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const WORKER_MAIN = fileURLToPath(new URL("./worker-main.js", import.meta.url));
const RESTART_PAUSE_MS = 1_000;

export interface WorkerProcesses {
  stop(): Promise<void>;
}

export function startWorkerProcesses(count: number, say: (line: string) => void): WorkerProcesses {
  let stopping = false;
  const children = new Set<ChildProcess>();
  const start = () => {
    const child = fork(WORKER_MAIN, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    children.add(child);
    child.once("exit", (code, signal) => {
      children.delete(child);
      if (stopping) return;
      say(`a job worker exited (${signal ?? `code ${code}`}); starting another`);
      setTimeout(() => !stopping && start(), RESTART_PAUSE_MS).unref();
    });
  };
  for (let i = 0; i < count; i++) start();
  return {
    async stop() {
      stopping = true;
      await Promise.all(
        [...children].map(
          (child) =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once("exit", () => done());
              child.kill("SIGTERM");
            }),
        ),
      );
    },
  };
}
