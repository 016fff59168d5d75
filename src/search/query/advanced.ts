// ArchivesSpace's advanced query JSON (the `aq` parameter, and `filter`) read into the tree the q parser builds
// (parser.ts). The tree means what ArchivesSpace's AdvancedQueryString would render for Solr, but is built
// directly: no Lucene string is ever assembled from the user's values, so no value can escape its field.
// Properties are read only when the object's own (Object.hasOwn), only under names this module spells, and
// nothing is ever written under a key from the input; unknown properties are ignored, as ArchivesSpace drops
// them. The text's size, the number of subqueries and their nesting are bounded, and any input ends in a tree
// or an AdvancedQueryError naming where the problem is ("query/subqueries/1/field").
import { QueryParseError, parseQuery, type QueryNode } from "./parser.js";

export class AdvancedQueryError extends Error {
  constructor(
    message: string,
    /** Where in the JSON the problem is, as property names and array indexes joined by "/" ("" for the text). */
    readonly path: string,
  ) {
    super(message);
    this.name = "AdvancedQueryError";
  }
}

/** The deepest nesting of boolean_queries. */
export const ADVANCED_MAX_DEPTH = 32;
/** The most subqueries (of every kind, boolean_queries included) in one advanced query. */
export const ADVANCED_MAX_NODES = 1024;
/** The longest JSON text accepted, in UTF-8 bytes. */
export const ADVANCED_MAX_BYTES = 65536;

export interface AdvancedQueryOptions {
  /** Read every field_query's value as exact text (one phrase), as ArchivesSpace reads the `filter` parameter. */
  literal?: boolean;
}

/** A JSON object: read with `get`, never indexed with a key from the input. */
type JsonObject = { readonly [key: string]: unknown };

/**
 * ArchivesSpace's advanced search names (common/search_definitions.rb) as the fields this service searches:
 * keyword is the default field (null); title, identifier, creators, notes, subjects and suppressed are the
 * service's own names; published is `publish`. Any other name passes through, for the caller to check.
 */
const FIELD_NAMES = new Map<string, string | null>([
  ["keyword", null],
  ["title", "title"],
  ["identifier", "identifier"],
  ["creators", "creators"],
  ["notes", "notes"],
  ["subjects", "subjects"],
  ["published", "publish"],
  ["suppressed", "suppressed"],
]);

const QUERY_TYPES = ["boolean_query", "field_query", "date_field_query", "boolean_field_query", "range_query"];
const OPERATORS = ["AND", "OR", "NOT"] as const;
const FIELD_COMPARATORS = ["contains", "empty", "equals"] as const;
const DATE_COMPARATORS = ["greater_than", "lesser_than", "equal", "empty"] as const;
const PRECISIONS = ["day", "month", "year"] as const;

const ALL: QueryNode = { kind: "all" };

/** ArchivesSpace's advanced query JSON text (the aq or filter parameter) as a QueryNode. */
export function parseAdvancedQuery(json: string, options: AdvancedQueryOptions = {}): QueryNode {
  if (typeof json !== "string") throw new AdvancedQueryError("The advanced query must be JSON text", "");
  // A UTF-16 unit is at least one UTF-8 byte, so the cheap test first.
  if (json.length > ADVANCED_MAX_BYTES || Buffer.byteLength(json, "utf8") > ADVANCED_MAX_BYTES) {
    throw new AdvancedQueryError(`The advanced query is longer than ${ADVANCED_MAX_BYTES} bytes`, "");
  }
  let document: unknown;
  try {
    document = JSON.parse(json);
  } catch (error) {
    const reason = error instanceof Error ? `: ${error.message}` : "";
    throw new AdvancedQueryError(`The advanced query is not valid JSON${reason}`, "");
  }
  const top = object(document, "");
  const type = get(top, "jsonmodel_type");
  if (type !== undefined && type !== "advanced_query") {
    throw new AdvancedQueryError(`jsonmodel_type must be "advanced_query", not ${shown(type)}`, "jsonmodel_type");
  }
  const query = get(top, "query");
  if (query === undefined) throw missing("query");
  return new Reader(options.literal === true).subquery(query, "query", 0);
}

class Reader {
  private nodes = 0;

