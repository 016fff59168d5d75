// The tree routes of one type (ArchivesSpace's large-tree API and moves): on a root type
// (resource) tree/root, tree/waypoint, tree/node, tree/node_from_root, accept_children and POST children; on a
// node type (archival_object) children (GET and POST), parent and accept_children. Permissions are the
// type's own (x-permissions): reading a tree is reading its root, moving nodes is updating.
import type { Request, Response } from "express";
import type { JsonObject } from "../../registry/index.js";
import { addChildren } from "../operations/add-children.js";
import { MAX_ID_SET, type Actor, type RecordOperations, type WriteResult } from "../operations/index.js";
import type { TreeViewer } from "../operations/tree-views.js";
import { ParamReader, REQUIRED, requestParameters, throwIfAny } from "./list-params.js";
import type { RecordEndpoints } from "./record-endpoints.js";

const POSITIVE = /^[1-9][0-9]*$/;

function params(req: Request): ParamReader {
  return new ParamReader(requestParameters(req));
}

function required<T>(reader: ParamReader, name: string, value: T | undefined): T | undefined {
  if (value === undefined && reader.errors[name] === undefined) reader.fail(name, REQUIRED);
  return value;
}

/** A required list of positive ids (`node_ids[]=1&node_ids[]=2`). */
function idList(reader: ParamReader, name: string): number[] | undefined {
  const given = required(reader, name, reader.array(name));
  if (given === undefined) return undefined;
  const bad = given.find((value) => !POSITIVE.test(value) || !Number.isSafeInteger(Number(value)));
  if (bad !== undefined) return reader.fail(name, `Must list positive whole numbers, not "${bad}"`);
  // As id_set's: each id costs a path from the root, built in memory.
  if (given.length > MAX_ID_SET) return reader.fail(name, `At most ${MAX_ID_SET} ids, not ${given.length}`);
  return given.map(Number);
}

/** The caller and their published_only (ArchivesSpace's "restrict to published/unsuppressed items"). */
function viewerOf(reader: ParamReader, actor: Actor): TreeViewer {
  return { actor, publishedOnly: reader.boolean("published_only") ?? false };
}

export class TreeEndpoints {
  constructor(
    /** The record routes of the same type: its permission guard and path ids. */
    private readonly records: RecordEndpoints,
    private readonly operations: RecordOperations,
  ) {}

  private get typeName(): string {
    return this.records.type.name;
  }

  async root(req: Request, res: Response): Promise<JsonObject> {
    const { scope, actor } = await this.records.enter("read", req, res);
    const id = this.records.recordId(req);
    const reader = params(req);
    const viewer = viewerOf(reader, actor);
    throwIfAny(reader.errors);
    return this.operations.treeViews.root(this.typeName, scope, id, viewer);
  }

  async waypoint(req: Request, res: Response): Promise<JsonObject[]> {
    const { scope, actor } = await this.records.enter("read", req, res);
    const id = this.records.recordId(req);
    const reader = params(req);
    const offset = required(reader, "offset", reader.wholeNumber("offset", 0));
    const parentNode = reader.scalar("parent_node");
    const viewer = viewerOf(reader, actor);
    throwIfAny(reader.errors);
    // An empty parent_node is how ArchivesSpace's own client asks for the top level.
    return this.operations.treeViews.waypoint(
      this.typeName,
      scope,
      id,
      offset ?? 0,
      parentNode === "" ? undefined : parentNode,
      viewer,
    );
  }

  async node(req: Request, res: Response): Promise<JsonObject> {
    const { scope, actor } = await this.records.enter("read", req, res);
    const id = this.records.recordId(req);
    const reader = params(req);
    const nodeUri = required(reader, "node_uri", reader.scalar("node_uri"));
    const viewer = viewerOf(reader, actor);
    throwIfAny(reader.errors);
    return this.operations.treeViews.node(this.typeName, scope, id, nodeUri ?? "", viewer);
  }

  async nodeFromRoot(req: Request, res: Response): Promise<JsonObject> {
    const { scope, actor } = await this.records.enter("read", req, res);
    const id = this.records.recordId(req);
    const reader = params(req);
    const nodeIds = idList(reader, "node_ids");
    const viewer = viewerOf(reader, actor);
    throwIfAny(reader.errors);
    return this.operations.treeViews.nodeFromRoot(this.typeName, scope, id, nodeIds ?? [], viewer);
  }

  async children(req: Request, res: Response): Promise<JsonObject[]> {
    const { scope, actor } = await this.records.enter("read", req, res);
    const id = this.records.recordId(req);
    const reader = params(req);
    const viewer = viewerOf(reader, actor);
    throwIfAny(reader.errors);
    return this.operations.treeViews.children(this.typeName, scope, id, viewer);
  }

  async parent(req: Request, res: Response): Promise<WriteResult> {
    const { scope, actor } = await this.records.enter("update", req, res);
    const id = this.records.recordId(req);
    const reader = params(req);
    const parent = reader.wholeNumber("parent", 1);
    const position = reader.wholeNumber("position", 0);
    throwIfAny(reader.errors);
    return this.operations.treeMoves.moveUnder(this.typeName, scope, id, parent, position, actor);
  }

  /** POST <record>/children: new nodes created under the record, all or none (operations/add-children.ts). */
  async addChildren(req: Request, res: Response): Promise<WriteResult> {
    const { scope, actor } = await this.records.enter("update", req, res);
    const id = this.records.recordId(req);
    return addChildren(this.operations.deps, this.typeName, scope, id, req.body as unknown, actor);
  }

  async acceptChildren(req: Request, res: Response): Promise<WriteResult> {
    const { scope, actor } = await this.records.enter("update", req, res);
    const id = this.records.recordId(req);
    const reader = params(req);
    const children = required(reader, "children", reader.array("children"));
    const position = reader.wholeNumber("position", 0);
    throwIfAny(reader.errors);
    return this.operations.treeMoves.acceptChildren(this.typeName, scope, id, children ?? [], position, actor);
  }
}
