// Collections, databases and indexes: create, drop, rename, list.
import { calculateObjectSize, type Document } from "bson";
import { CommandError, ErrorCodes } from "../errors.js";
import { compileFilter } from "../query/filter.js";
import { checkCollectionName, checkDatabaseName } from "../store/catalog.js";
import { normaliseIndexSpec } from "../store/secondary-index.js";
import type { CommandHandler } from "./context.js";
import { documentArray, isGenericField, optionalBoolean, optionalDocument, targetCollection } from "./params.js";

const create: CommandHandler = (ctx) => {
  const name = targetCollection(ctx.command);
  for (const option of Object.keys(ctx.command)) {
    if (option !== "create" && !isGenericField(option))
      throw new CommandError(
        ErrorCodes.InvalidOptions,
        `create option '${option}' is not supported by the embedded engine`,
      );
  }
  checkDatabaseName(ctx.db);
  ctx.catalog.apply({ op: "createCollection", db: ctx.db, coll: name, options: {} });
  return { ok: 1 };
};

const drop: CommandHandler = (ctx) => {
  const name = targetCollection(ctx.command);
  if (!ctx.catalog.get(ctx.db, name)) throw new CommandError(ErrorCodes.NamespaceNotFound, "ns not found");
  const before = ctx.catalog.get(ctx.db, name)!;
  const nIndexesWas = before.indexes.size;
  ctx.catalog.apply({ op: "dropCollection", db: ctx.db, coll: name });
  return { nIndexesWas, ns: `${ctx.db}.${name}`, ok: 1 };
};

const dropDatabase: CommandHandler = (ctx) => {
  if (ctx.catalog.databases.has(ctx.db)) ctx.catalog.apply({ op: "dropDatabase", db: ctx.db });
  return { dropped: ctx.db, ok: 1 };
};

