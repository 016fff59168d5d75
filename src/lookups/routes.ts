// The lookup routes, as ArchivesSpace has them (backend/app/controllers/id_lookup_controller.rb, external_id.rb):
//   GET /repositories/:repo_id/find_by_id/<collection>   one per type whose schema says x-find-by-id
//   GET /by-external-id?eid=&type[]=                      every type whose schema says x-external-id
// The operations (records/operations/lookups.ts) do the finding; here the parameters are read and the answers
// written: find_by_id's JSON, and by-external-id's 303, 300 or 404.
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Request, Response } from "express";
import type { AccessControl } from "../auth/access-control.js";
import { callerWith } from "../auth/caller.js";
import { ApiError, notFound } from "../errors/api-error.js";
import { Route } from "../http/described-route.js";
import { pascalCase, respond } from "../records/http/answer.js";
import { ParamReader, REQUIRED, requestParameters, resolveParam, throwIfAny } from "../records/http/list-params.js";
import { authorize } from "../records/http/route-guard.js";
import { MAX_ID_SET, type RecordOperations } from "../records/operations/index.js";
import { externalIdTypes, findByExternalId, findById, type FindByIdCriterion } from "../records/operations/lookups.js";
import { FIND_BY_IDENTIFIER, type RecordType } from "../registry/index.js";
import { describeByExternalId, describeFindById, EXTERNAL_ID_PERMISSION } from "./route-descriptions.js";

export interface LookupControllerDeps {
  operations: RecordOperations;
  access: AccessControl;
}

const POSITIVE_ID = /^[1-9][0-9]*$/;
const IDENTIFIER_SHAPE = "Must be a JSON array of 1 to 4 identifier parts (strings, or null for an absent part)";

export function findByIdPath(type: RecordType): string {
  return `/repositories/:repo_id/find_by_id/${type.collection}`;
}

/** One `identifier[]` value: `["MS","42"]` as its four parts, absent ones null; undefined when malformed. */
function identifierTuple(text: string, parts: number): Array<string | null> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > parts) return undefined;
  if (!parsed.every((part) => part === null || typeof part === "string")) return undefined;
  const tuple = (parsed as Array<string | null>).map((part) => (part === "" ? null : part));
  while (tuple.length < parts) tuple.push(null);
  return tuple;
}

/** The find_by_id criteria of a request: each declared parameter it gives. @throws ApiError 400 */
function criteriaOf(req: Request, type: RecordType): FindByIdCriterion[] {
  const reader = new ParamReader(requestParameters(req));
  const criteria: FindByIdCriterion[] = [];
  let count = 0;
  for (const name of type.findById) {
    const values = reader.array(name);
    if (values === undefined) continue;
    count += values.length;
    if (name !== FIND_BY_IDENTIFIER) {
      criteria.push({ field: name, values });
      continue;
    }
    const parts = type.identifiers?.fields.length ?? 0;
    const tuples = values.map((value) => identifierTuple(value, parts));
    const bad = values.find((_value, i) => tuples[i] === undefined);
    if (bad !== undefined) reader.fail(name, `${IDENTIFIER_SHAPE}, not ${JSON.stringify(bad.slice(0, 200))}`);
    else criteria.push({ field: FIND_BY_IDENTIFIER, identifiers: tuples as Array<Array<string | null>> });
  }
  // Each value is a point lookup: as many as an id set may name.
  if (count > MAX_ID_SET) {
    for (const { field } of criteria) reader.fail(field, `At most ${MAX_ID_SET} values in all, not ${count}`);
  }
  throwIfAny(reader.errors);
  return criteria;
}

function findByIdController(type: RecordType, { operations, access }: LookupControllerDeps): new () => unknown {
  class FindByIdController {
    @Route("get", findByIdPath(type), (ctx) => describeFindById(ctx, type))
    find(@Context() ctx: PlatformContext): Promise<void> {
      return respond(
        ctx,
        async (req, res) => {
          const raw = req.params.repo_id;
          const repoId = typeof raw === "string" && POSITIVE_ID.test(raw) ? Number(raw) : undefined;
          // Before the path is judged, as on record routes: someone who may not learns nothing from a 404.
          const actor = await authorize(access, type, "read", res, repoId);
          const scopeHolder = operations.deps.registry.scopeHolderType();
          if (repoId === undefined || !Number.isSafeInteger(repoId) || scopeHolder.hiddenIds.includes(repoId))
            throw notFound(scopeHolder.title);
          const criteria = criteriaOf(req, type);
          return findById(operations.deps, type.name, { repoId }, criteria, resolveParam(req), actor);
        },
        { resolves: true },
      );
    }
  }
  Object.defineProperty(FindByIdController, "name", { value: `${pascalCase(type.name)}FindByIdController` });
  Controller("/")(FindByIdController);
  return FindByIdController;
}

/** `eid` and `type[]` of a by-external-id request. @throws ApiError 400 */
function externalIdParams(req: Request, types: readonly RecordType[]): { eid: string; typeNames?: string[] } {
  const reader = new ParamReader(requestParameters(req));
  const eid = reader.scalar("eid");
  if (eid === undefined && reader.errors.eid === undefined) reader.fail("eid", REQUIRED);
  const typeNames = reader.array("type");
  const names = types.map((type) => type.name);
  const unknown = typeNames?.find((name) => !names.includes(name));
  if (unknown !== undefined)
    reader.fail("type", `Must name types with external ids (${names.join(", ")}), not ${JSON.stringify(unknown)}`);
  throwIfAny(reader.errors);
  return { eid: eid ?? "", ...(typeNames !== undefined && { typeNames }) };
}

function externalIdController({ operations, access }: LookupControllerDeps): new () => unknown {
  const types = externalIdTypes(operations.deps);

  @Controller("/")
  class ExternalIdController {
    @Route("get", "/by-external-id", (ctx) => describeByExternalId(ctx, types))
    async byExternalId(@Context() ctx: PlatformContext): Promise<void> {
      const req = ctx.getRequest<Request>();
      const res = ctx.getResponse<Response>();
      await callerWith(access, res, EXTERNAL_ID_PERMISSION);
      const { eid, typeNames } = externalIdParams(req, types);
      const uris = await findByExternalId(operations.deps, eid, typeNames);
      if (uris.length === 0) throw new ApiError(404, "No record has that external id");
      // ArchivesSpace's answers: one record is a redirect to it (clients follow it and read the record), several a
      // 300 listing them.
      if (uris.length === 1)
        res
          .status(303)
          .location(uris[0] ?? "/")
          .end();
      else res.status(300).json(uris);
    }
  }
  return ExternalIdController;
}

/** The lookup controllers, to mount at "/" beside the record controllers. */
export function lookupControllers(deps: LookupControllerDeps): Array<new () => unknown> {
  const findByIdTypes = deps.operations.deps.registry.types.filter((type) => type.findById.length > 0);
  return [...findByIdTypes.map((type) => findByIdController(type, deps)), externalIdController(deps)];
}
