// Projections through mingo, which implements inclusion, exclusion and the projection
// operators; stored documents are not modified (mingo builds new objects). The
// specification is first checked as MongoDB's projection parser checks it, so a malformed
// one fails with MongoDB's code even when no document matched.
import type { Document } from "bson";
import { Query } from "mingo";
import { CommandError, badValue } from "../errors.js";
import { describe, firstKey, isDocument, isNumeric, numericValue } from "../bson-values.js";
import { isExpressionName, validateExpression, validateOperatorExpression } from "./expression-validation.js";
import { validateFilter } from "./filter-validation.js";

/** MongoDB's location codes for malformed projections (projection_parser.cpp). */
const ProjectionErrors = {
  ExpressionInExclusion: 31252,
  InclusionInExclusion: 31253,
  ExclusionInInclusion: 31254,
  LiteralInExclusion: 31310,
  UnknownExpression: 31325,
  EmptySubProjection: 51270,
  ElemMatchNeedsObject: 31274,
  NestedElemMatch: 31275,
} as const;
/** MongoDB's InvalidPipelineOperator. */
const INVALID_PIPELINE_OPERATOR = 168;

/** find() accepts the $slice and $elemMatch projection operators; $project does not. */
export type ProjectionSyntax = "find" | "aggregate";

interface ParseState {
  syntax: ProjectionSyntax;
  type?: "inclusion" | "exclusion";
}

function include(state: ParseState, field: string, isTopLevelId: boolean): void {
  if (isTopLevelId) return;
  if (state.type === "exclusion")
    throw new CommandError(
      ProjectionErrors.InclusionInExclusion,
      `Cannot do inclusion on field ${field} in exclusion projection`,
    );
  state.type = "inclusion";
}

function exclude(state: ParseState, field: string, isTopLevelId: boolean): void {
  if (isTopLevelId) return;
  if (state.type === "inclusion")
    throw new CommandError(
      ProjectionErrors.ExclusionInInclusion,
      `Cannot do exclusion on field ${field} in inclusion projection`,
    );
  state.type = "exclusion";
}

/** A constant or field path such as {a: "$b"}: a computed field, so an inclusion. */
function computeLiteral(state: ParseState, field: string, value: unknown): void {
  if (state.type === "exclusion")
    throw new CommandError(
      ProjectionErrors.LiteralInExclusion,
      `Cannot use an expression ${field}: ${describe(value)} in an exclusion projection`,
    );
  state.type = "inclusion";
  validateExpression(value);
}

function checkFindElemMatch(field: string, argument: unknown, isTopLevel: boolean): void {
  if (!isDocument(argument))
    throw new CommandError(
      ProjectionErrors.ElemMatchNeedsObject,
      `elemMatch: Invalid argument, object required, but got ${describe(argument)}`,
    );
  if (!isTopLevel || field.includes("."))
    throw new CommandError(ProjectionErrors.NestedElemMatch, "Cannot use $elemMatch projection on a nested field.");
  validateFilter({ [field]: { $elemMatch: argument } });
}

/** {field: {$op: ...}}: a find-only operator, an expression, or an unknown name. */
function parseOperator(state: ParseState, field: string, spec: Document, isTopLevel: boolean): void {
  const name = firstKey(spec)!;
  if (state.syntax === "find" && name === "$slice") return;
  if (name === "$elemMatch") {
    if (state.syntax !== "find")
      throw new CommandError(INVALID_PIPELINE_OPERATOR, "Cannot use $elemMatch in this context");
    checkFindElemMatch(field, spec.$elemMatch, isTopLevel);
    return;
  }
  if (!isExpressionName(name)) throw new CommandError(ProjectionErrors.UnknownExpression, `Unknown expression ${name}`);
  const isMeta = name === "$meta";
  if (state.type === "exclusion" && !isMeta)
    throw new CommandError(
      ProjectionErrors.ExpressionInExclusion,
      "Cannot use expression other than $meta in exclusion projection",
    );
  if (!isMeta) state.type ??= "inclusion";
  validateOperatorExpression(spec);
}

