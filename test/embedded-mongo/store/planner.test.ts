// The planner's choices, read off its plans: which index, whether its ranges decide the filter (and what is left
// to re-check), whether they hold each match once (counts by rank); and the executor's answers agree with a scan.
import { describe, expect, it } from "@jest/globals";
import type { Document } from "bson";
import { Collection } from "../../../src/embedded-mongo/store/collection.js";
import { countRecords, selectRecords } from "../../../src/embedded-mongo/store/executor.js";
import { planQuery } from "../../../src/embedded-mongo/store/planner.js";
import { compileFilter } from "../../../src/embedded-mongo/query/filter.js";

/** Entries as the search index holds them: a multikey words array beside scalar scope fields. */
function entries(): Collection {
  const collection = new Collection("db", "entries");
  collection.createIndex({ key: { words: 1, repository: 1, suppressed: 1 }, name: "words_scope" });
  collection.createIndex({ key: { boosted: 1, repository: 1, suppressed: 1 }, name: "boosted_scope" });
  collection.createIndex({ key: { title: 1 }, name: "title" });
  for (let i = 0; i < 400; i++) {
    collection.insert({
      _id: `e${i}`,
      title: `t${i % 40}`,
      repository: i % 4 === 0 ? "global" : i % 4 === 1 ? "/repositories/2" : "/repositories/3",
      suppressed: i % 10 === 0,
      words: ["common", i % 2 === 0 ? "even" : "odd", `w${i % 50}`, ...(i % 100 === 0 ? ["rare"] : [])],
      boosted: i % 8 === 0 ? ["title:common"] : [],
    });
  }
  return collection;
}

function scan(collection: Collection, filter: Document): number[] {
  const matches = compileFilter(filter);
  return [...collection.docs.entries()].filter(([, doc]) => matches(doc)).map(([rid]) => rid);
}

const scope = { repository: { $in: ["/repositories/2", "global"] }, suppressed: false };

