// aggregate through mingo's pipeline engine, after the pipeline has been validated and
// $count expanded (query/pipeline.ts). The leading $match (with a following $sort, $skip
// and $limit) runs through the planner so that it uses indexes, and the pipelines
// countDocuments and $count send ($match, $skip, $limit, $group {n: {$sum: 1}}, and for
// $count a $project dropping _id) are answered by the index-aware count without
// materialising documents; a count per value of a path ($unwind, $group with $sum: 1) reads the
// matched documents in place (query/group-count.ts), and so does each such count of a $facet, or reads it from an
// index on the path when the matches are many (store/value-counts.ts).
import type { Document } from "bson";
import { Aggregator } from "mingo";
import { CommandError, ErrorCodes, badValue } from "../errors.js";
import { cloneValue } from "../query/clone.js";
import { countByPath, facetCounts, type IndexedCounts } from "../query/group-count.js";
import { preparePipeline } from "../query/pipeline.js";
import { plainInclusion } from "../query/projection.js";
import { isDocument } from "../bson-values.js";
import { parseSort } from "../query/sort.js";
import type { CollectionAccess, FoundRecord } from "../access.js";
import type { CommandHandler } from "./context.js";
import { documentArray, optionalDocument, nonNegativeInteger } from "./params.js";

interface CountPattern {
  filter: Document;
  skip: number;
  limit: number;
  /** The group key, echoed as _id unless the pipeline drops it. */
  id: unknown;
  field: string;
  dropsId: boolean;
}

/** `{$project: {_id: 0, <field>: 1}}`, the stage $count expands to after its $group. */
function dropsIdKeeping(stage: Document | undefined, field: string): boolean {
  const projection = stage?.$project as Document | undefined;
  return !!projection && Object.keys(projection).length === 2 && projection._id === 0 && projection[field] === 1;
}

/** Recognises the counting pipelines of countDocuments and of $count. */
function countPattern(pipeline: Document[]): CountPattern | undefined {
  let i = 0;
  const filter = pipeline[i] && "$match" in pipeline[i] ? (pipeline[i++].$match as Document) : {};
  let skip = 0;
  let limit = 0;
  if (pipeline[i] && "$skip" in pipeline[i]) skip = Number(pipeline[i++].$skip);
  if (pipeline[i] && "$limit" in pipeline[i]) limit = Number(pipeline[i++].$limit);
  const group = pipeline[i]?.$group as Document | undefined;
  if (!group) return undefined;
  const fields = Object.keys(group).filter((key) => key !== "_id");
  if (fields.length !== 1 || (group._id !== 1 && group._id !== null)) return undefined;
  const accumulator = group[fields[0]] as Document;
  if (!accumulator || accumulator.$sum !== 1 || Object.keys(accumulator).length !== 1) return undefined;
  if (!Number.isInteger(skip) || skip < 0 || !Number.isInteger(limit) || limit < 0) return undefined;
  const rest = pipeline.slice(i + 1);
  const dropsId = rest.length === 1 && dropsIdKeeping(rest[0], fields[0]);
  if (rest.length > 0 && !dropsId) return undefined;
  return { filter, skip, limit, id: group._id, field: fields[0], dropsId };
}

/**
 * `[{$match: {..., f: {$in: [v...]}}}, {$group: {_id: "$f", <n>: {$sum: 1}}}]`: how many
 * documents hold each value (tree views count the children of a page of nodes this way).
 * Answered with one index-aware count per value when `f` is never an array (a grouping key
 * would otherwise be the whole array), so the cost does not grow with the counted documents.
 */
interface GroupCountPattern {
  filter: Document;
  field: string;
  values: unknown[];
  name: string;
}

function groupCountPattern(pipeline: Document[]): GroupCountPattern | undefined {
  if (pipeline.length !== 2) return undefined;
  const match = pipeline[0]?.$match as Document | undefined;
  const group = pipeline[1]?.$group as Document | undefined;
  if (!match || !group || typeof group._id !== "string" || !group._id.startsWith("$") || group._id.startsWith("$$"))
    return undefined;
  const field = group._id.slice(1);
  const names = Object.keys(group).filter((key) => key !== "_id");
  const accumulator = group[names[0] ?? ""] as Document | undefined;
  if (names.length !== 1 || !accumulator || accumulator.$sum !== 1 || Object.keys(accumulator).length !== 1)
    return undefined;
  const condition = match[field] as Document | undefined;
  if (
    !condition ||
    typeof condition !== "object" ||
    !Array.isArray(condition.$in) ||
    Object.keys(condition).length !== 1
  )
    return undefined;
  if (condition.$in.some((value) => value === null || typeof value === "object")) return undefined;
  const { [field]: _in, ...filter } = match;
  return { filter, field, values: [...new Set(condition.$in as unknown[])], name: names[0] as string };
}

