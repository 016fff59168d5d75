// Mongoose 9 against the target: indexes, CRUD, paging, transactions, bulk insert, lean, populate.
import { describe, it, expect, beforeAll, afterAll } from "@jest/globals";
import mongoose, { Schema, type Connection, type Types } from "mongoose";
import { openTarget, type Target } from "../target.js";
import { expectCode, rejection } from "./helpers.js";

let t: Target;
let conn: Connection;

interface Rec {
  owner: string;
  slug: string;
  title: string;
  n: number;
}
interface Author {
  name: string;
}
interface Book {
  title: string;
  author: Types.ObjectId;
}

const recSchema = new Schema<Rec>({
  owner: { type: String, required: true },
  slug: { type: String, required: true },
  title: { type: String, default: "untitled" },
  n: { type: Number, default: 0 },
});
recSchema.index({ owner: 1, slug: 1 }, { unique: true });

const bulkSchema = new Schema({ i: Number, group: String });
const authorSchema = new Schema<Author>({ name: String });
const bookSchema = new Schema<Book>({ title: String, author: { type: Schema.Types.ObjectId, ref: "Author" } });

beforeAll(async () => {
  t = await openTarget();
  conn = await mongoose
    .createConnection(t.uri, { dbName: t.db.databaseName, serverSelectionTimeoutMS: 5000 })
    .asPromise();
});
afterAll(async () => {
  await conn?.close();
  await t.stop();
});

const Rec = () => conn.models.Rec ?? conn.model<Rec>("Rec", recSchema, "recs");

