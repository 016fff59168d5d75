// Python's ways of reading parsed JSON, for the ported clients (agentarchives, ArchivesSnake): `record["key"]` raises
// on a missing key, `record.get("key")` does not, `x in [None, "", [], {}]` is their test for "no value". A port that
// read records with JavaScript's forgiving property access would hide exactly what these tests look for: a key
// ArchivesSpace always shows and Arca leaves out.

export type Dict = Record<string, unknown>;

/** A missing key read with `record["key"]` (Python's KeyError). */
export class PyKeyError extends Error {
  constructor(
    readonly key: string,
    where: unknown,
  ) {
    super(`KeyError: '${key}' (in ${preview(where)})`);
  }
}

/** A list read past its end (Python's IndexError). */
export class PyIndexError extends Error {
  constructor(index: number, where: unknown) {
    super(`IndexError: ${index} (in ${preview(where)})`);
  }
}

/** An operation on a value of the wrong kind (`None.get(...)`, iterating a string as a list). */
export class PyTypeError extends Error {}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

export function isDict(value: unknown): value is Dict {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `value["a"]["b"][0]`, raising as Python does at the first step that is missing. */
export function at(value: unknown, ...path: Array<string | number>): unknown {
  let current = value;
  for (const step of path) {
    if (typeof step === "number") {
      if (!Array.isArray(current)) throw new PyTypeError(`${preview(current)} is not a list`);
      if (step >= current.length) throw new PyIndexError(step, current);
      current = current[step];
    } else {
      if (!isDict(current)) throw new PyTypeError(`${preview(current)} is not a dict (reading '${step}')`);
      if (!Object.hasOwn(current, step)) throw new PyKeyError(step, current);
      current = current[step];
    }
  }
  return current;
}

/** `value.get(key, fallback)`: a dict's value or the fallback; anything but a dict raises. */
export function get(value: unknown, key: string, fallback?: unknown): unknown {
  if (!isDict(value)) throw new PyTypeError(`${preview(value)} has no .get (reading '${key}')`);
  return Object.hasOwn(value, key) ? value[key] : fallback;
}

/** `key in value`, for a dict. */
export function has(value: unknown, key: string): boolean {
  if (!isDict(value)) throw new PyTypeError(`${preview(value)} is not a dict (testing '${key}')`);
  return Object.hasOwn(value, key);
}

/** A value iterated as a list (`for x in value`). */
export function list(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new PyTypeError(`${preview(value)} is not a list`);
  return value;
}

export function text(value: unknown): string {
  if (typeof value !== "string") throw new PyTypeError(`${preview(value)} is not a str`);
  return value;
}

/** `value in ["", [], {}, None]`: ArchivesSnake's test for a field without a value. */
export function isBlank(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  return isDict(value) && Object.keys(value).length === 0;
}

/** Python's truthiness, for `if not record.get("dates")` and the like. */
export function truthy(value: unknown): boolean {
  if (value === 0 || value === false || value === null) return false;
  return !isBlank(value);
}