function countResult(pattern: CountPattern, n: number): Document[] {
  if (n === 0) return [];
  return [pattern.dropsId ? { [pattern.field]: n } : { _id: pattern.id, [pattern.field]: n }];
}

/** The leading $match/$sort/$skip/$limit stages, run through the planner: the records found, what is left. */
function leadingSource(
  access: CollectionAccess,
  pipeline: Document[],
): { docs: Document[]; found: FoundRecord[]; rest: Document[] } {
  let i = 0;
  let filter: Document | undefined;
  let sort: Document | undefined;
  let skip = 0;
  let limit = 0;
  if (pipeline[i] && "$match" in pipeline[i]) filter = pipeline[i++].$match as Document;
  if (pipeline[i] && "$sort" in pipeline[i]) sort = pipeline[i++].$sort as Document;
  if (sort && pipeline[i] && "$skip" in pipeline[i] && Number.isInteger(pipeline[i].$skip))
    skip = pipeline[i++].$skip as number;
  if (sort && pipeline[i] && "$limit" in pipeline[i] && Number.isInteger(pipeline[i].$limit))
    limit = pipeline[i++].$limit as number;
  const found = access.find({ filter: filter ?? {}, sort: parseSort(sort), skip, limit });
  return { docs: found.map((r) => r.doc), found, rest: pipeline.slice(i) };
}

/**
 * `$addFields`/`$set` whose values are all literals (no expressions, no dotted or $ keys): the fields to add, else
 * undefined.
 */
function literalFields(stage: Document): Document | undefined {
  const fields = (stage.$addFields ?? stage.$set) as Document | undefined;
  if (fields === undefined || Object.keys(stage).length !== 1 || typeof fields !== "object" || fields === null)
    return undefined;
  for (const [key, value] of Object.entries(fields)) {
    if (key.startsWith("$") || key.includes(".")) return undefined;
    const literal =
      value === null ||
      typeof value === "number" ||
      typeof value === "boolean" ||
      (typeof value === "string" && !value.startsWith("$"));
    if (!literal) return undefined;
  }
  return fields;
}

/**
 * A stage that maps each document on its own without expressions: literal `$addFields`/`$set` (a shallow copy with
 * the fields; stored documents stay untouched) or a `$project` keeping top-level fields and adding constants.
 */
function directMap(stage: Document): ((doc: Document) => Document) | undefined {
  const fields = literalFields(stage);
  if (fields !== undefined) return (doc) => ({ ...doc, ...fields });
  const projection = stage.$project as Document | undefined;
  if (projection === undefined || Object.keys(stage).length !== 1 || !isDocument(projection)) return undefined;
  return plainInclusion(projection);
}

/**
 * Leading stages simple enough to run without mingo, as the documents pass: the per-document maps of directMap, and
 * `$unionWith` whose sub-pipeline is an index-served $match (+ $sort/$skip/$limit) followed by such maps only.
 * resolve[]'s one-query-per-level pipeline and a GET's read of what links to its record are all of this; mingo's
 * per-stage compiling and copying would cost them several times more. Returns the documents so far and the stages
 * left for mingo.
 */
function directStages(
  access: (name: string) => CollectionAccess,
  source: Document[],
  stages: Document[],
): { docs: Document[]; rest: Document[] } {
  let docs = source;
  let i = 0;
  for (; i < stages.length; i++) {
    const stage = stages[i] as Document;
    const map = directMap(stage);
    if (map !== undefined) {
      docs = docs.map(map);
      continue;
    }
    const union = stage.$unionWith as Document | undefined;
    if (
      !union ||
      typeof union.coll !== "string" ||
      !Array.isArray(union.pipeline) ||
      !(union.pipeline[0] && "$match" in union.pipeline[0])
    )
      break;
    const { docs: matched, rest } = leadingSource(access(union.coll), union.pipeline as Document[]);
    const maps = (rest as Document[]).map(directMap);
    if (maps.some((map) => map === undefined)) break;
    docs = docs.concat(matched.map((doc) => maps.reduce<Document>((mapped, map) => map!(mapped), doc)));
  }
  return { docs, rest: stages.slice(i) };
}

/**
 * Top-level `$unionWith` stages whose sub-pipeline starts with a $match get that match (and a
 * following $sort/$skip/$limit) from the planner, like the main pipeline's, instead of
 * handing mingo the whole collection: a union of a few records by id costs a few index
 * lookups, not a scan. The stage then names a stand-in collection holding the matched documents.
 */
