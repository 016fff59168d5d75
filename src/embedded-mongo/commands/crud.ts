// insert, update, delete, find, getMore, killCursors, findAndModify, count, distinct.
import { ObjectId, calculateObjectSize, type Document } from "bson";
import { isDocument } from "../bson-values.js";
import { CommandError, ErrorCodes, badValue, failedToParse } from "../errors.js";
import { cloneValue } from "../query/clone.js";
import { project } from "../query/projection.js";
import { parseSort } from "../query/sort.js";
import { applyUpdate, buildUpsert, classifyUpdate } from "../query/update.js";
import { compareValues } from "../bson-order.js";
import { WriteBlocked, type CollectionAccess } from "../access.js";
import type { CommandContext, CommandHandler } from "./context.js";
import {
  documentArray,
  nonNegativeInteger,
  optionalBoolean,
  optionalDocument,
  optionalNumber,
  targetCollection,
} from "./params.js";

function asCommandError(error: unknown): CommandError {
  if (error instanceof CommandError) return error;
  return new CommandError(ErrorCodes.InternalError, error instanceof Error ? error.message : String(error));
}

/**
 * Runs the statements of a write command, from where an earlier run stopped, stopping at
 * the first error when ordered. A statement that must wait for a transaction rethrows
 * WriteBlocked with the progress kept in ctx.writeState.
 */
function eachStatement<T>(
  ctx: CommandContext,
  statements: T[],
  run: (statement: T, index: number) => void,
): Document[] {
  const ordered = optionalBoolean(ctx.command, "ordered") ?? true;
  const state = ctx.writeState;
  for (; state.next < statements.length; state.next++) {
    const i = state.next;
    try {
      run(statements[i], i);
    } catch (error) {
      if (error instanceof WriteBlocked) throw error;
      const commandError = asCommandError(error);
      // Inside a transaction any write error aborts the whole transaction.
      if (ctx.inTransaction) throw commandError;
      state.writeErrors.push(commandError.toWriteError(i));
      if (ordered) {
        state.next = statements.length;
        break;
      }
    }
  }
  return state.writeErrors;
}

function withWriteErrors(reply: Document, writeErrors: Document[]): Document {
  if (writeErrors.length > 0) reply.writeErrors = writeErrors;
  return reply;
}

const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

function checkSize(doc: Document, code: number, what: string): void {
  const size = calculateObjectSize(doc);
  if (size > MAX_DOCUMENT_BYTES)
    throw new CommandError(code, `${what} is too large. size in bytes: ${size}, max size: ${MAX_DOCUMENT_BYTES}`);
}

/** `messageBytes`: the length of the message the document came in, if it did. */
export function prepareInsert(doc: Document, messageBytes?: number): Document {
  // A document read from a message no longer than the limit is within it: measuring it again would cost as much as
  // writing it (an import sends thousands a second).
  if (messageBytes === undefined || messageBytes > MAX_DOCUMENT_BYTES)
    checkSize(doc, ErrorCodes.BSONObjectTooLarge, "object to insert");
  // One just read from a message is the engine's alone (nothing else holds the command once it is answered); one
  // handed over in this process may still be its caller's.
  const copy = messageBytes === undefined ? cloneValue(doc) : doc;
  if (copy._id === undefined) return { _id: new ObjectId(), ...copy };
  if (Array.isArray(copy._id)) throw badValue("can't use an array for _id");
  return copy;
}

const insert: CommandHandler = (ctx) => {
  const access = ctx.access(targetCollection(ctx.command));
  const documents = documentArray(ctx.command, "documents");
  const state = ctx.writeState;
  const writeErrors = eachStatement(ctx, documents, (doc) => {
    access.insert(prepareInsert(doc, ctx.messageBytes));
    state.n++;
  });
  return withWriteErrors({ n: state.n, ok: 1 }, writeErrors);
};

interface UpdateStatement {
  q: Document;
  u: Document | Document[];
  upsert?: boolean;
  multi?: boolean;
  arrayFilters?: Document[];
  hint?: unknown;
  sort?: Document;
}

