// Objects keyed by strings that come from outside the service (field paths, parameter names,
// keys of stored or submitted records). A plain `{}` inherits from Object.prototype, so
// `errors["constructor"]` is a function and `errors["__proto__"] = x` replaces the prototype;
// a dictionary has no prototype, so every string is an ordinary key. Where the keys are not
// needed as a JSON object, a Map is better still. test/registry/dictionary-keys.test.ts fails on
// a plain object literal used this way anywhere in src/.
export type Dictionary<V> = Record<string, V>;

export function dictionary<V>(entries?: Iterable<readonly [string, V]>): Dictionary<V> {
  const result = Object.create(null) as Dictionary<V>;
  if (entries) for (const [key, value] of entries) result[key] = value;
  return result;
}

/**
 * Appends `value` to the list under `key`, creating the list as an own property (defined, not
 * assigned, so even on an ordinary object `__proto__` stays a key).
 */
export function appendTo<V>(target: Dictionary<V[]>, key: string, value: V): void {
  const list = Object.hasOwn(target, key) ? target[key] : undefined;
  if (list) list.push(value);
  else Object.defineProperty(target, key, { value: [value], enumerable: true, writable: true, configurable: true });
}

/**
 * A constant table that is read with keys from outside (an element name, a subfield code, an
 * operator): the entries copied into a frozen object without a prototype, so `TABLE["constructor"]`
 * is undefined like any other key the table does not hold. The lint test accepts `TABLE[key]`
 * only for a table declared with this (or an array, which strict TypeScript indexes by number only).
 */
export function lookupTable<T extends object>(entries: T): Readonly<T> {
  const table = Object.create(null) as T;
  for (const [key, value] of Object.entries(entries)) Object.defineProperty(table, key, { value, enumerable: true });
  return Object.freeze(table);
}
