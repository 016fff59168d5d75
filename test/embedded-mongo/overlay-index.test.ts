// A transaction's own writes found by a pinned top-level field (txn/overlay-index.ts): only the written documents
// that can match are returned, whatever was written, rewritten or deleted since the field's index was built.
import { describe, it, expect } from "@jest/globals";
import { ObjectId } from "bson";
import { OverlayWrites, pinnedField } from "../../src/embedded-mongo/txn/overlay-index.js";

const rids = (writes: OverlayWrites, filter: object) => [...writes.candidates(filter)].map(([rid]) => rid).sort();

describe("a transaction's writes by field", () => {
  it("pins equality, $eq and $in on a top-level field; not dotted paths, ranges or operators", () => {
    expect(pinnedField({ "a.b": 1, id: 5 })).toEqual({ field: "id", keys: [5] });
    expect(pinnedField({ id: { $in: [1, "1"] } })).toEqual({ field: "id", keys: [1, "s1"] });
    expect(pinnedField({ id: { $eq: true } })).toEqual({ field: "id", keys: [true] });
    expect(pinnedField({ id: { $gt: 1 } })).toBeUndefined();
    expect(pinnedField({ id: { $in: [1, { x: 1 }] } })).toBeUndefined();
    expect(pinnedField({ $or: [{ id: 1 }] })).toBeUndefined();
  });

  it("finds by value before and after the index is built, following rewrites and deletes", () => {
    const writes = new OverlayWrites();
    writes.set(1, { id: 1, tag: "x" });
    writes.set(2, { id: 2, tag: "y" });
    expect(rids(writes, { id: 2 })).toEqual([2]);
    writes.set(3, { id: 3 });
    writes.set(2, { id: 20 });
    expect(rids(writes, { id: { $in: [2, 3, 20] } })).toEqual([2, 3]);
    writes.set(3, null);
    expect(rids(writes, { id: 3 })).toEqual([]);
    // No pinned field: every written document that still exists.
    expect(rids(writes, { tag: { $exists: true } })).toEqual([1, 2]);
  });

  it("keeps types apart and always offers values that are not keys (arrays, sub-documents)", () => {
    const writes = new OverlayWrites();
    const id = new ObjectId();
    writes.set(1, { k: "1" });
    writes.set(2, { k: 1 });
    writes.set(3, { k: [1, 2] });
    writes.set(4, { k: id });
    writes.set(5, { k: null });
    writes.set(6, {});
    expect(rids(writes, { k: 1 })).toEqual([2, 3]);
    expect(rids(writes, { k: "1" })).toEqual([1, 3]);
    expect(rids(writes, { k: new ObjectId(id.toHexString()) })).toEqual([3, 4]);
    writes.set(3, { k: 7 });
    expect(rids(writes, { k: 1 })).toEqual([2]);
  });
});
