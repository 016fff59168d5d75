// The merge routes, as ArchivesSpace has them (backend/app/controllers/merge_request.rb):
//   POST /merge_requests/subject | agent | agent_detail | container_profile           records every repository shares
//   POST /merge_requests/top_container | resource | digital_object ?repo_id=N          a repository's records
// Who may merge what, and the merge itself, are the operations' (operations.ts); a route reads its parameters.
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Request, Response } from "express";
import type { AccessControl } from "../../auth/access-control.js";
import { Route } from "../../http/described-route.js";
import { respond } from "../http/answer.js";
import { ParamReader, REQUIRED, requestParameters, throwIfAny } from "../http/list-params.js";
import { requestActor } from "../http/route-guard.js";
import type { OperationDeps } from "../deps.js";
import { MERGE_ROUTES, type MergeKind } from "./merge-routes.js";
import { MergeOperations } from "./operations.js";
import { describeMerge as describe } from "./route-descriptions.js";

/** The Ts.ED controller of the merge routes, to mount at "/" beside the record controllers. */
export function mergeController(deps: OperationDeps, access: AccessControl): new () => unknown {
  const merges = new MergeOperations(deps);

  const handle = (kind: MergeKind) => async (req: Request, res: Response) => {
    const actor = await requestActor(access, res);
    const reader = new ParamReader(requestParameters(req));
    let repoId: number | undefined;
    if (MERGE_ROUTES[kind].inRepository) {
      repoId = reader.wholeNumber("repo_id", 1);
      if (repoId === undefined && reader.errors.repo_id === undefined) reader.fail("repo_id", REQUIRED);
    }
    const dryRun = kind === "agent_detail" ? reader.boolean("dry_run") : undefined;
    throwIfAny(reader.errors);
    return merges.merge({ kind, body: req.body, repoId, dryRun }, actor);
  };

  @Controller("/")
  class MergeController {
    @Route("post", "/merge_requests/subject", describe("subject"))
    subject(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, handle("subject"));
    }

    @Route("post", "/merge_requests/agent", describe("agent"))
    agent(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, handle("agent"));
    }

    @Route("post", "/merge_requests/agent_detail", describe("agent_detail"))
    agentDetail(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, handle("agent_detail"));
    }

    @Route("post", "/merge_requests/container_profile", describe("container_profile"))
    containerProfile(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, handle("container_profile"));
    }

    @Route("post", "/merge_requests/top_container", describe("top_container"))
    topContainer(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, handle("top_container"));
    }

    @Route("post", "/merge_requests/resource", describe("resource"))
    resource(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, handle("resource"));
    }

    @Route("post", "/merge_requests/digital_object", describe("digital_object"))
    digitalObject(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, handle("digital_object"));
    }
  }
  return MergeController;
}