function updateOne(
  access: CollectionAccess,
  statement: UpdateStatement,
): { n: number; modified: number; upsertedId?: unknown } {
  const kind = classifyUpdate(statement.u);
  if (statement.multi && kind === "replacement")
    throw failedToParse("multi update is not supported for replacement-style update");
  const matches = access.find({
    filter: statement.q ?? {},
    sort: parseSort(statement.sort),
    skip: 0,
    limit: statement.multi ? 0 : 1,
    hint: statement.hint,
  });
  if (matches.length === 0) {
    if (!statement.upsert) return { n: 0, modified: 0 };
    const doc = buildUpsert(statement.q ?? {}, statement.u, statement.arrayFilters);
    checkSize(doc, ErrorCodes.DocumentTooLarge, "Resulting document after update");
    access.insert(doc);
    return { n: 1, modified: 0, upsertedId: doc._id };
  }
  access.prepareWrite(matches.map((m) => m.rid));
  let modified = 0;
  for (const { rid, doc } of matches) {
    const outcome = applyUpdate(doc, statement.u, { arrayFilters: statement.arrayFilters, filter: statement.q });
    if (!outcome.modified) continue;
    checkSize(outcome.doc, ErrorCodes.DocumentTooLarge, "Resulting document after update");
    access.replace(rid, outcome.doc);
    modified++;
  }
  return { n: matches.length, modified };
}

const update: CommandHandler = (ctx) => {
  const access = ctx.access(targetCollection(ctx.command));
  const statements = documentArray(ctx.command, "updates") as UpdateStatement[];
  // Field types are checked for every statement before any runs: a malformed command writes nothing.
  for (const statement of statements) {
    optionalBoolean(statement, "multi");
    optionalBoolean(statement, "upsert");
  }
  const state = ctx.writeState;
  const writeErrors = eachStatement(ctx, statements, (statement, index) => {
    const result = updateOne(access, statement);
    state.n += result.n;
    state.nModified += result.modified;
    if (result.upsertedId !== undefined) state.upserted.push({ index, _id: result.upsertedId });
  });
  const reply: Document = { n: state.n, nModified: state.nModified, ok: 1 };
  if (state.upserted.length > 0) reply.upserted = state.upserted;
  return withWriteErrors(reply, writeErrors);
};

const remove: CommandHandler = (ctx) => {
  const access = ctx.access(targetCollection(ctx.command));
  const statements = documentArray(ctx.command, "deletes");
  const state = ctx.writeState;
  const writeErrors = eachStatement(ctx, statements, (statement) => {
    const limit = Number(statement.limit ?? 0);
    if (limit !== 0 && limit !== 1) throw failedToParse("The limit field in delete objects must be 0 or 1");
    const matches = access.find({
      filter: (statement.q as Document) ?? {},
      sort: [],
      skip: 0,
      limit,
      hint: statement.hint,
    });
    access.prepareWrite(matches.map((m) => m.rid));
    for (const { rid } of matches) access.remove(rid);
    state.n += matches.length;
  });
  return withWriteErrors({ n: state.n, ok: 1 }, writeErrors);
};

const find: CommandHandler = (ctx) => {
  const name = targetCollection(ctx.command);
  const filter = optionalDocument(ctx.command, "filter") ?? {};
  const rawLimit = optionalNumber(ctx.command, "limit") ?? 0;
  const singleBatch = (optionalBoolean(ctx.command, "singleBatch") ?? false) || rawLimit < 0;
  const limit = Math.abs(rawLimit);
  const skip = nonNegativeInteger(ctx.command, "skip") ?? 0;
  const batchSize = nonNegativeInteger(ctx.command, "batchSize");
  const found = ctx
    .access(name)
    .find({ filter, sort: parseSort(ctx.command.sort), skip, limit, hint: ctx.command.hint });
  const docs = project(
    found.map((r) => r.doc),
    optionalDocument(ctx.command, "projection"),
    filter,
  );
  return ctx.cursors.open(`${ctx.db}.${name}`, docs, rawLimit < 0 ? limit : batchSize, singleBatch);
};

const getMore: CommandHandler = (ctx) => {
  const id = ctx.command.getMore;
  const collection = ctx.command.collection;
  if (typeof collection !== "string")
    throw new CommandError(ErrorCodes.TypeMismatch, "BSON field 'getMore.collection' is missing");
  return ctx.cursors.getMore(id, `${ctx.db}.${collection}`, nonNegativeInteger(ctx.command, "batchSize"));
};

