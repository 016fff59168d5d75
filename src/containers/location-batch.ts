// ArchivesSpace's location batches (backend/app/model/location.rb; docs/api.md §13): many locations made from one
// template and up to three coordinate ranges (`POST /locations/batch`, or only their titles with `dry_run`), and
// the same fields set on a list of locations (`POST /locations/batch_update`). Each is one write: every location
// is checked as a create or an update checks it before any is stored.
import { badRequest } from "../errors/api-error.js";
import type { JsonObject, JsonValue } from "../registry/index.js";
import { localComputer } from "../records/computed/local-fields.js";
import type { OperationDeps } from "../records/deps.js";
import { createRecords } from "../records/operations/create.js";
import { recordType } from "../records/operations/locate.js";
import { checkRecords } from "../records/operations/create.js";
import type { Actor, WriteResult } from "../records/operations/index.js";
import { updateRecords } from "../records/operations/update-many.js";
import { echo, uriList } from "./bulk-input.js";

export const LOCATION = "location";
const RANGES = ["coordinate_1_range", "coordinate_2_range", "coordinate_3_range"] as const;
/** Fields of a batch body that are the batch's, not the locations'. */
const BATCH_FIELDS: ReadonlySet<string> = new Set([...RANGES, "locations", "record_uris", "jsonmodel_type", "uri"]);

interface CoordinateRange {
  label: string;
  /** The indicators, in order, with prefix and suffix. */
  indicators: string[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A text field of a range, or a 400 naming it. */
function rangeText(range: Record<string, unknown>, name: string, field: string, required: boolean): string {
  const value = range[field];
  if (value === undefined || value === null || value === "") {
    if (required) throw badRequest({ [`${name}/${field}`]: ["Property is required but was missing"] });
    return "";
  }
  if (typeof value !== "string") throw badRequest({ [`${name}/${field}`]: ["Must be text"] });
  return value;
}

/**
 * The values from `start` to `end`, as Ruby's string ranges give them for what ArchivesSpace's form offers: whole
 * numbers (zero-padded to the start's width: 08, 09, 10) or single letters of one case. At most `max` (the caller
 * refuses more).
 */
function expand(start: string, end: string, name: string, max: number): string[] {
  let from: number;
  let to: number;
  let show: (n: number) => string;
  if (/^[0-9]+$/.test(start) && /^[0-9]+$/.test(end)) {
    from = Number(start);
    to = Number(end);
    show = (n) => String(n).padStart(start.length, "0");
  } else if ((/^[A-Z]$/.test(start) && /^[A-Z]$/.test(end)) || (/^[a-z]$/.test(start) && /^[a-z]$/.test(end))) {
    from = start.charCodeAt(0);
    to = end.charCodeAt(0);
    show = (n) => String.fromCharCode(n);
  } else {
    throw badRequest({
      [`${name}/start`]: ["start and end must both be whole numbers, or both single letters of one case"],
    });
  }
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || to < from)
    throw badRequest({ [`${name}/end`]: [`Must not come before start ("${echo(start)}")`] });
  const count = Math.min(to - from + 1, max + 1);
  return Array.from({ length: count }, (_, i) => show(from + i));
}

/** A coordinate range of the body (undefined when an optional one is absent), or a 400 naming it. */
function coordinateRange(
  body: Record<string, unknown>,
  name: string,
  required: boolean,
  max: number,
): CoordinateRange | undefined {
  const range = body[name];
  if (range === undefined || range === null) {
    if (required) throw badRequest({ [name]: ["Property is required but was missing"] });
    return undefined;
  }
  if (!isPlainObject(range)) throw badRequest({ [name]: ["Must be an object with label, start and end"] });
  const label = rangeText(range, name, "label", true);
  const prefix = rangeText(range, name, "prefix", false);
  const suffix = rangeText(range, name, "suffix", false);
  const values = expand(rangeText(range, name, "start", true), rangeText(range, name, "end", true), name, max);
  return { label, indicators: values.map((value) => `${prefix}${value}${suffix}`) };
}

/** The body's location fields: everything but the batch's own. */
function templateOf(body: Record<string, unknown>): Map<string, unknown> {
  return new Map(Object.entries(body).filter(([key]) => !BATCH_FIELDS.has(key)));
}

/** The locations a batch body makes: the template with each combination of the ranges' indicators. */
export function locationsOfBatch(body: unknown, max: number): JsonObject[] {
  if (!isPlainObject(body))
    throw badRequest({ location_batch: ["Must be a JSON object: a location with coordinate ranges"] });
  const ranges = RANGES.map((name, i) => coordinateRange(body, name, i === 0, max)).filter(
    (range): range is CoordinateRange => range !== undefined,
  );
  const count = ranges.reduce((product, range) => product * range.indicators.length, 1);
  if (count > max)
    throw badRequest({ coordinate_1_range: [`The ranges make ${count} or more locations; at most ${max} per call`] });
  let combinations: Array<Array<[string, string]>> = [[]];
  for (const [i, range] of ranges.entries()) {
    const n = i + 1;
    combinations = combinations.flatMap((done) =>
      range.indicators.map((indicator) => [
        ...done,
        [`coordinate_${n}_label`, range.label] as [string, string],
        [`coordinate_${n}_indicator`, indicator] as [string, string],
      ]),
    );
  }
  const template = templateOf(body);
  // Through Maps: the body's keys are the caller's; the validator drops whatever is no location field.
  return combinations.map((pairs) => Object.fromEntries([...template, ...pairs]) as JsonObject);
}

/**
 * `POST /locations/batch`: the locations' uris once created, in one write; with `dryRun`, their titles (as a
 * location's `title` reads), checked as a create would check them and nothing written.
 */
export async function createLocationBatch(
  deps: OperationDeps,
  body: unknown,
  actor: Actor,
  { dryRun, max }: { dryRun: boolean; max: number },
): Promise<string[]> {
  const locations = locationsOfBatch(body, max);
  const items = locations.map((input) => ({ input }));
  if (dryRun) {
    const type = recordType(deps, LOCATION, {});
    const prepared = await checkRecords(deps, type, {}, items);
    const compute = localComputer(type);
    return prepared.map((one) => {
      const shown = { ...one.fields } as Record<string, JsonValue>;
      compute?.(shown);
      return typeof shown.title === "string" ? shown.title : "";
    });
  }
  const results: WriteResult[] = await deps.store.transaction((session) =>
    createRecords(deps, LOCATION, {}, items, actor, new Set(), { session }),
  );
  return results.map((result) => result.uri);
}

/**
 * `POST /locations/batch_update`: the body's location fields set on every location of its `record_uris`, each
 * location's other fields kept, in one write. Answers each location's update answer.
 */
export async function updateLocationBatch(
  deps: OperationDeps,
  body: unknown,
  actor: Actor,
  max: number,
): Promise<WriteResult[]> {
  if (!isPlainObject(body))
    throw badRequest({ location_batch_update: ["Must be a JSON object: location fields and record_uris"] });
  const ids = uriList(deps.registry, body.record_uris, { name: "record_uris", typeName: LOCATION, max });
  const changes = [...templateOf(body)].filter(
    ([key, value]) => key !== "lock_version" && value !== null && value !== "",
  );
  const edits = ids.map((id) => ({
    id,
    edit: (record: JsonObject) => Object.fromEntries([...Object.entries(record), ...changes]) as JsonObject,
  }));
  return updateRecords(deps, LOCATION, {}, edits, actor);
}