  constructor(private readonly literal: boolean) {}

  /** One subquery, `depth` boolean_queries down. */
  subquery(value: unknown, path: string, depth: number): QueryNode {
    const query = object(value, path);
    this.nodes++;
    if (this.nodes > ADVANCED_MAX_NODES) {
      throw new AdvancedQueryError(`The advanced query has more than ${ADVANCED_MAX_NODES} subqueries`, path);
    }
    const typePath = `${path}/jsonmodel_type`;
    const type = get(query, "jsonmodel_type");
    if (type === undefined) throw missing(typePath);
    switch (type) {
      case "boolean_query":
        return this.booleanQuery(query, path, depth);
      case "field_query":
        return this.fieldQuery(query, path);
      case "date_field_query":
        return dateFieldQuery(query, path);
      case "boolean_field_query":
        return booleanFieldQuery(query, path);
      case "range_query":
        return rangeQuery(query, path);
      default:
        throw new AdvancedQueryError(
          `${typePath}: unknown query type ${shown(type)} (expected one of ${QUERY_TYPES.join(", ")})`,
          typePath,
        );
    }
  }

  private booleanQuery(query: JsonObject, path: string, depth: number): QueryNode {
    if (depth + 1 > ADVANCED_MAX_DEPTH) {
      throw new AdvancedQueryError(`boolean_queries are nested more than ${ADVANCED_MAX_DEPTH} deep`, path);
    }
    const op = oneOf(query, "op", path, OPERATORS, undefined);
    const listPath = `${path}/subqueries`;
    const list = get(query, "subqueries");
    if (list === undefined) throw missing(listPath);
    if (!Array.isArray(list)) throw wrongType(listPath, "an array", list);
    if (list.length === 0) throw new AdvancedQueryError(`${listPath} must have at least one subquery`, listPath);
    const subqueries: QueryNode[] = [];
    for (let i = 0; i < list.length; i++) {
      subqueries.push(this.subquery(list[i] as unknown, `${listPath}/${i}`, depth + 1));
    }
    // "(a)" is a, whatever the operator.
    const [first, ...rest] = subqueries;
    if (first !== undefined && rest.length === 0) return first;
    if (op === "AND") return bool(subqueries, [], []);
    if (op === "OR") return bool([], subqueries, []);
    // ArchivesSpace renders NOT as "(a NOT b NOT c)", which Lucene (default OR) reads as should[a] mustNot[b, c].
    // A Boolean query with no required clause needs one of its optional ones, so that is a required a; it is
    // built as must[a] to say so, and to keep a required inside any enclosing query.
    return bool(first === undefined ? [] : [first], [], rest);
  }

  private fieldQuery(query: JsonObject, path: string): QueryNode {
    const field = fieldOf(query, path);
    const comparator = oneOf(query, "comparator", path, FIELD_COMPARATORS, "contains");
    const negated = flag(query, "negated", path, false);
    const literal = flag(query, "literal", path, false) || this.literal;
    const valuePath = `${path}/value`;
    const value = get(query, "value");
    if (value !== undefined && typeof value !== "string") throw wrongType(valuePath, "a string", value);
    if (comparator === "empty") return empty(field, negated, path);
    if (value === undefined) throw missing(valuePath);
    const node: QueryNode =
      comparator === "equals" || literal ? { kind: "phrase", field, text: value } : contains(field, value, valuePath);
    return negated ? not(node) : node;
  }
}

/** The value as Lucene text in the field: each term, phrase, prefix, range or `*` without a field gets it. */
function contains(field: string | null, value: string, path: string): QueryNode {
  // As ArchivesSpace does, every ':' becomes a space, so a value cannot name another field ("title:x" is two
  // terms); the leaves are then all the default field's, which this field replaces.
  const text = value.replaceAll(":", " ");
  if (text.trim() === "") throw new AdvancedQueryError(`${path} has no terms`, path);
  let parsed: QueryNode;
  try {
    parsed = parseQuery(text);
  } catch (error) {
    if (error instanceof QueryParseError) throw new AdvancedQueryError(`${path}: ${error.message}`, path);
    throw error;
  }
  return field === null ? parsed : inField(parsed, field);
}

