// Public entry points of the embedded engine: run it in this process (tests, tools), or
// as a child process (the service, so a long sort never stalls HTTP handling).
import { Engine, type EngineOptions } from "./engine.js";
import { WireServer } from "./server.js";
import { engineSocketUri, engineUri } from "./uris.js";

export { Engine, type EngineOptions } from "./engine.js";
export { spawnEngine, type EngineProcess } from "./launcher.js";
export { engineSocketUri, engineUri } from "./uris.js";

export interface RunningEngine {
  port: number;
  /** A connection string for the driver or mongoose (TCP). */
  uri: string;
  /** The same over the Unix domain socket, when one was asked for. */
  socketUri?: string;
  engine: Engine;
  close(): Promise<void>;
}

export async function startEngine(
  options: EngineOptions & { port?: number; socketPath?: string },
): Promise<RunningEngine> {
  const engine = await Engine.open(options);
  const server = new WireServer(engine, options.log);
  let port: number;
  try {
    port = await server.listen(options.port ?? 0);
    if (options.socketPath) await server.listenUnix(options.socketPath);
  } catch (error) {
    await engine.close();
    throw error;
  }
  return {
    port,
    uri: engineUri(port),
    socketUri: options.socketPath ? engineSocketUri(options.socketPath) : undefined,
    engine,
    async close() {
      await server.close();
      await engine.close();
    },
  };
}
