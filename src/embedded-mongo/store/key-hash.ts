// Hash keys for unique indexes: a string per index key such that two keys get the same
// string exactly when they compare equal in MongoDB's order (compareValues). Only the common
// scalar types have one; for any other value (Long, Decimal128, Binary, documents, ...)
// there is none and the index answers from its tree.
//
// Why: a lookup by a full unique key is the commonest read there is, and descending a
// B+tree of 100k entries touches ~50 cold cache lines (each comparison dereferences an
// entry, its key array and the key's elements), where a hash probe touches a few. InnoDB's
// adaptive hash index does the same for the same reason.

/** One value's part of a hash key, or undefined when the value has no hashable form. */
function hashPart(value: unknown): string | undefined {
  switch (typeof value) {
    case "number":
      return `n${value}`; // 5 and 5.0 are one JS number; String(-0) is "0"; NaN equals NaN in MongoDB's order
    case "string":
      return `s${value}`;
    case "boolean":
      return value ? "t" : "f";
    case "undefined":
      return "z"; // missing and null index alike
    case "object": {
      if (value === null) return "z";
      if (value instanceof Date) return `d${value.getTime()}`;
      const tagged = value as { _bsontype?: unknown; toHexString?: () => string };
      if (tagged._bsontype === "ObjectId" && typeof tagged.toHexString === "function") return `o${tagged.toHexString()}`;
      return undefined;
    }
    default:
      return undefined;
  }
}

/** The hash key of an index key, or undefined when any of its values has no hashable form. */
export function hashKey(key: readonly unknown[]): string | undefined {
  if (key.length === 1) return hashPart(key[0]);
  const parts: string[] = [];
  for (const value of key) {
    const part = hashPart(value);
    if (part === undefined) return undefined;
    parts.push(part);
  }
  return JSON.stringify(parts); // unambiguous whatever the strings hold
}
