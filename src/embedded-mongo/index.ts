// Public entry points of the embedded engine: run it in this process (tests, tools), or
// as a child process (the service, so a long sort never stalls HTTP handling).
import { Engine, type EngineOptions } from "./engine.js";
import { WireServer } from "./server.js";

export { Engine, type EngineOptions } from "./engine.js";
export { spawnEngine, type EngineProcess } from "./launcher.js";

export interface RunningEngine {
  port: number;
  /** A connection string for the driver or mongoose. */
  uri: string;
  engine: Engine;
  close(): Promise<void>;
}

export function engineUri(port: number): string {
  return `mongodb://127.0.0.1:${port}/?directConnection=true`;
}

export async function startEngine(options: EngineOptions & { port?: number }): Promise<RunningEngine> {
  const engine = await Engine.open(options);
  const server = new WireServer(engine, options.log);
  let port: number;
  try {
    port = await server.listen(options.port ?? 0);
  } catch (error) {
    await engine.close();
    throw error;
  }
  return {
    port,
    uri: engineUri(port),
    engine,
    async close() {
      await server.close();
      await engine.close();
    },
  };
}
