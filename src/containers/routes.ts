// The container and location bulk routes, as ArchivesSpace has them (backend/app/controllers/top_container.rb and
// location.rb; docs/api.md §13):
//   POST /repositories/:repo_id/top_containers/bulk/barcodes            {"<container uri>": "<barcode>"}
//   POST /repositories/:repo_id/top_containers/bulk/indicators          {"<container uri>": "<indicator>"}
//   POST /repositories/:repo_id/top_containers/bulk/locations           {"<container uri>": "<location uri>"}
//   POST /repositories/:repo_id/top_containers/batch/location           ids[], location_uri
//   POST /repositories/:repo_id/top_containers/batch/container_profile  ids[], container_profile_uri
//   POST /repositories/:repo_id/top_containers/batch/ils_holding_id     ids[], ils_holding_id
//   POST /locations/batch[?dry_run=true]                                a location with coordinate ranges
//   POST /locations/batch_update                                        location fields and record_uris
// Mounted before the record controllers: `/locations/batch` would otherwise be taken for the item route
// `/locations/:id`. Who may is checked before the body is read, so a caller who may not learns nothing from a 400.
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Request, Response } from "express";
import type { AccessControl } from "../auth/access-control.js";
import { assertMay } from "../auth/operation-access.js";
import { Route } from "../http/described-route.js";
import { respond } from "../records/http/answer.js";
import { ParamReader, requestParameters, throwIfAny } from "../records/http/list-params.js";
import { idParam } from "../records/http/request-params.js";
import { requestActor } from "../records/http/route-guard.js";
import type { RecordOperations } from "../records/operations/index.js";
import { idsParam, presentParam, uriValueMap } from "./bulk-input.js";
import { createLocationBatch, LOCATION, updateLocationBatch } from "./location-batch.js";
import * as describe from "./route-descriptions.js";
import {
  assertMayManageContainers,
  batchUpdate,
  bulkBarcodes,
  bulkIndicators,
  bulkLocations,
  existingTarget,
  TOP_CONTAINER,
  type BatchChange,
} from "./top-container-bulk.js";

const CONTAINERS = "/repositories/:repo_id/top_containers";

export interface ContainerControllerDeps {
  operations: RecordOperations;
  access: AccessControl;
  /** The most records one call may name or make (BULK_MAX_RECORDS). */
  maxRecords: number;
}

export function containerController({ operations, access, maxRecords }: ContainerControllerDeps): new () => unknown {
  const deps = operations.deps;

  /** The repository id and actor of a container route, once the actor may manage the repository's containers. */
  async function containerCaller(req: Request, res: Response) {
    const repoId = idParam(req, "repo_id");
    const actor = await requestActor(access, res);
    assertMayManageContainers(deps, actor, repoId);
    return { repoId, actor };
  }

  /** A bulk route's body as id -> value (see uriValueMap). */
  const bodyMap = (req: Request, name: string, repoId: number) =>
    uriValueMap(deps.registry, req.body, { name, typeName: TOP_CONTAINER, repoId, max: maxRecords });

  /** A batch route: its ids and what to set on them. */
  async function batch(
    ctx: PlatformContext,
    change: (values: ReturnType<typeof requestParameters>) => Promise<BatchChange>,
  ) {
    return respond(ctx, async (req, res) => {
      const { repoId, actor } = await containerCaller(req, res);
      const values = requestParameters(req);
      const ids = idsParam(values, maxRecords);
      return batchUpdate(deps, repoId, ids, await change(values), actor);
    });
  }

  /** A location or profile uri parameter: "" clears, anything else must name a stored record. */
  async function targetParam(values: ReturnType<typeof requestParameters>, name: string, typeName: string) {
    const uri = presentParam(values, name);
    return uri === "" ? null : existingTarget(deps, typeName, uri, name);
  }

  @Controller("/")
  class ContainerController {
    @Route("post", `${CONTAINERS}/bulk/barcodes`, describe.describeBulkBarcodes)
    barcodes(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const { repoId, actor } = await containerCaller(req, res);
        return bulkBarcodes(deps, repoId, bodyMap(req, "barcode_data", repoId), actor);
      });
    }

    @Route("post", `${CONTAINERS}/bulk/indicators`, describe.describeBulkIndicators)
    indicators(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const { repoId, actor } = await containerCaller(req, res);
        return bulkIndicators(deps, repoId, bodyMap(req, "indicator_data", repoId), actor);
      });
    }

    @Route("post", `${CONTAINERS}/bulk/locations`, describe.describeBulkLocations)
    locations(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const { repoId, actor } = await containerCaller(req, res);
        return bulkLocations(deps, repoId, bodyMap(req, "location_data", repoId), actor, "location_data");
      });
    }

    @Route("post", `${CONTAINERS}/batch/location`, describe.describeBatchLocation)
    batchLocation(@Context() ctx: PlatformContext): Promise<void> {
      return batch(ctx, async (values) => ({
        kind: "location",
        uri: await targetParam(values, "location_uri", "location"),
      }));
    }

    @Route("post", `${CONTAINERS}/batch/container_profile`, describe.describeBatchContainerProfile)
    batchProfile(@Context() ctx: PlatformContext): Promise<void> {
      return batch(ctx, async (values) => ({
        kind: "container_profile",
        uri: await targetParam(values, "container_profile_uri", "container_profile"),
      }));
    }

    @Route("post", `${CONTAINERS}/batch/ils_holding_id`, describe.describeBatchIlsHoldingId)
    batchIlsHoldingId(@Context() ctx: PlatformContext): Promise<void> {
      return batch(ctx, async (values) => {
        const value = presentParam(values, "ils_holding_id");
        return { kind: "ils_holding_id", value: value === "" ? null : value };
      });
    }

    @Route("post", "/locations/batch", describe.describeLocationBatch)
    locationBatch(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const actor = await requestActor(access, res);
        assertMay(actor, deps.registry.get(LOCATION), "create");
        const reader = new ParamReader(requestParameters(req));
        const dryRun = reader.boolean("dry_run") === true;
        throwIfAny(reader.errors);
        return createLocationBatch(deps, req.body, actor, { dryRun, max: maxRecords });
      });
    }

    @Route("post", "/locations/batch_update", describe.describeLocationBatchUpdate)
    locationBatchUpdate(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const actor = await requestActor(access, res);
        assertMay(actor, deps.registry.get(LOCATION), "update");
        return updateLocationBatch(deps, req.body, actor, maxRecords);
      });
    }
  }
  return ContainerController;
}
