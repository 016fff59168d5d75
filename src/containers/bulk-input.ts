// What the container and location bulk routes read from a request (docs/api.md §13): a JSON object keyed by record
// uris, a list of ids, a list of uris, each bounded by the configured most records per call, each problem a 400
// naming the parameter. Keys and values the caller chose are kept in Maps, never as keys of plain objects.
import { badRequest } from "../errors/api-error.js";
import type { Registry } from "../registry/index.js";
import { ParamReader, REQUIRED, throwIfAny, type ParameterValues } from "../records/http/list-params.js";

/** The longest piece of a caller's text an error message repeats. */
const MAX_ECHO = 200;

/** A caller's text, cut for an error message. */
export function echo(text: string): string {
  return text.length <= MAX_ECHO ? text : `${text.slice(0, MAX_ECHO)}… (cut)`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A 400 naming `name` past the most records per call. */
function tooMany(name: string, count: number, max: number): never {
  throw badRequest({ [name]: [`At most ${max} records per call, not ${count}`] });
}

/**
 * The id of the record of `typeName` that `uri` names in repository `repoId` (undefined for a global type), or a
 * 400 naming `name`.
 */
export function idOfUri(
  registry: Registry,
  typeName: string,
  uri: string,
  name: string,
  repoId: number | undefined,
): number {
  const parsed = registry.parseUri(uri);
  if (parsed === undefined || parsed.type !== typeName || parsed.repoId !== repoId) {
    const where = repoId === undefined ? "" : ` of /repositories/${repoId}`;
    throw badRequest({ [name]: [`Must be a ${typeName} uri${where}, not "${echo(uri)}"`] });
  }
  return parsed.id;
}

/**
 * A JSON object body `{"<record uri>": value}` (ArchivesSpace's bulk routes): each key a record of `typeName` in
 * the repository, each value a string or null (`""` taken as null, as ArchivesSpace's staff interface sends a blank
 * field). Returns id -> value, in the body's order.
 */
export function uriValueMap(
  registry: Registry,
  body: unknown,
  { name, typeName, repoId, max }: { name: string; typeName: string; repoId: number; max: number },
): Map<number, string | null> {
  if (!isPlainObject(body))
    throw badRequest({ [name]: ['Must be a JSON object of record uris to values, as {"<uri>": "<value>"}'] });
  const entries = Object.entries(body);
  if (entries.length > max) tooMany(name, entries.length, max);
  const values = new Map<number, string | null>();
  for (const [uri, value] of entries) {
    const id = idOfUri(registry, typeName, uri, name, repoId);
    if (value !== null && typeof value !== "string")
      throw badRequest({ [name]: [`The value for ${echo(uri)} must be text or null`] });
    // Two uris of one record (`/repositories/2/top_containers/07`, if a pattern took it) would be two edits of one.
    if (values.has(id)) throw badRequest({ [name]: [`${echo(uri)} names a record named before`] });
    values.set(id, value === "" ? null : value);
  }
  return values;
}

/** `ids[]` (or a repeated `ids`): distinct positive whole numbers, at least one, at most `max`. */
export function idsParam(values: ParameterValues, max: number): number[] {
  const reader = new ParamReader(values);
  const given = reader.array("ids");
  if (given === undefined) throw badRequest({ "ids[]": [REQUIRED] });
  const ids = new Set<number>();
  for (const raw of given) {
    const id = Number(raw);
    if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(id) || id < 1)
      throw badRequest({ "ids[]": [`Must be positive whole numbers, not "${echo(raw)}"`] });
    ids.add(id);
  }
  if (ids.size > max) tooMany("ids[]", ids.size, max);
  return [...ids];
}

/** A scalar parameter that must be given, though it may be empty (`""`: clear the field). */
export function presentParam(values: ParameterValues, name: string): string {
  const reader = new ParamReader(values);
  const value = reader.scalar(name);
  if (value === undefined) reader.fail(name, REQUIRED);
  throwIfAny(reader.errors);
  return (value as string).trim();
}

/** A list of record uris of `typeName` under `name` in a JSON body: distinct ids, at least one, at most `max`. */
export function uriList(
  registry: Registry,
  given: unknown,
  { name, typeName, max }: { name: string; typeName: string; max: number },
): number[] {
  if (given === undefined) throw badRequest({ [name]: [REQUIRED] });
  if (!Array.isArray(given) || given.length === 0 || given.some((uri) => typeof uri !== "string"))
    throw badRequest({ [name]: ["Must be a non-empty list of record uris"] });
  if (given.length > max) tooMany(name, given.length, max);
  const ids = new Set((given as string[]).map((uri) => idOfUri(registry, typeName, uri, name, undefined)));
  return [...ids];
}
