// Aggregation pipelines checked as MongoDB parses them, before mingo runs them: mingo
// checks a stage's arguments only when documents reach it (so an empty collection hides
// the error) and reports everything as a generic error. Stages MongoDB defines by
// rewriting are rewritten here, so that their semantics are MongoDB's rather than mingo's.
import type { Document } from "bson";
import * as mingoStages from "mingo/operators/pipeline";
import { CommandError, ErrorCodes } from "../errors.js";
import { bsonTypeName, firstKey, isDocument, nonNegativeIntegerProblem, numericValue } from "../bson-values.js";
import { IMPLEMENTED_ACCUMULATORS, notSupported, validateExpression } from "./expression-validation.js";
import { checkFilter } from "./filter.js";
import { checkProjection } from "./projection.js";
import { parseSort } from "./sort.js";

/** MongoDB's location codes for malformed stages (document_source_*.cpp). */
const StageErrors = {
  NotOneField: 40323,
  MatchNotObject: 15959,
  SortNotObject: 15973,
  SortEmpty: 15976,
  SkipInvalid: 5107200,
  LimitInvalid: 5107201,
  LimitNotPositive: 15958,
  CountNotString: 40156,
  CountEmpty: 40157,
  CountDollarPrefixed: 40158,
  CountNullByte: 40159,
  CountDotted: 40160,
  GroupNotObject: 15947,
  GroupDuplicateId: 15948,
  GroupMissingId: 15955,
  UnknownAccumulator: 15952,
  AccumulatorNotObject: 40234,
  AccumulatorFieldDotted: 40235,
  AccumulatorFieldDollarPrefixed: 40236,
  AccumulatorNotOne: 40238,
  ProjectNotObject: 15969,
  ProjectEmpty: 51272,
  AddFieldsNotObject: 40272,
} as const;

/** MongoDB stages the engine refuses: writes, search, geo, change streams, diagnostics. */
const REFUSED_STAGES = new Set([
  "$out",
  "$merge",
  "$geoNear",
  "$search",
  "$searchMeta",
  "$vectorSearch",
  "$rankFusion",
  "$scoreFusion",
  "$changeStream",
  "$changeStreamSplitLargeEvent",
  "$collStats",
  "$indexStats",
  "$planCacheStats",
  "$currentOp",
  "$listSessions",
  "$listLocalSessions",
  "$listSampledQueries",
  "$listSearchIndexes",
  "$listClusterCatalog",
  "$queryStats",
  "$querySettings",
  "$shardedDataDistribution",
]);
const IMPLEMENTED_STAGES = new Set(Object.keys(mingoStages).filter((name) => name.startsWith("$")));

/** $accumulator runs user JavaScript; the others are MongoDB 8.1 accumulators mingo lacks. */
const REFUSED_ACCUMULATORS = new Set(["$accumulator", "$concatArrays", "$setUnion"]);

function stageName(stage: unknown): string {
  if (!isDocument(stage) || Object.keys(stage).length !== 1) {
    throw new CommandError(
      StageErrors.NotOneField,
      "A pipeline stage specification object must contain exactly one field.",
    );
  }
  return firstKey(stage)!;
}

function checkStageName(name: string): void {
  if (REFUSED_STAGES.has(name)) throw notSupported(name);
  if (!IMPLEMENTED_STAGES.has(name))
    throw new CommandError(ErrorCodes.Location40324, `Unrecognized pipeline stage name: '${name}'`);
}

function checkMatch(argument: unknown): void {
  if (!isDocument(argument))
    throw new CommandError(StageErrors.MatchNotObject, "the match filter must be an expression in an object");
  checkFilter(argument);
}

function checkSort(argument: unknown): void {
  if (!isDocument(argument))
    throw new CommandError(StageErrors.SortNotObject, "the $sort key specification must be an object");
  if (Object.keys(argument).length === 0)
    throw new CommandError(StageErrors.SortEmpty, "$sort stage must have at least one sort key");
  parseSort(argument);
}

function checkSkip(argument: unknown): void {
  const problem = nonNegativeIntegerProblem("$skip", argument);
  if (problem) throw new CommandError(StageErrors.SkipInvalid, `invalid argument to $skip stage: ${problem}`);
}

function checkLimit(argument: unknown): void {
  const problem = nonNegativeIntegerProblem("$limit", argument);
  if (problem) throw new CommandError(StageErrors.LimitInvalid, `invalid argument to $limit stage: ${problem}`);
  if (numericValue(argument) === 0) throw new CommandError(StageErrors.LimitNotPositive, "the limit must be positive");
}

/** One output field of $group, $bucket or $bucketAuto: {field: {$accumulator: expression}}. */
function checkAccumulatorField(field: string, spec: unknown): void {
  if (field.includes("."))
    throw new CommandError(StageErrors.AccumulatorFieldDotted, `The field name '${field}' cannot contain '.'`);
  if (field.startsWith("$"))
    throw new CommandError(
      StageErrors.AccumulatorFieldDollarPrefixed,
      `The field name '${field}' cannot be an operator name`,
    );
  if (!isDocument(spec))
    throw new CommandError(StageErrors.AccumulatorNotObject, `The field '${field}' must be an accumulator object`);
  const names = Object.keys(spec);
  if (names.length !== 1)
    throw new CommandError(StageErrors.AccumulatorNotOne, `The field '${field}' must specify one accumulator`);
  const [accumulator] = names;
  if (REFUSED_ACCUMULATORS.has(accumulator)) throw notSupported(accumulator);
  if (!IMPLEMENTED_ACCUMULATORS.has(accumulator))
    throw new CommandError(StageErrors.UnknownAccumulator, `unknown group operator '${accumulator}'`);
  validateExpression(spec[accumulator]);
}

