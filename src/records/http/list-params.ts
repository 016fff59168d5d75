// A list request's parameters (docs/api.md §1, §5) as a ListQuery, or a 400 that names the
// parameter. Parameters come from the query string or a form body; express's "simple" parser
// leaves keys literal (`id_set[]`) and turns a repeated key into an array, so each parameter is
// read here as the list of strings it was given. ArchivesSpace answers 500 to bad values; every
// one of them is a 400 here.
import type { Request } from "express";
import { badRequest } from "../../errors/api-error.js";
import { addFieldError, fieldErrors } from "../../registry/validation-errors.js";
import type { RecordType } from "../../registry/index.js";
import { DEFAULT_PAGE_SIZE, MAX_ID_SET, MAX_PAGE_SIZE, type ListMode, type ListQuery } from "../operations/index.js";

/** Every value each parameter name was given, in arrival order (query string first). */
export type ParameterValues = ReadonlyMap<string, readonly string[]>;

export const REQUIRED = "Parameter required but no value provided";
const FIELD_NAME = /^[a-z_][a-z0-9_]*$/;
const DIGITS = /^[0-9]+$/;

type ParamErrors = Record<string, string[]>;

/** Reads parameters by kind, collecting every problem (for one 400 naming them all). */
export class ParamReader {
  readonly errors: ParamErrors = fieldErrors();

  constructor(private readonly values: ParameterValues) {}

  fail(name: string, message: string): undefined {
    addFieldError(this.errors, name, message);
    return undefined;
  }

  /** The one value of a scalar parameter; a scalar given twice is ambiguous, so it is refused. */
  scalar(name: string): string | undefined {
    const given = this.values.get(name);
    if (given === undefined || given.length === 0) return undefined;
    if (given.length > 1) return this.fail(name, "Parameter given more than once; it takes a single value");
    return given[0];
  }

  /** An array parameter, as `name[]=a&name[]=b` or as a plain repeated `name`. */
  array(name: string): string[] | undefined {
    const given = [...(this.values.get(`${name}[]`) ?? []), ...(this.values.get(name) ?? [])];
    return given.length === 0 ? undefined : given;
  }

  wholeNumber(name: string, minimum: number): number | undefined {
    const raw = this.scalar(name);
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (!DIGITS.test(raw) || !Number.isSafeInteger(value) || value < minimum) {
      return this.fail(name, `Must be a whole number of at least ${minimum}, not "${raw}"`);
    }
    return value;
  }

  boolean(name: string): boolean | undefined {
    const raw = this.scalar(name);
    if (raw === undefined) return undefined;
    const lower = raw.toLowerCase();
    if (lower === "true") return true;
    if (lower === "false") return false;
    return this.fail(name, `Must be true or false, not "${raw}"`);
  }
}

/** page_size: larger values are clamped to the maximum, not refused (docs/api.md §5). */
function readPageSize(reader: ParamReader): number {
  const raw = reader.scalar("page_size");
  if (raw === undefined) return DEFAULT_PAGE_SIZE;
  if (!DIGITS.test(raw) || Number(raw) < 1)
    return reader.fail("page_size", `Must be a whole number of at least 1, not "${raw}"`) ?? DEFAULT_PAGE_SIZE;
  return Math.min(Number(raw), MAX_PAGE_SIZE);
}

function readIdSet(reader: ParamReader): number[] | undefined {
  const given = reader.array("id_set");
  if (given === undefined) return undefined;
  const parts = given.flatMap((value) => value.split(","));
  const bad = parts.find((part) => !DIGITS.test(part) || !Number.isSafeInteger(Number(part)) || Number(part) < 1);
  if (bad !== undefined) return reader.fail("id_set", `Must list positive whole numbers, not "${bad}"`);
  if (parts.length > MAX_ID_SET) return reader.fail("id_set", `At most ${MAX_ID_SET} ids, not ${parts.length}`);
  return parts.map(Number);
}

function readSortDirection(reader: ParamReader): "asc" | "desc" | undefined {
  const raw = reader.scalar("sort_direction");
  if (raw === undefined || raw === "asc" || raw === "desc") return raw;
  return reader.fail("sort_direction", `Must be asc or desc, not "${raw}"`);
}

function readSortField(reader: ParamReader): string | undefined {
  const raw = reader.scalar("sort_field");
  if (raw === undefined || FIELD_NAME.test(raw)) return raw;
  return reader.fail("sort_field", `Must be a field name, not "${raw}"`);
}

function readResolve(reader: ParamReader): string[] | undefined {
  const given = reader.array("resolve");
  if (given === undefined) return undefined;
  // Keys only ever name fields; anything else could reach the store as an operator or path.
  const bad = given.find((key) => !key.split("::").every((part) => FIELD_NAME.test(part)));
  if (bad !== undefined) return reader.fail("resolve[]", `Must name fields, optionally nested with "::", not "${bad}"`);
  return given;
}

export function throwIfAny(errors: ParamErrors): void {
  if (Object.keys(errors).length > 0) throw badRequest(errors);
}

/** A page of a paged route that is not a record list (jobs, /delete-feed). */
export interface PageRequest {
  page: number;
  pageSize: number;
}

