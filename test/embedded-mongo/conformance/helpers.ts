// Shared helpers for the conformance suite (not a test file itself).
import { expect } from "@jest/globals";
import { Long, ObjectId, type Collection, type Db, type Document } from "mongodb";

/** A server/driver error as seen by the tests: the MongoServerError fields we assert on. */
export interface ServerErr extends Error {
  code?: number;
  codeName?: string;
  errorLabels?: string[];
  keyPattern?: Document;
  keyValue?: Document;
  writeErrors?: Array<{ index: number; code: number; errmsg?: string }>;
  insertedCount?: number;
  result?: Document;
  [k: string]: unknown;
}

/** Awaits `p`, which must reject; returns the rejection (fails the test if it resolves). */
export async function rejection(p: Promise<unknown>): Promise<ServerErr> {
  let value: unknown;
  try {
    value = await p;
  } catch (e) {
    return e as ServerErr;
  }
  throw new Error(`expected the operation to fail, but it resolved with ${safeJson(value)}`);
}

/** Awaits `p`, which must reject with `err.code` equal to `code` (or one of `code`). */
export async function expectCode(p: Promise<unknown>, code: number | number[]): Promise<ServerErr> {
  const err = await rejection(p);
  const codes = Array.isArray(code) ? code : [code];
  if (!codes.includes(err.code as number)) {
    throw new Error(
      `expected error code ${codes.join(" or ")}, got code=${String(err.code)} ` +
        `codeName=${String(err.codeName)} message=${err.message}`,
    );
  }
  expect(codes).toContain(err.code);
  return err;
}

/** A fresh collection name generator for one test file. */
export function namer(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}_${++n}_${Math.random().toString(36).slice(2, 7)}`;
}

export function fresh(db: Db, next: () => string): Collection<Document> {
  return db.collection(next());
}

/** Cursor ids come back as a number when small (promoteLongs); commands need an int64. */
export function asLong(id: unknown): Long {
  if (Long.isLong(id)) return id;
  if (typeof id === "number" || typeof id === "bigint") return Long.fromValue(id as number);
  throw new Error(`not a cursor id: ${safeJson(id)}`);
}

export function isZeroId(id: unknown): boolean {
  return Long.isLong(id) ? id.isZero() : Number(id) === 0;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v)?.slice(0, 300) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Documents in these tests use numbers/strings as _id freely; keep the driver's typing loose. */
export type AnyId = number | string | ObjectId | Long | Date | boolean | null;

export interface Loose {
  _id?: AnyId;
  [key: string]: any;
}
