// An engine started through the launcher must not outlive its parent: a parent killed with
// SIGKILL cannot stop it, and an orphan would keep the data directory locked.
import { afterAll, describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { LOCK_FILE_NAME } from "../../../src/embedded-mongo/durability/data-directory.js";
import { freshDir, removeDir } from "./helpers.js";

const launcher = pathToFileURL(resolve("dist/src/embedded-mongo/launcher.js")).href;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return condition();
}

describe("engine started by a parent process", () => {
  let dir: string | undefined;
  let enginePid: number | undefined;
  afterAll(async () => {
    if (enginePid && alive(enginePid)) process.kill(enginePid, "SIGKILL");
    await removeDir(dir);
  });

  it("stops and releases its lock when the parent is killed with SIGKILL", async () => {
    dir = await freshDir("orphan");
    const script = `const { spawnEngine } = await import(${JSON.stringify(launcher)});
      const engine = await spawnEngine({ dataDir: ${JSON.stringify(dir)} });
      console.log("engine " + engine.pid);
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    enginePid = await new Promise<number>((resolvePid, reject) => {
      let out = "";
      parent.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /engine (\d+)/.exec(out);
        if (match) resolvePid(Number(match[1]));
      });
      parent.once("exit", (code) => reject(new Error(`parent exited early (${code})`)));
    });
    expect(alive(enginePid)).toBe(true);
    expect(existsSync(join(dir, LOCK_FILE_NAME))).toBe(true);

    parent.kill("SIGKILL");
    const pid = enginePid;
    expect(await waitFor(() => !alive(pid), 10_000)).toBe(true);
    // A graceful stop removes the lock file; a crash would have left it behind.
    expect(existsSync(join(dir, LOCK_FILE_NAME))).toBe(false);
  });
});
