// Scalar parameters of the routes served outside the record controllers (accounts,
// enumerations, imports, exports; docs/api.md §1), read with the record routes' own list-params
// kit: from the query string or a form body, and for login also from a JSON object body. A
// missing parameter, one given twice, or a bad value is a 400 naming it; an empty value counts
// as missing.
import { badRequest } from "../../errors/api-error.js";
import { parameterValues, parseListQuery } from "./list-params.js";
import type { ListQuery } from "../operations/index.js";

/** What these readers need of an express request (any route's, whatever its typed params). */
export interface ParamRequest {
  query: unknown;
  body: unknown;
  /** Path parameters; express 5 types them as possibly arrays (for wildcard parameters), which no route here has. */
  params: Record<string, string | string[] | undefined>;
  is(types: string[]): string | false | null;
}

export const PARAMETER_REQUIRED = "Parameter required but no value provided";

export interface ParamSources {
  /** Also read a JSON object body (login: some clients send `{"password": ...}`). */
  jsonBody?: boolean;
}

function isForm(req: ParamRequest): boolean {
  return typeof req.is(["application/x-www-form-urlencoded", "multipart/form-data"]) === "string";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Every value `name` was given, query string first; `[]` when none. */
function valuesOf(req: ParamRequest, name: string, sources: ParamSources): unknown[] {
  const found: unknown[] = [];
  const take = (source: unknown) => {
    if (!isPlainObject(source) || !Object.hasOwn(source, name)) return;
    const value = source[name];
    if (Array.isArray(value)) found.push(...value);
    else found.push(value);
  };
  take(req.query);
  // A JSON body is a record everywhere but login, never parameters.
  if (isForm(req) || sources.jsonBody) take(req.body);
  return found;
}

/** The one string value of a scalar parameter, or undefined when it has none. */
export function scalarParam(req: ParamRequest, name: string, sources: ParamSources = {}): string | undefined {
  const values = valuesOf(req, name, sources).filter((value) => value !== "" && value !== undefined && value !== null);
  if (values.length === 0) return undefined;
  if (values.length > 1) throw badRequest({ [name]: ["Parameter given more than once; it takes a single value"] });
  const [value] = values;
  if (typeof value !== "string") throw badRequest({ [name]: ["Must be a single text value"] });
  return value;
}

/**
 * Every text value of an array parameter, sent as `name[]=a&name[]=b` or as a repeated `name`; undefined when
 * it has none (empty values do not count).
 * @throws ApiError 400 naming it, for a value that is not text (a nested form field)
 */
export function arrayParam(req: ParamRequest, name: string, sources: ParamSources = {}): string[] | undefined {
  const values = [...valuesOf(req, `${name}[]`, sources), ...valuesOf(req, name, sources)].filter(
    (value) => value !== "" && value !== undefined && value !== null,
  );
  if (values.length === 0) return undefined;
  if (!values.every((value): value is string => typeof value === "string"))
    throw badRequest({ [name]: ["Must be a list of text values"] });
  return values;
}

export function requiredParam(req: ParamRequest, name: string, sources: ParamSources = {}): string {
  const value = scalarParam(req, name, sources);
  if (value === undefined) throw badRequest({ [name]: [PARAMETER_REQUIRED] });
  return value;
}

/** true/false in any case (`True`, `FALSE`), as ArchivesSpace clients send them. */
export function booleanParam(req: ParamRequest, name: string, fallback: boolean, sources: ParamSources = {}): boolean {
  const raw = scalarParam(req, name, sources);
  if (raw === undefined) return fallback;
  const lower = raw.toLowerCase();
  if (lower === "true") return true;
  if (lower === "false") return false;
  throw badRequest({ [name]: [`Must be true or false, not "${raw}"`] });
}

/** A positive whole-number path parameter (`:id`, `:repo_id`). */
export function idParam(req: ParamRequest, name: string): number {
  const raw = req.params[name];
  const value = Number(raw);
  if (typeof raw !== "string" || !/^[0-9]+$/.test(raw) || !Number.isSafeInteger(value) || value < 1) {
    throw badRequest({ [name]: [`Must be a positive whole number, not "${String(raw)}"`] });
  }
  return value;
}

/** The list parameters of docs/api.md §5, read as the generic record routes read them. @throws ApiError 400 */
export function listQueryOf(req: ParamRequest): ListQuery {
  return parseListQuery(isForm(req) ? parameterValues(req.query, req.body) : parameterValues(req.query));
}