const killCursors: CommandHandler = (ctx) => {
  targetCollection(ctx.command);
  const ids = ctx.command.cursors;
  if (!Array.isArray(ids))
    throw new CommandError(ErrorCodes.TypeMismatch, "BSON field 'killCursors.cursors' is missing");
  const { killed, notFound } = ctx.cursors.kill(ids);
  return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
};

const findAndModify: CommandHandler = (ctx) => {
  const access = ctx.access(targetCollection(ctx.command));
  const query = optionalDocument(ctx.command, "query") ?? {};
  const removeDoc = optionalBoolean(ctx.command, "remove") ?? false;
  const returnNew = optionalBoolean(ctx.command, "new") ?? false;
  const upsert = optionalBoolean(ctx.command, "upsert") ?? false;
  const updateSpec = ctx.command.update as Document | Document[] | undefined;
  const fields = optionalDocument(ctx.command, "fields");
  if (removeDoc && (updateSpec !== undefined || returnNew || upsert))
    throw failedToParse("Cannot specify both an update and remove=true, or new/upsert with remove");
  if (!removeDoc && updateSpec === undefined) throw failedToParse("Either an update or remove=true must be specified");
  const [match] = access.find({
    filter: query,
    sort: parseSort(ctx.command.sort),
    skip: 0,
    limit: 1,
    hint: ctx.command.hint,
  });
  if (match) access.prepareWrite([match.rid]);
  const shape = (doc: Document | undefined) => (doc ? project([doc], fields)[0] : null);
  if (removeDoc) {
    if (match) access.remove(match.rid);
    return { lastErrorObject: { n: match ? 1 : 0 }, value: shape(match?.doc), ok: 1 };
  }
  const arrayFilters = ctx.command.arrayFilters as Document[] | undefined;
  if (!match) {
    if (!upsert) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
    const doc = buildUpsert(query, updateSpec!, arrayFilters);
    checkSize(doc, ErrorCodes.DocumentTooLarge, "Resulting document after update");
    access.insert(doc);
    return {
      lastErrorObject: { n: 1, updatedExisting: false, upserted: doc._id },
      value: returnNew ? shape(doc) : null,
      ok: 1,
    };
  }
  const outcome = applyUpdate(match.doc, updateSpec!, { arrayFilters, filter: query });
  checkSize(outcome.doc, ErrorCodes.DocumentTooLarge, "Resulting document after update");
  if (outcome.modified) access.replace(match.rid, outcome.doc);
  return { lastErrorObject: { n: 1, updatedExisting: true }, value: shape(returnNew ? outcome.doc : match.doc), ok: 1 };
};

const count: CommandHandler = (ctx) => {
  const access = ctx.access(targetCollection(ctx.command));
  const query = optionalDocument(ctx.command, "query") ?? {};
  const skip = nonNegativeInteger(ctx.command, "skip") ?? 0;
  const limit = Math.abs(optionalNumber(ctx.command, "limit") ?? 0);
  return { n: access.count(query, skip, limit, ctx.command.hint), ok: 1 };
};

const distinct: CommandHandler = (ctx) => {
  const access = ctx.access(targetCollection(ctx.command));
  const key = ctx.command.key;
  if (typeof key !== "string")
    throw new CommandError(ErrorCodes.TypeMismatch, "BSON field 'distinct.key' is missing or is not a string");
  const query = optionalDocument(ctx.command, "query") ?? {};
  const values: unknown[] = [];
  const path = key.split(".");
  for (const { doc } of access.find({ filter: query, sort: [], skip: 0, limit: 0 })) collectPresent(doc, path, values);
  values.sort(compareValues);
  const unique = values.filter((v, i) => i === 0 || compareValues(values[i - 1], v) !== 0);
  return { values: unique, ok: 1 };
};

/** The values distinct sees at a path: present values only, arrays flattened one level. */
function collectPresent(value: unknown, path: string[], out: unknown[]): void {
  if (path.length === 0) {
    if (Array.isArray(value)) out.push(...value);
    else if (value !== undefined) out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const element of value) collectPresent(element, path, out);
  } else if (isDocument(value)) {
    collectPresent(value[path[0]], path.slice(1), out);
  }
}

export const crudCommands: Record<string, CommandHandler> = {
  insert,
  update,
  delete: remove,
  find,
  getMore,
  killCursors,
  findAndModify,
  count,
  distinct,
};