function checkGroup(argument: unknown): void {
  if (!isDocument(argument))
    throw new CommandError(StageErrors.GroupNotObject, "a group's fields must be specified in an object");
  if (!("_id" in argument))
    throw new CommandError(StageErrors.GroupMissingId, "a group specification must include an _id");
  validateExpression(argument._id);
  for (const [field, spec] of Object.entries(argument)) if (field !== "_id") checkAccumulatorField(field, spec);
}

function checkBucket(argument: unknown): void {
  if (!isDocument(argument)) return; // mingo reports a malformed $bucket itself
  validateExpression(argument.groupBy);
  if (isDocument(argument.output))
    for (const [field, spec] of Object.entries(argument.output)) checkAccumulatorField(field, spec);
}

function rewriteProject(argument: unknown): Document[] {
  if (!isDocument(argument))
    throw new CommandError(StageErrors.ProjectNotObject, "$project specification must be an object");
  if (Object.keys(argument).length === 0)
    throw new CommandError(StageErrors.ProjectEmpty, "projection specification must have at least one field");
  return [{ $project: checkProjection(argument, "aggregate") }];
}

function addFieldsCheck(name: string): (argument: unknown) => void {
  return (argument) => {
    if (!isDocument(argument))
      throw new CommandError(
        StageErrors.AddFieldsNotObject,
        `${name} specification stage must be an object, got ${bsonTypeName(argument)}`,
      );
    for (const value of Object.values(argument)) validateExpression(value);
  };
}

/** Stages whose arguments are checked before the pipeline runs. */
const STAGE_CHECKS: ReadonlyMap<string, (argument: unknown) => void> = new Map(
  Object.entries<(argument: unknown) => void>({
    $match: checkMatch,
    $sort: checkSort,
    $skip: checkSkip,
    $limit: checkLimit,
    $group: checkGroup,
    $bucket: checkBucket,
    $bucketAuto: checkBucket,
    $addFields: addFieldsCheck("$addFields"),
    $set: addFieldsCheck("$set"),
    $replaceRoot: (argument) => {
      if (isDocument(argument)) validateExpression(argument.newRoot);
    },
    $replaceWith: validateExpression,
    $sortByCount: validateExpression,
    $redact: validateExpression,
  }),
);

/** $count as MongoDB defines it: a $group by null (no document on an empty input) then a $project. */
function rewriteCount(argument: unknown): Document[] {
  const mustBeNonEmpty = "the count field must be a non-empty string";
  if (typeof argument !== "string") throw new CommandError(StageErrors.CountNotString, mustBeNonEmpty);
  if (argument.length === 0) throw new CommandError(StageErrors.CountEmpty, mustBeNonEmpty);
  if (argument.startsWith("$"))
    throw new CommandError(StageErrors.CountDollarPrefixed, "the count field cannot be a $-prefixed path");
  if (argument.includes("\0"))
    throw new CommandError(StageErrors.CountNullByte, "the count field cannot contain a null byte");
  if (argument.includes(".")) throw new CommandError(StageErrors.CountDotted, "the count field cannot contain '.'");
  if (argument === "_id")
    throw new CommandError(StageErrors.GroupDuplicateId, "a group's _id may only be specified once");
  return [{ $group: { _id: null, [argument]: { $sum: 1 } } }, { $project: { _id: 0, [argument]: 1 } }];
}

function rewriteFacet(argument: unknown): Document[] {
  if (!isDocument(argument)) return [{ $facet: argument }];
  const facets: Document = {};
  for (const [name, pipeline] of Object.entries(argument))
    facets[name] = Array.isArray(pipeline) ? preparePipeline(pipeline) : pipeline;
  return [{ $facet: facets }];
}

function rewriteLookup(argument: unknown): Document[] {
  if (!isDocument(argument)) return [{ $lookup: argument }];
  if (isDocument(argument.let)) for (const value of Object.values(argument.let)) validateExpression(value);
  return [
    {
      $lookup: Array.isArray(argument.pipeline)
        ? { ...argument, pipeline: preparePipeline(argument.pipeline) }
        : argument,
    },
  ];
}

function rewriteUnionWith(argument: unknown): Document[] {
  const nested = isDocument(argument) && Array.isArray(argument.pipeline);
  return [
    { $unionWith: nested ? { ...argument, pipeline: preparePipeline(argument.pipeline as unknown[]) } : argument },
  ];
}

/** Stages replaced by others, adjusted for mingo, or holding sub-pipelines that need the same preparation. */
const STAGE_REWRITES: ReadonlyMap<string, (argument: unknown) => Document[]> = new Map(
  Object.entries<(argument: unknown) => Document[]>({
    $count: rewriteCount,
    $project: rewriteProject,
    $facet: rewriteFacet,
    $lookup: rewriteLookup,
    $unionWith: rewriteUnionWith,
  }),
);

function prepareStage(stage: unknown): Document[] {
  const name = stageName(stage);
  const argument = (stage as Document)[name];
  checkStageName(name);
  STAGE_CHECKS.get(name)?.(argument);
  const rewrite = STAGE_REWRITES.get(name);
  return rewrite ? rewrite(argument) : [stage as Document];
}

/**
 * Validates every stage (sub-pipelines included) with MongoDB's error codes, and returns
 * the pipeline with $count expanded as MongoDB expands it. The input is not modified.
 */
export function preparePipeline(pipeline: readonly unknown[]): Document[] {
  return pipeline.flatMap(prepareStage);
}
