// A running Arca HTTP server on a free loopback port, for tests that speak HTTP to it.
import { loadConfig } from "../../src/config.js";
import { createServer } from "../../src/server.js";

export interface RunningApp {
  url: string;
  stop(): Promise<void>;
}

export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  const config = loadConfig({ HOST: "127.0.0.1", ...env });
  config.http.port = 0; // any free port; PORT itself must be a real one
  const platform = await createServer(config);
  await platform.listen();
  return {
    url: `http://${String(platform.settings.get("httpPort"))}`,
    stop: () => platform.stop(),
  };
}