describe("mongoose", () => {
  it("Model.init() builds the unique compound index", async () => {
    await Rec().init();
    const idx = await t.db.collection("recs").listIndexes().toArray();
    const spec = idx.find((i) => i.name === "owner_1_slug_1");
    expect(spec).toBeDefined();
    expect(spec!.unique).toBe(true);
    expect(spec!.key).toEqual({ owner: 1, slug: 1 });
  });

  it("syncIndexes is idempotent and keeps the declared index", async () => {
    const R = Rec();
    await R.syncIndexes();
    const dropped = await R.syncIndexes();
    expect(dropped).toEqual([]);
    const names = (await t.db.collection("recs").listIndexes().toArray()).map((i) => i.name).sort();
    expect(names).toEqual(["_id_", "owner_1_slug_1"]);
  });

  it("create / read / update / delete", async () => {
    const R = Rec();
    const doc = await R.create({ owner: "crud", slug: "one", title: "First" });
    expect(doc._id).toBeDefined();
    expect(doc.n).toBe(0);
    const found = await R.findById(doc._id);
    expect(found?.title).toBe("First");
    found!.title = "Renamed";
    await found!.save();
    expect((await R.findOne({ owner: "crud", slug: "one" }))?.title).toBe("Renamed");
    const upd = await R.updateOne({ _id: doc._id }, { $set: { n: 4 } });
    expect(upd.modifiedCount).toBe(1);
    expect((await R.findById(doc._id))?.n).toBe(4);
    const del = await R.deleteOne({ _id: doc._id });
    expect(del.deletedCount).toBe(1);
    expect(await R.findById(doc._id)).toBeNull();
  });

  it("a duplicate (owner, slug) is rejected with E11000", async () => {
    const R = Rec();
    await R.init();
    await R.create({ owner: "dup", slug: "same" });
    await R.create({ owner: "dup", slug: "other" });
    const err = await expectCode(R.create({ owner: "dup", slug: "same" }), 11000);
    expect(err.message).toContain("E11000");
    expect(err.keyValue).toEqual({ owner: "dup", slug: "same" });
    expect(await R.countDocuments({ owner: "dup" })).toBe(2);
  });

  it("find().sort().skip().limit() pages; countDocuments counts", async () => {
    const R = Rec();
    await R.insertMany(
      Array.from({ length: 25 }, (_, i) => ({ owner: "page", slug: `s${String(i).padStart(2, "0")}`, n: i })),
    );
    expect(await R.countDocuments({ owner: "page" })).toBe(25);
    expect(await R.countDocuments({ owner: "page", n: { $gte: 20 } })).toBe(5);
    const page2 = await R.find({ owner: "page" }).sort({ n: -1 }).skip(10).limit(10);
    expect(page2.map((d) => d.n)).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5]);
    const last = await R.find({ owner: "page" }).sort({ n: -1 }).skip(20).limit(10);
    expect(last.map((d) => d.n)).toEqual([4, 3, 2, 1, 0]);
  });

  it("findOneAndUpdate with $inc and { new: true } returns the updated doc", async () => {
    const R = Rec();
    await R.create({ owner: "inc", slug: "ctr", n: 1 });
    const after = await R.findOneAndUpdate({ owner: "inc", slug: "ctr" }, { $inc: { n: 2 } }, { new: true });
    expect(after?.n).toBe(3);
    const before = await R.findOneAndUpdate(
      { owner: "inc", slug: "ctr" },
      { $inc: { n: 1 } },
      { returnDocument: "before" },
    );
    expect(before?.n).toBe(3);
    const upserted = await R.findOneAndUpdate(
      { owner: "inc", slug: "new" },
      { $inc: { n: 1 } },
      { upsert: true, returnDocument: "after" },
    );
    expect(upserted?.n).toBe(1);
    expect(await R.countDocuments({ owner: "inc" })).toBe(2);
  });

  it("connection.transaction commits on success and rolls back on throw", async () => {
    const R = Rec();
    await R.init();
    await conn.transaction(async (session) => {
      await R.create([{ owner: "tx", slug: "a" }], { session });
      await R.updateOne({ owner: "tx", slug: "a" }, { $set: { n: 7 } }, { session });
    });
    expect((await R.findOne({ owner: "tx", slug: "a" }).lean())?.n).toBe(7);
    const err = await rejection(
      conn.transaction(async (session) => {
        await R.create([{ owner: "tx", slug: "b" }], { session });
        throw new Error("rollback please");
      }),
    );
    expect(err.message).toBe("rollback please");
    expect(await R.countDocuments({ owner: "tx" })).toBe(1);
  });

  it("insertMany of 5,000 documents, then count", async () => {
    const Bulk = conn.model("Bulk", bulkSchema, "bulk");
    const docs = Array.from({ length: 5000 }, (_, i) => ({ i, group: i % 2 ? "odd" : "even" }));
    const inserted = await Bulk.insertMany(docs);
    expect(inserted).toHaveLength(5000);
    expect(await Bulk.countDocuments()).toBe(5000);
    expect(await Bulk.countDocuments({ group: "odd" })).toBe(2500);
    expect(await Bulk.estimatedDocumentCount()).toBe(5000);
  });

  it("lean() returns plain objects", async () => {
    const R = Rec();
    await R.create({ owner: "lean", slug: "x", title: "Plain" });
    const lean = await R.findOne({ owner: "lean" }).lean();
    expect(lean).not.toBeNull();
    expect(lean instanceof mongoose.Document).toBe(false);
    expect(lean!.title).toBe("Plain");
    expect(Object.keys(lean!).sort()).toEqual(["__v", "_id", "n", "owner", "slug", "title"]);
    const hydrated = await R.findOne({ owner: "lean" });
    expect(hydrated instanceof mongoose.Document).toBe(true);
  });

  it("populate resolves references across two models", async () => {
    const A = conn.model<Author>("Author", authorSchema, "authors");
    const B = conn.model<Book>("Book", bookSchema, "books");
    const [ann, bo] = await A.create([{ name: "Ann" }, { name: "Bo" }]);
    await B.create([
      { title: "T1", author: ann._id },
      { title: "T2", author: bo._id },
      { title: "T3", author: ann._id },
    ]);
    const books = await B.find().sort({ title: 1 }).populate<{ author: Author }>("author").lean();
    expect(books.map((b) => [b.title, b.author.name])).toEqual([
      ["T1", "Ann"],
      ["T2", "Bo"],
      ["T3", "Ann"],
    ]);
  });
});