function inField(node: QueryNode, field: string): QueryNode {
  switch (node.kind) {
    case "term":
    case "phrase":
    case "prefix":
    case "range":
      return node.field === null ? { ...node, field } : node;
    case "exists":
      return node;
    case "all":
      // A bare `*` (the only `all` a colon-free value can type) is `field:*`: the field has a value.
      return { kind: "exists", field };
    case "bool": {
      // Except the `all` the parser adds to a group of prohibited clauses only ("-x": everything but x), which
      // stays everything. ("+* -x" has the same shape, and so reads as "-x".)
      const [only] = node.must;
      const padded =
        only?.kind === "all" && node.must.length === 1 && node.should.length === 0 && node.mustNot.length > 0;
      return {
        kind: "bool",
        must: padded ? [ALL] : node.must.map((child) => inField(child, field)),
        should: node.should.map((child) => inField(child, field)),
        mustNot: node.mustNot.map((child) => inField(child, field)),
      };
    }
  }
}

function dateFieldQuery(query: JsonObject, path: string): QueryNode {
  const field = fieldOf(query, path);
  // ArchivesSpace renders any comparator but greater_than and lesser_than as equal.
  const comparator = oneOf(query, "comparator", path, DATE_COMPARATORS, "equal");
  const negated = flag(query, "negated", path, false);
  const precision = oneOf(query, "precision", path, PRECISIONS, "day");
  const valuePath = `${path}/value`;
  const value = get(query, "value");
  if (value !== undefined && typeof value !== "string") throw wrongType(valuePath, "a date string", value);
  if (comparator === "empty") return empty(field, negated, path);
  if (value === undefined) throw missing(valuePath);
  const instant = parseDate(value);
  if (instant === undefined) {
    throw new AdvancedQueryError(
      `${valuePath} must be a date (YYYY, YYYY-MM, YYYY-MM-DD or an ISO 8601 time), not ${shown(value)}`,
      valuePath,
    );
  }
  // The precision's unit (UTC day, month or year) the value falls in: equal is within it, greater_than after
  // it, lesser_than before it. (ArchivesSpace adds the unit to the value unrounded; the values its interface
  // sends start a unit, where the two agree.)
  const [start, end] = unitAround(instant, precision);
  let node: QueryNode;
  if (comparator === "equal") node = range(field, start, end, true, false);
  else if (comparator === "greater_than") node = range(field, end, null, true, true);
  else node = range(field, null, start, true, false);
  return negated ? not(node) : node;
}

function booleanFieldQuery(query: JsonObject, path: string): QueryNode {
  const field = fieldOf(query, path);
  const value = flag(query, "value", path, true);
  const negated = flag(query, "negated", path, false);
  const node: QueryNode = { kind: "term", field, text: value ? "true" : "false" };
  return negated ? not(node) : node;
}

function rangeQuery(query: JsonObject, path: string): QueryNode {
  const field = fieldOf(query, path);
  return range(field, bound(query, "from", path), bound(query, "to", path), true, true);
}

/** A range_query's end: absent, null or "*" is open. */
function bound(query: JsonObject, key: "from" | "to", path: string): string | null {
  const value = get(query, key);
  if (value === undefined) return null;
  if (typeof value !== "string") throw wrongType(`${path}/${key}`, "a string", value);
  if (value === "")
    throw new AdvancedQueryError(`${path}/${key} is empty (leave it out for an open end)`, `${path}/${key}`);
  return value === "*" ? null : value;
}

/** No value in the field (`*:* NOT field:*`), or, negated, any value. */
function empty(field: string | null, negated: boolean, path: string): QueryNode {
  if (field === null) {
    throw new AdvancedQueryError(`${path}/field: keyword (all text) cannot be tested for being empty`, `${path}/field`);
  }
  const exists: QueryNode = { kind: "exists", field };
  return negated ? exists : not(exists);
}

function not(node: QueryNode): QueryNode {
  return bool([ALL], [], [node]);
}

function bool(must: QueryNode[], should: QueryNode[], mustNot: QueryNode[]): QueryNode {
  return { kind: "bool", must, should, mustNot };
}

