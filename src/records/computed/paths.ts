// Values at a slash path of a record (`terms/*/term`, `display_name/sort_name`, `collection/0/identifier`), `*`
// walking every item of a list and a whole number taking one:
// what computed rules read their inputs through.
import type { JsonObject, JsonValue } from "../../registry/index.js";

function collect(value: JsonValue | undefined, segments: readonly string[], depth: number, out: JsonValue[]): void {
  if (value === undefined || value === null) return;
  if (depth === segments.length) {
    out.push(value);
    return;
  }
  const segment = segments[depth] as string;
  if (Array.isArray(value)) {
    // `*`: every item; a whole number: that item (`collection/0/identifier`).
    if (segment === "*") for (const item of value) collect(item, segments, depth + 1, out);
    else if (/^(0|[1-9][0-9]*)$/.test(segment)) collect(value[Number(segment)], segments, depth + 1, out);
  } else if (typeof value === "object" && !Array.isArray(value)) {
    const object = value as JsonObject;
    if (Object.hasOwn(object, segment)) collect(object[segment], segments, depth + 1, out);
  }
}

/** Every value at `segments` below `value`, in document order. */
export function valuesAt(value: JsonValue | undefined, segments: readonly string[]): JsonValue[] {
  const out: JsonValue[] = [];
  collect(value, segments, 0, out);
  return out;
}

/** The first value at `segments`, if any. */
export function valueAt(value: JsonValue | undefined, segments: readonly string[]): JsonValue | undefined {
  return valuesAt(value, segments)[0];
}
