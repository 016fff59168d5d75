// Names from outside, in the engine: operator, stage and field names a client sends that are
// Object.prototype's member names (`constructor`, `toString`, `valueOf`, `hasOwnProperty`,
// `__proto__`) are looked up in the engine's own tables only. An unknown operator is the
// error MongoDB answers, never a TypeError or a silent acceptance; a field of that name is
// an ordinary field. As in the rest of the suite, the same assertions hold against MongoDB.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Document } from "mongodb";
import { openTarget, type Target } from "../target.js";
import { expectCode, namer, type Loose } from "./helpers.js";

const BUILT_INS = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__"];
const FAILED_TO_PARSE = 9;
const BAD_VALUE = 2;
const UNRECOGNIZED_STAGE = 40324;

let t: Target;
const next = namer("builtin");
beforeAll(async () => {
  t = await openTarget();
});
afterAll(() => t.stop());

async function seeded(docs: Document[]) {
  const coll = t.db.collection<Loose>(next());
  if (docs.length) await coll.insertMany(docs);
  return coll;
}

/** A document with one own field named `name` (an object literal's `__proto__:` would set the prototype instead). */
const withField = (name: string, value: unknown): Document => Object.fromEntries([[name, value]]);

describe("update operators named after Object.prototype's members", () => {
  for (const name of BUILT_INS) {
    it(`{$${name}: {...}} is an unknown modifier (FailedToParse) and changes nothing`, async () => {
      const coll = await seeded([{ _id: 1, a: 1 }]);
      const error = await expectCode(coll.updateOne({ _id: 1 }, withField(`$${name}`, { a: 2 })), FAILED_TO_PARSE);
      expect(error.message).toContain(`Unknown modifier: $${name}`);
      expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, a: 1 });
    });

    it(`{$set: {...}, ${name}: {...}}: a field beside operators is an unknown modifier`, async () => {
      const coll = await seeded([{ _id: 1, a: 1 }]);
      const update = { $set: { a: 2 }, ...withField(name, { a: 3 }) };
      const error = await expectCode(
        t.db.command({ update: coll.collectionName, updates: [{ q: { _id: 1 }, u: update }] }).then(writeErrorOf),
        FAILED_TO_PARSE,
      );
      expect(error.message).toContain(`Unknown modifier: ${name}`);
      expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, a: 1 });
    });
  }

  for (const name of ["constructor", "toString", "valueOf", "hasOwnProperty"]) {
    it(`{${name}: {...}} alone is a replacement document holding that field`, async () => {
      const coll = await seeded([{ _id: 1, a: 1 }]);
      const reply = await t.db.command({
        update: coll.collectionName,
        updates: [{ q: { _id: 1 }, u: withField(name, { b: 1 }) }],
      });
      expect(reply).toMatchObject({ ok: 1, n: 1, nModified: 1 });
      expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, ...withField(name, { b: 1 }) });
    });

    it(`$set, $inc and $unset on a field named ${name} treat it as any field`, async () => {
      const coll = await seeded([{ _id: 1, a: {} }]);
      await coll.updateOne({ _id: 1 }, { $set: { ...withField(name, 1), [`a.${name}`]: "x" } });
      await coll.updateOne({ _id: 1 }, { $inc: withField(name, 2) });
      expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, a: withField(name, "x"), ...withField(name, 3) });
      await coll.updateOne({ _id: 1 }, { $unset: { [`a.${name}`]: "" } });
      expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, a: {}, ...withField(name, 3) });
    });
  }
});

describe("a field named __proto__", () => {
  it("is stored and read back as a field, the document's prototype untouched", async () => {
    const coll = await seeded([{ _id: 1, ...withField("__proto__", { x: 1 }) }]);
    const doc = (await coll.findOne({ _id: 1 })) as Document;
    expect(Object.keys(doc)).toEqual(["_id", "__proto__"]);
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(doc, "__proto__")?.value).toEqual({ x: 1 });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe("query operators named after Object.prototype's members", () => {
  for (const name of BUILT_INS) {
    it(`{a: {$gt: 0, ${name}: 1}} is an unknown operator (BadValue)`, async () => {
      const coll = await seeded([{ _id: 1, a: 1 }]);
      const error = await expectCode(coll.find({ a: { $gt: 0, ...withField(name, 1) } }).toArray(), BAD_VALUE);
      expect(error.message).toContain(`unknown operator: ${name}`);
    });

    it(`{$${name}: 1} at the top level is an unknown top-level operator (BadValue)`, async () => {
      const coll = await seeded([{ _id: 1, a: 1 }]);
      const error = await expectCode(coll.find(withField(`$${name}`, 1)).toArray(), BAD_VALUE);
      expect(error.message).toContain(`unknown top level operator: $${name}`);
    });
  }

  for (const name of ["constructor", "toString", "valueOf", "hasOwnProperty"]) {
    it(`a field named ${name} is matched like any field`, async () => {
      const coll = await seeded([
        { _id: 1, ...withField(name, 5) },
        { _id: 2, a: 1 },
      ]);
      expect(await coll.find(withField(name, 5)).toArray()).toEqual([{ _id: 1, ...withField(name, 5) }]);
      expect(await coll.find(withField(name, { $exists: true })).toArray()).toEqual([
        { _id: 1, ...withField(name, 5) },
      ]);
      expect((await coll.find(withField(name, { $exists: false })).toArray()).map((doc) => doc._id)).toEqual([2]);
    });
  }
});

describe("pipeline stages named after Object.prototype's members", () => {
  for (const name of BUILT_INS) {
    for (const stage of [name, `$${name}`]) {
      it(`{${stage}: {}} is an unrecognized stage`, async () => {
        const coll = await seeded([{ _id: 1 }]);
        const error = await expectCode(coll.aggregate([withField(stage, {})]).toArray(), UNRECOGNIZED_STAGE);
        expect(error.message).toContain(`Unrecognized pipeline stage name: '${stage}'`);
      });
    }
  }
});

/** The first write error of an update command's reply, thrown as the error a driver raises. */
function writeErrorOf(reply: Document): Document {
  const first = (reply.writeErrors as Array<{ code: number; errmsg: string }> | undefined)?.[0];
  if (first === undefined) return reply;
  const error: Error & { code?: number } = new Error(first.errmsg);
  error.code = first.code;
  throw error;
}