describe("the planner", () => {
  it("decides a point on an array field and points on the scalar fields after it, counting by rank", () => {
    const collection = entries();
    const filter = { $and: [{ words: "w7" }, scope] };
    const plan = planQuery(collection, filter, []);
    expect(plan.index?.name).toBe("words_scope");
    expect(plan.residual).toBeUndefined();
    expect(plan.exact).toBe(true); // one point on the one array field: each entry once
    expect(countRecords(collection, filter)).toBe(scan(collection, filter).length);
    expect(selectRecords(collection, { filter, sort: [], skip: 0, limit: 0 }).sort((a, b) => a - b)).toEqual(
      scan(collection, filter),
    );
  });

  it("re-checks only what the ranges do not decide", () => {
    const collection = entries();
    const filter = { $and: [{ words: "common" }, { title: "t7" }, scope] };
    const plan = planQuery(collection, filter, []);
    expect(plan.index?.name).toBe("title"); // the fewer entries: 10 titled t7, against 180 in scope with "common"
    expect(plan.residual).toEqual({
      $and: [{ words: "common" }, { repository: scope.repository }, { suppressed: false }],
    });
    expect(countRecords(collection, filter)).toBe(scan(collection, filter).length);
    const planOnWords = planQuery(collection, { $and: [{ words: "w7" }, { other: 1 }, scope] }, []);
    expect(planOnWords.index?.name).toBe("words_scope");
    expect(planOnWords.residual).toEqual({ other: 1 });
  });

  it("walks the rarest of several usable indexes", () => {
    const collection = entries();
    const filter = { $and: [{ words: "common" }, { boosted: "title:common" }, scope] };
    const plan = planQuery(collection, filter, []);
    expect(plan.index?.name).toBe("boosted_scope");
    expect(plan.residual).toEqual({ words: "common" });
    expect(countRecords(collection, filter)).toBe(scan(collection, filter).length);
  });

  it("does not count by rank when a document may be in the ranges twice", () => {
    const collection = entries();
    const filter = { words: { $in: ["even", "w4"] } };
    const plan = planQuery(collection, filter, []);
    expect(plan.decides).toBe(true);
    expect(plan.exact).toBe(false);
    expect(countRecords(collection, filter)).toBe(scan(collection, filter).length);
    // The array field unpinned: every entry of a document under one repository.
    const byScope = { repository: "global", suppressed: false, words: { $exists: true } };
    expect(countRecords(collection, byScope)).toBe(scan(collection, byScope).length);
  });

  it("keeps a range on an array field to the re-check, and a second condition on a field", () => {
    const collection = entries();
    const range = { words: { $gte: "w1", $lt: "w2" }, repository: "global" };
    expect(planQuery(collection, range, []).residual).toBeDefined();
    expect(countRecords(collection, range)).toBe(scan(collection, range).length);
    const twice = { $and: [{ words: "rare" }, { words: { $size: 4 } }] };
    const plan = planQuery(collection, twice, []);
    expect(plan.residual).toEqual({ words: { $size: 4 } });
    expect(countRecords(collection, twice)).toBe(scan(collection, twice).length);
  });

  it("answers a limited count, which stops at the limit, as the unlimited one cut to it", () => {
    const collection = entries();
    const filter = { $and: [{ words: "common" }, { title: { $ne: "t1" } }] };
    const all = countRecords(collection, filter);
    expect(all).toBe(scan(collection, filter).length);
    expect(countRecords(collection, filter, 0, 25)).toBe(25);
    expect(countRecords(collection, filter, 10, 25)).toBe(25);
    expect(countRecords(collection, filter, all - 5, 25)).toBe(5);
    expect(countRecords(collection, filter, 0, all + 1)).toBe(all);
  });

  it("reads the other words of an AND from the index, within the same repositories, not from each document", () => {
    const collection = entries();
    for (const filter of [
      { $and: [{ words: "even" }, { words: "w4" }, scope] },
      { $and: [{ words: "odd" }, { words: { $all: ["w11", "rare"] } }, { title: { $ne: "t11" } }] },
      { $and: [{ words: "odd" }, { words: "w3" }, { repository: "/repositories/3" }] },
      { $and: [{ words: "common" }, { words: "even" }, scope] },
    ]) {
      const plan = planQuery(collection, filter, []);
      expect([filter, plan.index?.name, plan.alsoIn?.length]).toEqual([filter, "words_scope", expect.any(Number)]);
      expect(plan.exact).toBe(false);
      expect(countRecords(collection, filter)).toBe(scan(collection, filter).length);
      expect(selectRecords(collection, { filter, sort: [], skip: 0, limit: 0 }).sort((a, b) => a - b)).toEqual(
        scan(collection, filter),
      );
    }
    expect(planQuery(collection, { $and: [{ words: "even" }, { words: "w4" }, scope] }, []).residual).toBeUndefined();
    // Words too common for the few candidates walked (600 entries for 8): each candidate checked instead.
    const common = { $and: [{ words: "w0" }, { words: "common" }, { words: "even" }] };
    const plan = planQuery(collection, common, []);
    expect([plan.alsoIn, plan.residual]).toEqual([undefined, { $and: [{ words: "common" }, { words: "even" }] }]);
    expect(countRecords(collection, common)).toBe(scan(collection, common).length);
  });

  it("checks the document instead when another field of the index has held an array", () => {
    const collection = entries();
    collection.insert({ _id: "arrays", repository: ["global", "/repositories/2"], suppressed: false, words: ["rare"] });
    const filter = { $and: [{ words: "rare" }, { words: "even" }, scope] };
    const plan = planQuery(collection, filter, []);
    expect(plan.alsoIn).toBeUndefined();
    expect(plan.residual).toEqual({ words: "even" });
    expect(countRecords(collection, filter)).toBe(scan(collection, filter).length);
  });

  it("ignores $comment in what it re-checks", () => {
    const collection = entries();
    const filter = { words: "rare", $comment: "why" };
    expect(planQuery(collection, filter, []).residual).toBeUndefined();
    expect(countRecords(collection, filter)).toBe(4);
  });

  it("walks a sparse index for a value on its field, and the collection for null or a missing field", () => {
    // Links as records hold them: most records none (an empty list), some one or two.
    const collection = new Collection("db", "records");
    collection.createIndex({ key: { "links.ref": 1 }, name: "links_ref", sparse: true });
    for (let i = 0; i < 300; i++)
      collection.insert({
        _id: `r${i}`,
        links: i % 10 === 0 ? [{ ref: `/agents/${i % 3}` }, { ref: "/agents/9" }] : [],
        ...(i % 7 === 0 && { other: null }),
      });
    expect(collection.indexes.get("links_ref")!.tree.size).toBe(60); // two entries for each of the 30 linking
    const same = (filter: Document) =>
      expect(selectRecords(collection, { filter, sort: [], skip: 0, limit: 0 }).sort((a, b) => a - b)).toEqual(
        scan(collection, filter),
      );
    for (const filter of [{ "links.ref": "/agents/1" }, { "links.ref": { $in: ["/agents/0", "/agents/2"] } }]) {
      const plan = planQuery(collection, filter, []);
      expect(plan.index?.name).toBe("links_ref");
      // Its entries are exactly the matches: nothing is checked again (a record without links cannot match).
      expect(plan.residual).toBeUndefined();
      expect(countRecords(collection, filter)).toBe(scan(collection, filter).length);
      same(filter);
    }
    // A document without the field matches these, and the index does not hold it.
    for (const filter of [
      { "links.ref": null },
      { "links.ref": { $exists: false } },
      { "links.ref": { $in: ["/agents/1", null] } },
      { "links.ref": { $ne: "/agents/1" } },
      // A range on an array field is not walked in any index (two elements may meet its two bounds).
      { "links.ref": { $gte: "/agents/1" } },
    ]) {
      expect(planQuery(collection, filter, []).index).toBeUndefined();
      same(filter);
    }
    expect(countRecords(collection, { "links.ref": { $exists: false } })).toBe(270);
  });
});
