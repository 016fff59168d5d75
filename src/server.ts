// The HTTP server: Ts.ED on express, with the contract's transport rules in front of every
// route (security and no-caching headers), then the session check (412s before routing, on
// every route, from headers only), then the body parsers, which read a body only once the
// caller is known (JSON whatever the Content-Type, every body bounded), then the
// routes, every one a Ts.ED controller: the service's own, the accounts', one generic controller
// per record type, the enumerations', the EAD export's, the imports', and last the schemas' and
// documentation's, whose document describes every route mounted before them. Every error
// leaves through the one error filter.
import "@tsed/ajv"; // a failed cast of a typed parameter becomes a 400, not a 500
import "@tsed/platform-express";
import { PlatformExpress } from "@tsed/platform-express";
import type { PlatformBuilder } from "@tsed/platform-http";
import type { Application, RequestHandler } from "express";
import { Configuration } from "@tsed/di";
import type { Accounts } from "./accounts/index.js";
import { sessionMiddleware } from "./auth/session-middleware.js";
import { contentsControllers } from "./records/contents/controller.js";
import { enumerationController } from "./records/enumerations/index.js";
import { mergeController } from "./records/merges/index.js";
import { exportController } from "./exporters/index.js";
import { containerController } from "./containers/routes.js";
import { importController, isFileImport } from "./importers/routes.js";
import { isJobUpload, jobControllers, openJobs } from "./jobs/index.js";
import { lookupControllers } from "./lookups/routes.js";
import type { SessionStore } from "./auth/session-store.js";
import type { Config } from "./config.js";
import { ErrorFilter } from "./errors/error-filter.js";
import { bodyParsers } from "./http/body-parsers.js";
import { describedRoutes } from "./http/described-route.js";
import { securityHeaders } from "./http/security-headers.js";
import { SystemController } from "./http/system-controller.js";
import { transferController } from "./records/transfers/controller.js";
import { recordControllers } from "./records/http/index.js";
import { publicationController } from "./records/http/publication-controller.js";
import { termControllers } from "./vocabulary-terms/routes.js";
import { searchControllers } from "./search/routes.js";
import { feedControllers } from "./records/feed/routes.js";
import { repositoryWithAgentController } from "./repository-with-agent/controller.js";
import { openApiController } from "./openapi/index.js";
import type { RecordOperations } from "./records/operations/index.js";
import { ARCA_VERSION } from "./version.js";

@Configuration({
  httpsPort: false,
  imports: [ErrorFilter],
  logger: { disableRoutesSummary: true, level: "warn" },
})
export class Server {}

/** What the routes work with; without it only the service's own routes are served (transport tests). */
export interface ServerServices {
  operations: RecordOperations;
  sessions: SessionStore;
  accounts: Accounts;
}

export async function createServer(config: Config, services?: ServerServices): Promise<PlatformBuilder<Application>> {
  const middlewares: RequestHandler[] = [securityHeaders];
  const controllers: Array<new (...args: never[]) => unknown> = [SystemController];
  const parsers = {
    limitBytes: config.http.bodyLimitBytes,
    leaveAlone: (req: { method: string; path: string }) => isFileImport(req) || isJobUpload(req),
  };
  // Headers only: no body has been read before it has run.
  if (services) middlewares.push(sessionMiddleware(services.sessions, { names: config.auth.sessionHeaders }));
  middlewares.push(...bodyParsers(parsers));
  if (services) {
    const jobs = await openJobs(services.operations.deps.store.connection, config.jobs.leaseSeconds);
    controllers.push(
      ...services.accounts.controllers,
      // Before the record controllers, whose /locations/:id would take /locations/batch.
      containerController({
        operations: services.operations,
        access: services.accounts.accessControl,
        maxRecords: config.bulk.maxRecords,
      }),
      repositoryWithAgentController({ operations: services.operations, access: services.accounts.accessControl }),
      // Before the record controllers, whose /top_containers/:id would take /top_containers/search.
      ...searchControllers({ operations: services.operations, access: services.accounts.accessControl }),
      // Before the record controllers, whose /repositories/:id would otherwise be asked for /repositories/2/changes.
      ...feedControllers({
        operations: services.operations,
        access: services.accounts.accessControl,
        retentionDays: config.feed.retentionDays,
        maxWaitSeconds: config.feed.maxWaitSeconds,
      }),
      ...jobControllers({
        operations: services.operations,
        access: services.accounts.accessControl,
        ...jobs,
        fileLimitBytes: config.jobs.fileLimitBytes,
      }),
      ...recordControllers(
        { operations: services.operations, accessControl: services.accounts.accessControl },
        services.operations.deps.registry.types,
      ),
      publicationController({ operations: services.operations, accessControl: services.accounts.accessControl }),
      ...contentsControllers(
        { operations: services.operations, accessControl: services.accounts.accessControl },
        { wholeTreeMaxNodes: config.records.wholeTreeMaxNodes },
      ),
      enumerationController(services.operations.deps, services.accounts.accessControl),
      ...lookupControllers({ operations: services.operations, access: services.accounts.accessControl }),
      ...termControllers({
        operations: services.operations,
        access: services.accounts.accessControl,
        termsMax: config.records.vocabularyTermsMax,
      }),
      mergeController(services.operations.deps, services.accounts.accessControl),
      transferController({ operations: services.operations, access: services.accounts.accessControl }),
      exportController({ operations: services.operations, access: services.accounts.accessControl }),
      importController({
        operations: services.operations,
        access: services.accounts.accessControl,
        maxFileBytes: config.http.importLimitBytes,
        limits: config.imports,
      }),
    );
    // Last: its document describes every route mounted before it.
    controllers.push(
      openApiController(services.operations.deps.registry, ARCA_VERSION, {
        sessionHeaders: config.auth.sessionHeaders,
        routes: describedRoutes(controllers),
      }),
    );
  }
  const platform = await PlatformExpress.bootstrap(Server, {
    httpPort: `${config.http.host}:${config.http.port}`,
    mount: { "/": controllers },
    middlewares,
  });
  // No ETag: express would hash every response body for it, and no archival client sends
  // If-None-Match (ArchivesSpace sends no ETag); lock_version is how clients detect change.
  // No X-Powered-By: it only tells an attacker what to look up.
  platform.app.getApp().set("etag", false).disable("x-powered-by");
  return platform;
}