function parseElement(state: ParseState, field: string, value: unknown, isTopLevel: boolean): void {
  const isTopLevelId = isTopLevel && field === "_id";
  if (isDocument(value)) {
    const names = Object.keys(value);
    if (names.length === 0)
      throw new CommandError(ProjectionErrors.EmptySubProjection, `Invalid empty sub-projection: ${field}`);
    if (names.length === 1 && names[0].startsWith("$")) parseOperator(state, field, value, isTopLevel);
    else for (const name of names) parseElement(state, name, value[name], false);
  } else if (typeof value === "boolean" || isNumeric(value)) {
    const included = typeof value === "boolean" ? value : numericValue(value) !== 0;
    if (included) include(state, field, isTopLevelId);
    else exclude(state, field, isTopLevelId);
  } else {
    computeLiteral(state, field, value);
  }
}

/**
 * Throws the error MongoDB gives for a malformed projection specification; otherwise
 * returns the specification to hand to mingo. MongoDB accepts {_id: 1, a: 0} as an
 * exclusion (_id is kept anyway) where mingo calls it a mix, so that _id is dropped.
 */
export function checkProjection(spec: Document, syntax: ProjectionSyntax): Document {
  const state: ParseState = { syntax };
  for (const [field, value] of Object.entries(spec)) parseElement(state, field, value, true);
  if (state.type !== "exclusion" || !("_id" in spec) || isDocument(spec._id)) return spec;
  const { _id: id, ...rest } = spec;
  const included = typeof id === "boolean" ? id : isNumeric(id) && numericValue(id) !== 0;
  return included ? rest : spec;
}

/** A scalar a projection may add as `{$literal: value}` without an expression evaluator. */
const isScalar = (value: unknown): boolean =>
  value === null || typeof value === "number" || typeof value === "boolean" || typeof value === "string";

/**
 * A projection that keeps top-level fields as they are and adds constants (`{a: 1, b: 1, tag: {$literal: "x"}}`,
 * the shape the service's link lookups send): the function applying it to one document, without mingo, whose
 * per-call compiling and copying cost several times the work (BENCHMARKS.md). Undefined for anything else, which
 * goes to mingo. Kept fields stay in the document's order and added ones follow, as MongoDB writes them.
 */
export function plainInclusion(spec: Document): ((doc: Document) => Document) | undefined {
  const keep = new Set<string>();
  const added: [string, unknown][] = [];
  let keepId = true;
  for (const [field, value] of Object.entries(spec)) {
    if (field.includes(".") || field.startsWith("$")) return undefined;
    if (field === "_id" && (value === 0 || value === false)) keepId = false;
    else if (value === true || (typeof value === "number" && value !== 0)) keep.add(field);
    else if (field !== "_id" && isDocument(value) && Object.keys(value).length === 1 && isScalar(value.$literal))
      added.push([field, value.$literal]);
    else return undefined;
  }
  // {_id: 0} alone is an exclusion projection.
  if (keep.size === 0 && added.length === 0) return undefined;
  if (keepId) keep.add("_id");
  // fromEntries defines the fields, so one named __proto__ stays a field.
  return (doc) => Object.fromEntries([...Object.entries(doc).filter(([field]) => keep.has(field)), ...added]);
}

export function project(docs: Document[], projection: Document | undefined, filter: Document = {}): Document[] {
  if (!projection || Object.keys(projection).length === 0) return docs;
  const plain = plainInclusion(projection);
  if (plain !== undefined) return docs.map(plain);
  const spec = checkProjection(projection, "find");
  try {
    return new Query(filter, {}).find<Document>(docs, spec).all();
  } catch (error) {
    throw badValue(error instanceof Error ? error.message : String(error));
  }
}