/** The required `page` (from 1) and `page_size` (default `defaultSize`, cut to `maxSize`); problems go to `params`. */
export function readPage(params: ParamReader, defaultSize: number, maxSize: number): PageRequest {
  const page = params.wholeNumber("page", 1);
  if (page === undefined && params.errors.page === undefined) params.fail("page", REQUIRED);
  const pageSize = Math.min(params.wholeNumber("page_size", 1) ?? defaultSize, maxSize);
  return { page: page ?? 1, pageSize };
}

/** ArchivesSpace's page envelope around `results`, `total` being how many there are in all. */
export function pageEnvelope<T>({ page, pageSize }: PageRequest, total: number, results: T[]) {
  return { first_page: 1, last_page: Math.max(1, Math.ceil(total / pageSize)), this_page: page, total, results };
}

/**
 * The list query a request's parameters describe. Every parameter given is checked, also one a
 * higher-precedence mode makes unused: a bad value is a client mistake wherever it is.
 * @throws ApiError 400 naming each bad parameter, or all three modes when none is given
 */
export function parseListQuery(
  values: ParameterValues,
  { unpaged = false, filterFields = [] }: { unpaged?: boolean; filterFields?: readonly string[] } = {},
): ListQuery {
  const reader = new ParamReader(values);
  const filters = filterFields.flatMap((field) => {
    const value = reader.scalar(field);
    return value === undefined ? [] : [{ field, value }];
  });
  const page = reader.wholeNumber("page", 1);
  const pageSize = readPageSize(reader);
  const ids = readIdSet(reader);
  const allIds = reader.boolean("all_ids");
  const modifiedSince = reader.wholeNumber("modified_since", 0);
  const sortField = readSortField(reader);
  const sortDirection = readSortDirection(reader);
  const resolve = readResolve(reader);
  throwIfAny(reader.errors);

  let mode: ListMode;
  if (page !== undefined) mode = { kind: "page", page, pageSize };
  else if (ids !== undefined) mode = { kind: "idSet", ids };
  else if (allIds === true) mode = { kind: "allIds" };
  else if (unpaged) mode = { kind: "all" };
  else throw badRequest({ page: [REQUIRED], id_set: [REQUIRED], all_ids: [REQUIRED] });

  return {
    mode,
    ...(modifiedSince !== undefined && { modifiedSince }),
    ...(sortField !== undefined && { sortField }),
    ...(sortDirection !== undefined && { sortDirection }),
    ...(resolve !== undefined && { resolve }),
    ...(filters.length > 0 && { filters }),
  };
}

/** resolve[] alone, for item reads. @throws ApiError 400 on a key that names no field */
export function parseResolve(values: ParameterValues): string[] {
  const reader = new ParamReader(values);
  const resolve = readResolve(reader);
  throwIfAny(reader.errors);
  return resolve ?? [];
}

function addValues(into: Map<string, string[]>, source: unknown): void {
  if (source === null || typeof source !== "object" || Array.isArray(source)) return;
  for (const [name, raw] of Object.entries(source as Record<string, unknown>)) {
    // Anything but strings (an extended parser's nested objects) cannot be a valid value: it is
    // kept as a value no rule accepts, so the parameter is named in the 400 rather than ignored.
    const strings = (Array.isArray(raw) ? raw : [raw]).map((value) => (typeof value === "string" ? value : "[object]"));
    into.set(name, [...(into.get(name) ?? []), ...strings]);
  }
}

/** Parameters as a parsed query string or form body hands them over (string or string[] per key). */
export function parameterValues(...sources: unknown[]): ParameterValues {
  const values = new Map<string, string[]>();
  for (const source of sources) addValues(values, source);
  return values;
}

function isFormRequest(req: Request): boolean {
  return typeof req.is(["application/x-www-form-urlencoded", "multipart/form-data"]) === "string";
}

// A request's parameters are read once: a read asks for resolve[] to fetch and again to
// choose how to answer.
const parametersOf = new WeakMap<Request, ParameterValues>();

/** The parameters of a request: its query string, plus its body when that is a form (docs/api.md §1). */
export function requestParameters(req: Request): ParameterValues {
  let values = parametersOf.get(req);
  if (values === undefined) {
    // A JSON body is a record, never parameters; only a form body carries them.
    values = isFormRequest(req) ? parameterValues(req.query, req.body) : parameterValues(req.query);
    parametersOf.set(req, values);
  }
  return values;
}

/**
 * The ListQuery of a list request of `type`, with its rule for a request naming no mode (x-list-unpaged), its
 * filters (x-list-filters) and its hidden records (x-hidden-ids). @throws ApiError 400
 */
export function listParams(req: Request, type: RecordType): ListQuery {
  const query = parseListQuery(requestParameters(req), { unpaged: type.listUnpaged, filterFields: type.listFilters });
  return type.hiddenIds.length === 0 ? query : { ...query, excludeIds: type.hiddenIds };
}

/** The resolve[] keys of an item read. @throws ApiError 400 */
export function resolveParam(req: Request): string[] {
  return parseResolve(requestParameters(req));
}
