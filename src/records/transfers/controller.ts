// The transfer routes and batch delete, as ArchivesSpace serves them
// (backend/app/controllers/repository_transfer.rb, component_transfer.rb, delete_request.rb):
//   POST /repositories/:repo_id/{accessions,resources,digital_objects}/:id/transfer?target_repo=/repositories/N
//   POST /repositories/:repo_id/component_transfers?target_resource=&component=
//   POST /batch_delete?record_uris[]=   (and /repositories/:repo_id/batch_delete, limited to that repository)
// Which collections take a transfer is this table, keyed by the route served (ArchivesSpace serves these three).
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Request, Response } from "express";
import type { AccessControl } from "../../auth/access-control.js";
import { badRequest } from "../../errors/api-error.js";
import type { DocumentContext } from "../../http/api-description.js";
import { Route } from "../../http/described-route.js";
import { respond } from "../http/answer.js";
import { ParamReader, requestParameters } from "../http/list-params.js";
import { idParam, PARAMETER_REQUIRED, requiredParam } from "../http/request-params.js";
import { requestActor } from "../http/route-guard.js";
import { batchDelete } from "../operations/batch-delete.js";
import { transferComponent } from "../operations/component-transfer.js";
import type { RecordOperations } from "../operations/index.js";
import { transferRecord } from "../operations/transfer.js";
import { describeBatchDelete, describeComponentTransfer, describeTransfer } from "./route-descriptions.js";

export interface TransferControllerDeps {
  operations: RecordOperations;
  access: AccessControl;
}

const REPOSITORY_URI = /^\/repositories\/([1-9][0-9]{0,14})$/;

/** target_repo: a repository uri (`/repositories/N`); its id. */
function targetRepo(req: Request): number {
  const uri = requiredParam(req, "target_repo");
  const match = REPOSITORY_URI.exec(uri);
  if (match === null) throw badRequest({ target_repo: ["Must be a repository uri, /repositories/N"] });
  return Number(match[1]);
}

/** record_uris[]: at least one. */
function recordUris(req: Request): string[] {
  const uris = new ParamReader(requestParameters(req)).array("record_uris");
  if (uris === undefined) throw badRequest({ record_uris: [PARAMETER_REQUIRED] });
  return uris;
}

/** The description of a transfer route, titled by the type the registry serves at `collection`. */
function transferDescription(collection: string) {
  return (ctx: DocumentContext) => {
    const type = ctx.registry.types.find((candidate) => candidate.collection === collection);
    return describeTransfer(type?.title ?? collection, collection)(ctx);
  };
}

export function transferController({ operations, access }: TransferControllerDeps): new () => unknown {
  const { deps } = operations;

  const transfer = (collection: string, req: Request, res: Response) => async () => {
    const type = deps.registry.types.find((candidate) => candidate.collection === collection);
    if (type === undefined) throw badRequest({ collection: [`No record type is served at ${collection}`] });
    const actor = await requestActor(access, res);
    const scope = { repoId: idParam(req, "repo_id") };
    return transferRecord(deps, type.name, scope, idParam(req, "id"), targetRepo(req), actor);
  };

  @Controller("/")
  class TransferController {
    @Route("post", "/repositories/:repo_id/accessions/:id/transfer", transferDescription("accessions"))
    accession(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, (req, res) => transfer("accessions", req, res)());
    }

    @Route("post", "/repositories/:repo_id/resources/:id/transfer", transferDescription("resources"))
    resource(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, (req, res) => transfer("resources", req, res)());
    }

    @Route("post", "/repositories/:repo_id/digital_objects/:id/transfer", transferDescription("digital_objects"))
    digitalObject(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, (req, res) => transfer("digital_objects", req, res)());
    }

    @Route("post", "/repositories/:repo_id/component_transfers", describeComponentTransfer)
    component(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const actor = await requestActor(access, res);
        const scope = { repoId: idParam(req, "repo_id") };
        const target = requiredParam(req, "target_resource");
        const component = requiredParam(req, "component");
        return transferComponent(deps, operations.treeMoves, scope, target, component, actor);
      });
    }

    @Route("post", "/batch_delete", describeBatchDelete(false))
    batchDelete(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => batchDelete(deps, recordUris(req), await requestActor(access, res)));
    }

    @Route("post", "/repositories/:repo_id/batch_delete", describeBatchDelete(true))
    batchDeleteInRepository(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const actor = await requestActor(access, res);
        return batchDelete(deps, recordUris(req), actor, idParam(req, "repo_id"));
      });
    }
  }
  return TransferController;
}
