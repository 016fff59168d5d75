// A response of whole records is bounded in bytes (RESPONSE_MAX_BYTES), whatever the page size
// or the number of children: records may be up to a body's size each, so 250 of them could pass
// what one JSON string can hold and the heap with it. The stored (BSON) size stands in for the
// JSON size; they differ by little, and it is known before anything is shaped.
import { calculateObjectSize, type Document } from "bson";
import type { ApiError } from "../../errors/api-error.js";

/**
 * The cursor's documents while their total stored size stays within `maxBytes`; past it, `tooLarge(maxBytes)` is thrown
 * and the cursor closed.
 */
export async function readWithin<T extends Document>(
  cursor: AsyncIterable<T>,
  maxBytes: number,
  tooLarge: (maxBytes: number) => ApiError,
): Promise<T[]> {
  const docs: T[] = [];
  let bytes = 0;
  for await (const doc of cursor) {
    bytes += calculateObjectSize(doc);
    if (bytes > maxBytes) throw tooLarge(maxBytes);
    docs.push(doc);
  }
  return docs;
}
