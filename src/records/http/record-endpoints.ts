// The five record routes of one type (docs/api.md §4, §5): path ids, the permission
// guard, parameters, then the transport-free operation. Everything type-specific (routes,
// permissions, titles, scope) comes from the registry's RecordType.
import type { Request, Response } from "express";
import type { AccessControl } from "../../auth/access-control.js";
import { badRequest, notFound } from "../../errors/api-error.js";
import type { JsonObject, RecordOperation, RecordType } from "../../registry/index.js";
import type { Actor, DeleteResult, ListResult, RecordOperations, Scope, WriteResult } from "../operations/index.js";
import { listParams, resolveParam } from "./list-params.js";
import { arrayParam, PARAMETER_REQUIRED, requiredParam, scalarParam } from "./request-params.js";
import { authorize } from "./route-guard.js";

export interface RecordRouteDeps {
  operations: RecordOperations;
  accessControl: AccessControl;
}

const POSITIVE_ID = /^[1-9][0-9]*$/;

/** The type's write parameters (x-write-parameters) a create or an update request gave. @throws ApiError 400 */
function writeParameters(
  req: Request,
  type: RecordType,
  write: "create" | "update",
): ReadonlyMap<string, string | readonly string[]> {
  const values = new Map<string, string | readonly string[]>();
  for (const parameter of type.writeParameters) {
    const use = parameter[write];
    if (use === undefined) continue;
    if (parameter.array === true) {
      const list = arrayParam(req, parameter.name);
      if (list === undefined && use === "required") throw badRequest({ [parameter.name]: [PARAMETER_REQUIRED] });
      if (list !== undefined) values.set(parameter.name, list);
      continue;
    }
    const value = use === "required" ? requiredParam(req, parameter.name) : scalarParam(req, parameter.name);
    if (value !== undefined) values.set(parameter.name, value);
  }
  return values;
}

/** A path segment as a record id; undefined when no record could ever have it. */
export function positiveId(text: unknown): number | undefined {
  if (typeof text !== "string" || !POSITIVE_ID.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

export class RecordEndpoints {
  constructor(
    readonly type: RecordType,
    private readonly deps: RecordRouteDeps,
    /** What a missing repository is called in its 404 (the repository type's title). */
    private readonly repositoryTitle: string,
  ) {}

  /**
   * The scope the URL names, once the caller may perform `operation` there. The guard runs
   * before the path is judged, so an anonymous caller learns nothing from a 404.
   */
  async enter(operation: RecordOperation, req: Request, res: Response): Promise<{ scope: Scope; actor: Actor }> {
    const repoScoped = this.type.scope === "repository";
    const repoId = repoScoped ? positiveId(req.params.repo_id) : undefined;
    const actor = await authorize(this.deps.accessControl, this.type, operation, res, repoId);
    if (repoScoped && repoId === undefined) throw notFound(this.repositoryTitle);
    return { scope: repoScoped ? { repoId } : {}, actor };
  }

  /** The record id in the path; 404 when no record could have it, or the API never serves it (x-hidden-ids). */
  recordId(req: Request): number {
    const id = positiveId(req.params.id);
    if (id === undefined || this.type.hiddenIds.includes(id)) throw notFound(this.type.title);
    return id;
  }

  async list(req: Request, res: Response): Promise<ListResult> {
    const { scope, actor } = await this.enter("read", req, res);
    return this.deps.operations.list(this.type.name, scope, listParams(req, this.type), actor);
  }

  async create(req: Request, res: Response): Promise<WriteResult> {
    const { scope, actor } = await this.enter("create", req, res);
    // An absent body (none sent, or an empty one) goes to the operation as is: its validation
    // answers the 400, so HTTP and importers refuse a missing record in the same words.
    const parameters = writeParameters(req, this.type, "create");
    return this.deps.operations.create(this.type.name, scope, req.body as unknown, actor, { parameters });
  }

  async read(req: Request, res: Response): Promise<JsonObject> {
    const { scope, actor } = await this.enter("read", req, res);
    const id = this.recordId(req);
    return this.deps.operations.read(this.type.name, scope, id, actor, { resolve: resolveParam(req) });
  }

  async update(req: Request, res: Response): Promise<WriteResult> {
    const { scope, actor } = await this.enter("update", req, res);
    const id = this.recordId(req);
    const parameters = writeParameters(req, this.type, "update");
    return this.deps.operations.update(this.type.name, scope, id, req.body as unknown, actor, { parameters });
  }

  async delete(req: Request, res: Response): Promise<DeleteResult> {
    const { scope, actor } = await this.enter("delete", req, res);
    const id = this.recordId(req);
    return this.deps.operations.delete(this.type.name, scope, id, actor);
  }
}