function range(
  field: string | null,
  from: string | null,
  to: string | null,
  includeFrom: boolean,
  includeTo: boolean,
): QueryNode {
  return { kind: "range", field, from, to, includeFrom, includeTo };
}

/** The subquery's field, as the service names it (null: the default field). */
function fieldOf(query: JsonObject, path: string): string | null {
  const fieldPath = `${path}/field`;
  const field = get(query, "field");
  if (field === undefined) throw missing(fieldPath);
  if (typeof field !== "string") throw wrongType(fieldPath, "a string", field);
  if (field === "") throw new AdvancedQueryError(`${fieldPath} is empty`, fieldPath);
  return FIELD_NAMES.has(field) ? (FIELD_NAMES.get(field) ?? null) : field;
}

// ---- Dates

const DATE =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/;

/** The instant (ms since the epoch, UTC) a date or time starts at; a time without an offset is UTC. */
function parseDate(text: string): number | undefined {
  if (text.length > 64) return undefined;
  const match = DATE.exec(text.trim());
  if (match === null) return undefined;
  const [, y, mo, d, h, mi, s, fraction, offset] = match;
  const year = Number(y);
  const month = mo === undefined ? 1 : Number(mo);
  const day = d === undefined ? 1 : Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  const ms = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, "0"));
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let shift = 0;
  if (offset !== undefined && offset !== "Z" && offset !== "z") {
    const digits = offset.slice(1).replace(":", "");
    const offsetHours = Number(digits.slice(0, 2));
    const offsetMinutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (offsetHours > 23 || offsetMinutes > 59) return undefined;
    shift = (offset.startsWith("-") ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  }
  return utc(year, month - 1, day, hour, minute, second, ms) - shift;
}

function daysIn(year: number, month: number): number {
  return new Date(utc(year, month, 0)).getUTCDate();
}

/** Date.UTC without its reading of years 0 to 99 as 1900 to 1999. */
function utc(year: number, monthIndex: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

/** The start and end (exclusive), as ISO 8601 times, of the UTC day, month or year holding the instant. */
function unitAround(instant: number, precision: (typeof PRECISIONS)[number]): [string, string] {
  const date = new Date(instant);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const day = date.getUTCDate();
  let start: number;
  let end: number;
  if (precision === "year") {
    start = utc(year, 0, 1);
    end = utc(year + 1, 0, 1);
  } else if (precision === "month") {
    start = utc(year, month, 1);
    end = utc(year, month + 1, 1);
  } else {
    start = utc(year, month, day);
    end = utc(year, month, day + 1);
  }
  return [new Date(start).toISOString(), new Date(end).toISOString()];
}

// ---- Reading JSON

function object(value: unknown, path: string): JsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw wrongType(path === "" ? "The advanced query" : path, "an object", value, path);
  }
  return value as JsonObject;
}

/** The object's own property (undefined when absent or null), under a name this module spells. */
function get(from: JsonObject, key: string): unknown {
  if (!Object.hasOwn(from, key)) return undefined;
  const value = from[key];
  return value === null ? undefined : value;
}

function flag(query: JsonObject, key: string, path: string, fallback: boolean): boolean {
  const value = get(query, key);
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") throw wrongType(`${path}/${key}`, "true or false", value);
  return value;
}

/** A string from the list; absent, the fallback, or when there is none an error. */
function oneOf<T extends string>(
  query: JsonObject,
  key: string,
  path: string,
  allowed: readonly T[],
  fallback: T | undefined,
): T {
  const at = `${path}/${key}`;
  const value = get(query, key);
  if (value === undefined) {
    if (fallback === undefined) throw missing(at);
    return fallback;
  }
  const found = allowed.find((candidate) => candidate === value);
  if (found === undefined) {
    throw new AdvancedQueryError(`${at} must be one of ${allowed.join(", ")}, not ${shown(value)}`, at);
  }
  return found;
}

function missing(path: string): AdvancedQueryError {
  return new AdvancedQueryError(`${path} is required`, path);
}

function wrongType(what: string, expected: string, value: unknown, path = what): AdvancedQueryError {
  return new AdvancedQueryError(`${what} must be ${expected}, not ${shown(value)}`, path);
}

/** A value as an error shows it: JSON, at most 40 characters of it. */
function shown(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object" && value !== null) return "an object";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