function indexedUnions(
  access: (name: string) => CollectionAccess,
  stages: Document[],
): { stages: Document[]; sources: Map<string, Document[]> } {
  const sources = new Map<string, Document[]>();
  const rewritten = stages.map((stage) => {
    const union = stage.$unionWith as Document | undefined;
    if (
      !union ||
      typeof union.coll !== "string" ||
      !Array.isArray(union.pipeline) ||
      !(union.pipeline[0] && "$match" in union.pipeline[0])
    )
      return stage;
    const { docs, rest } = leadingSource(access(union.coll), union.pipeline as Document[]);
    // A name no client collection can have (NUL is not allowed in collection names).
    const name = `\u0000union${sources.size}`;
    sources.set(name, docs);
    return { $unionWith: { coll: name, pipeline: rest } };
  });
  return { stages: rewritten, sources };
}

export const aggregate: CommandHandler = (ctx) => {
  const target = ctx.command.aggregate;
  const pipeline = preparePipeline(documentArray(ctx.command, "pipeline"));
  if (ctx.command.explain)
    throw new CommandError(ErrorCodes.NotImplemented, "explain is not supported by the embedded engine");
  const cursorOptions = optionalDocument(ctx.command, "cursor");
  if (!cursorOptions)
    throw new CommandError(
      ErrorCodes.FailedToParse,
      "The 'cursor' option is required, except for aggregate with the explain argument",
    );
  const batchSize = nonNegativeInteger(cursorOptions, "batchSize");

  let source: Document[];
  let rest = pipeline;
  let ns: string;
  /** Counts per value of a path over the leading match's records, from an index: only while they are the source. */
  let indexed: IndexedCounts | undefined;
  if (target === 1) {
    // Collection-less aggregate: only $documents can feed it.
    if (!pipeline[0] || !("$documents" in pipeline[0]))
      throw new CommandError(
        ErrorCodes.InvalidNamespace,
        "{aggregate: 1} is not valid for '$match'; a collection is required.",
      );
    source = [];
    ns = `${ctx.db}.$cmd.aggregate`;
  } else {
    if (typeof target !== "string")
      throw new CommandError(ErrorCodes.InvalidNamespace, "aggregate requires a collection name");
    const access = ctx.access(target);
    ns = `${ctx.db}.${target}`;
    const grouped = groupCountPattern(pipeline);
    if (grouped && access.scalarField(grouped.field)) {
      const counts = grouped.values.map((value) => ({
        _id: value,
        [grouped.name]: access.count({ ...grouped.filter, [grouped.field]: value }, 0, 0, ctx.command.hint),
      }));
      return ctx.cursors.open(
        ns,
        counts.filter((row) => (row[grouped.name] as number) > 0),
        batchSize,
      );
    }
    const counting = countPattern(pipeline);
    if (counting) {
      const n = access.count(counting.filter, counting.skip, counting.limit, ctx.command.hint);
      return ctx.cursors.open(ns, countResult(counting, n), batchSize);
    }
    const leading = leadingSource(access, pipeline);
    ({ docs: source, rest } = leading);
    // The ids only when a count asks for them: most aggregates never do.
    let rids: number[] | undefined;
    indexed = (path, unwind) => access.valueCounts(path, (rids ??= leading.found.map((r) => r.rid)), unwind);
  }
  let results: Document[];
  try {
    const direct = directStages((name) => ctx.access(name), source, rest);
    // A stage that changed the documents leaves their counts to them.
    if (direct.rest.length !== rest.length) indexed = undefined;
    ({ docs: source, rest } = direct);
    ({ docs: source, rest } = countByPath(source, rest, indexed) ??
      facetCounts(source, rest, (counts, stages) => new Aggregator(stages).run(counts) as Document[], indexed) ?? {
        docs: source,
        rest,
      });
    const { stages, sources } = indexedUnions((name) => ctx.access(name), rest);
    // mingo may modify the documents it is given; stored documents must stay immutable.
    const resolve = (name: string) => (sources.get(name) ?? ctx.access(name).all()).map(cloneValue);
    results =
      stages.length === 0
        ? source
        : (new Aggregator(stages, { collectionResolver: resolve }).run(source.map(cloneValue)) as Document[]);
  } catch (error) {
    if (error instanceof CommandError) throw error;
    throw badValue(error instanceof Error ? error.message : String(error));
  }
  return ctx.cursors.open(ns, results, batchSize);
};
