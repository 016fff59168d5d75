// The HTTP server: Ts.ED on express, with the contract's transport rules (JSON bodies
// whatever the Content-Type, JSON errors from one filter, no caching) in front of every
// route. Controllers are mounted at start-up by createServer.
import "@tsed/ajv"; // a failed cast of a typed parameter becomes a 400, not a 500
import "@tsed/platform-express";
import { PlatformExpress } from "@tsed/platform-express";
import type { PlatformBuilder } from "@tsed/platform-http";
import type { Application, RequestHandler } from "express";
import { Configuration } from "@tsed/di";
import type { Config } from "./config.js";
import { ErrorFilter } from "./errors/error-filter.js";
import { bodyParsers } from "./http/body-parsers.js";
import { SystemController } from "./http/system-controller.js";

@Configuration({
  httpsPort: false,
  imports: [ErrorFilter],
  logger: { disableRoutesSummary: true, level: "warn" },
})
export class Server {}

const noCaching: RequestHandler = (_req, res, next) => {
  res.setHeader("Cache-Control", "private, must-revalidate, max-age=0");
  next();
};

export async function createServer(config: Config): Promise<PlatformBuilder<Application>> {
  return PlatformExpress.bootstrap(Server, {
    httpPort: `${config.http.host}:${config.http.port}`,
    mount: { "/": [SystemController] },
    middlewares: [noCaching, ...bodyParsers(config.http.bodyLimitBytes)],
  });
}