function parseNamespace(value: unknown, field: string): { db: string; coll: string } {
  if (typeof value !== "string" || !value.includes("."))
    throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid namespace specified for '${field}': ${String(value)}`);
  const dot = value.indexOf(".");
  return { db: checkDatabaseName(value.slice(0, dot)), coll: checkCollectionName(value.slice(dot + 1)) };
}

const renameCollection: CommandHandler = (ctx) => {
  if (ctx.db !== "admin")
    throw new CommandError(ErrorCodes.Unauthorized, "renameCollection may only be run against the admin database.");
  const from = parseNamespace(ctx.command.renameCollection, "renameCollection");
  const to = parseNamespace(ctx.command.to, "to");
  if (!ctx.catalog.get(from.db, from.coll))
    throw new CommandError(ErrorCodes.NamespaceNotFound, "Source collection does not exist");
  if (ctx.catalog.get(to.db, to.coll)) {
    if (!(optionalBoolean(ctx.command, "dropTarget") ?? false))
      throw new CommandError(ErrorCodes.NamespaceExists, "target namespace exists");
    ctx.catalog.apply({ op: "dropCollection", db: to.db, coll: to.coll });
  }
  ctx.catalog.apply({ op: "rename", db: from.db, coll: from.coll, toDb: to.db, toColl: to.coll });
  return { ok: 1 };
};

const listCollections: CommandHandler = (ctx) => {
  const filter = compileFilter(optionalDocument(ctx.command, "filter") ?? {});
  const nameOnly = optionalBoolean(ctx.command, "nameOnly") ?? false;
  const entries: Document[] = [];
  for (const collection of ctx.catalog.databases.get(ctx.db)?.values() ?? []) {
    const entry: Document = nameOnly
      ? { name: collection.name, type: "collection" }
      : {
          name: collection.name,
          type: "collection",
          options: collection.options,
          info: { readOnly: false },
          idIndex: { v: 2, key: { _id: 1 }, name: "_id_" },
        };
    if (filter(entry)) entries.push(entry);
  }
  return ctx.cursors.open(`${ctx.db}.$cmd.listCollections`, entries, undefined);
};

const listDatabases: CommandHandler = (ctx) => {
  const filter = compileFilter(optionalDocument(ctx.command, "filter") ?? {});
  const nameOnly = optionalBoolean(ctx.command, "nameOnly") ?? false;
  const databases: Document[] = [];
  for (const [name, collections] of ctx.catalog.databases) {
    if (collections.size === 0) continue;
    let docs = 0;
    for (const collection of collections.values()) docs += collection.docs.size;
    const entry: Document = nameOnly ? { name } : { name, sizeOnDisk: docs * 256, empty: docs === 0 };
    if (filter(entry)) databases.push(entry);
  }
  return nameOnly
    ? { databases, ok: 1 }
    : { databases, totalSize: databases.reduce((s, d) => s + (d.sizeOnDisk as number), 0), ok: 1 };
};

const createIndexes: CommandHandler = (ctx) => {
  const name = targetCollection(ctx.command);
  const specs = documentArray(ctx.command, "indexes");
  if (specs.length === 0) throw new CommandError(ErrorCodes.BadValue, "Must specify at least one index to create");
  const existed = ctx.catalog.get(ctx.db, name);
  const numIndexesBefore = existed?.indexes.size ?? 1;
  // Validate every spec before building any, so a bad spec builds nothing.
  for (const spec of specs) normaliseIndexSpec(spec);
  const created: string[] = [];
  try {
    for (const spec of specs) {
      const normalised = normaliseIndexSpec(spec);
      if (ctx.catalog.apply({ op: "createIndex", db: ctx.db, coll: name, spec: normalised }) === true)
        created.push(normalised.name);
    }
  } catch (error) {
    // All or nothing: undo the indexes this command already built.
    for (const indexName of created) ctx.catalog.apply({ op: "dropIndex", db: ctx.db, coll: name, name: indexName });
    throw error;
  }
  const reply: Document = {
    numIndexesBefore,
    numIndexesAfter: numIndexesBefore + created.length,
    createdCollectionAutomatically: !existed,
    ok: 1,
  };
  if (created.length === 0) reply.note = "all indexes already exist";
  return reply;
};

const listIndexes: CommandHandler = (ctx) => {
  const name = targetCollection(ctx.command);
  const collection = ctx.catalog.get(ctx.db, name);
  if (!collection) throw new CommandError(ErrorCodes.NamespaceNotFound, `ns does not exist: ${ctx.db}.${name}`);
  return ctx.cursors.open(
    `${ctx.db}.${name}`,
    collection.indexSpecs().map((spec) => ({ ...spec })),
    undefined,
  );
};

const dropIndexes: CommandHandler = (ctx) => {
  const name = targetCollection(ctx.command);
  const collection = ctx.catalog.get(ctx.db, name);
  if (!collection) throw new CommandError(ErrorCodes.NamespaceNotFound, `ns not found ${ctx.db}.${name}`);
  const nIndexesWas = collection.indexes.size;
  const which = ctx.command.index;
  let names: string[];
  if (which === "*") names = [...collection.indexes.keys()].filter((n) => n !== "_id_");
  else if (typeof which === "string") names = [which];
  else if (Array.isArray(which)) names = which.map(String);
  else if (which && typeof which === "object") {
    const found = collection.findIndexByKey(which as Document);
    if (!found) throw new CommandError(ErrorCodes.IndexNotFound, `can't find index with key: ${JSON.stringify(which)}`);
    names = [found.name];
  } else throw new CommandError(ErrorCodes.TypeMismatch, "BSON field 'dropIndexes.index' is missing");
  for (const indexName of names) {
    if (!collection.indexes.has(indexName))
      throw new CommandError(ErrorCodes.IndexNotFound, `index not found with name [${indexName}]`);
    if (indexName === "_id_") throw new CommandError(ErrorCodes.InvalidOptions, "cannot drop _id index");
  }
  for (const indexName of names) ctx.catalog.apply({ op: "dropIndex", db: ctx.db, coll: name, name: indexName });
  return { nIndexesWas, ok: 1 };
};

const dbStats: CommandHandler = (ctx) => {
  const collections = [...(ctx.catalog.databases.get(ctx.db)?.values() ?? [])];
  const objects = collections.reduce((sum, c) => sum + c.docs.size, 0);
  const indexes = collections.reduce((sum, c) => sum + c.indexes.size, 0);
  let dataSize = 0;
  for (const collection of collections)
    for (const doc of collection.docs.values()) dataSize += calculateObjectSize(doc);
  return {
    db: ctx.db,
    collections: collections.length,
    views: 0,
    objects,
    avgObjSize: objects ? dataSize / objects : 0,
    dataSize,
    storageSize: dataSize,
    indexes,
    indexSize: 0,
    totalSize: dataSize,
    scaleFactor: 1,
    ok: 1,
  };
};

export const ddlCommands: Record<string, CommandHandler> = {
  dbStats,
  create,
  drop,
  dropDatabase,
  renameCollection,
  listCollections,
  listDatabases,
  createIndexes,
  listIndexes,
  dropIndexes,
};
