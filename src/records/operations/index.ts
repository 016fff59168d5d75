// The record operations, one file each, behind one object that HTTP controllers, account
// routes and importers share: validation, links, ids and audit fields are the same however
// a record arrives.
import type { JsonObject, PublishRoute } from "../../registry/index.js";
import { TreeMoves } from "./tree-moves.js";
import { TreeViews } from "./tree-views.js";
import { checkRecords, createRecord, createRecords, type NewRecord } from "./create.js";
import { deleteRecord } from "./delete.js";
import type { OperationDeps } from "../deps.js";
import { listRecords } from "./list.js";
import { setPublished } from "./publication.js";
import { setSuppressed, type SuppressedResult } from "./suppress.js";
import { recordType } from "./locate.js";
import { readRecord } from "./read.js";
import { shapeRecord } from "./shape.js";
import type {
  Actor,
  DeleteResult,
  ListQuery,
  ListResult,
  ReadOptions,
  Scope,
  WriteOptions,
  WriteResult,
} from "../types.js";
import { trusted } from "../types.js";
import { updateRecord } from "./update.js";

export { BatchRecordError, type NewRecord } from "./create.js";
export type { SuppressedResult } from "./suppress.js";
export type { TreeViewer } from "./tree-views.js";
export type { OperationDeps } from "../deps.js";
export * from "../types.js";

/** Whom `find` shows records to: server code, which decides itself what it passes on. */
const SERVER_CODE = trusted("server");

export class RecordOperations {
  /** Tree reads (tree/root, waypoints, children) for types with x-tree. */
  readonly treeViews: TreeViews;
  /** Explicit tree moves (parent, accept_children). */
  readonly treeMoves: TreeMoves;

  constructor(readonly deps: OperationDeps) {
    this.treeViews = new TreeViews(deps);
    this.treeMoves = new TreeMoves(deps);
  }

  create(type: string, scope: Scope, input: unknown, actor: Actor, options?: WriteOptions): Promise<WriteResult> {
    return createRecord(this.deps, type, scope, input, actor, options);
  }

  /** Several records of one type, checked as a whole before any is written (see createRecords). */
  createMany(
    type: string,
    scope: Scope,
    items: readonly NewRecord[],
    actor: Actor,
    present?: ReadonlySet<string>,
  ): Promise<WriteResult[]> {
    return createRecords(this.deps, type, scope, items, actor, present);
  }

  /** Whether createMany would store these, or its BatchRecordError; writes nothing. Each record's warnings. */
  async checkMany(
    type: string,
    scope: Scope,
    items: readonly NewRecord[],
    present?: ReadonlySet<string>,
  ): Promise<string[][]> {
    const prepared = await checkRecords(this.deps, recordType(this.deps, type, scope), scope, items, present);
    return prepared.map((one) => one.warnings);
  }

  read(type: string, scope: Scope, id: number, actor: Actor, options?: ReadOptions): Promise<JsonObject> {
    return readRecord(this.deps, type, scope, id, actor, options);
  }

  list(type: string, scope: Scope, query: ListQuery, actor: Actor): Promise<ListResult> {
    return listRecords(this.deps, type, scope, query, actor);
  }

  update(
    type: string,
    scope: Scope,
    id: number,
    input: unknown,
    actor: Actor,
    options?: WriteOptions,
  ): Promise<WriteResult> {
    return updateRecord(this.deps, type, scope, id, input, actor, options);
  }

  /** POST <item>/publish or /unpublish: the record, its sub-records and its tree below it (publication.ts). */
  publish(type: string, scope: Scope, id: number, route: PublishRoute, actor: Actor): Promise<WriteResult> {
    return setPublished(this.deps, type, scope, id, route, actor);
  }

  /** POST <item>/suppressed?suppressed=: the record and its tree below it (suppress.ts). */
  suppress(type: string, scope: Scope, id: number, suppressed: boolean, actor: Actor): Promise<SuppressedResult> {
    return setSuppressed(this.deps, type, scope, id, suppressed, actor);
  }

  delete(type: string, scope: Scope, id: number, actor: Actor): Promise<DeleteResult> {
    return deleteRecord(this.deps, type, scope, id, actor);
  }

  /** Records of a type matching stored field values, as the API shows them (for account code: a user by username). */
  async find(type: string, filter: Record<string, unknown>, limit = 0): Promise<JsonObject[]> {
    const recordType = this.deps.registry.get(type);
    const docs = await this.deps.store.collection(type).find(filter).limit(limit).toArray();
    return docs.map((doc) => shapeRecord(this.deps.registry, recordType, doc, SERVER_CODE));
  }
}
