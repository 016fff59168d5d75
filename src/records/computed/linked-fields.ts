// Computed fields that read other records (x-computed incoming, uses, ancestors: registry/computed-fields.ts),
// produced on a read and on each list page, for the whole batch of records at once: one indexed query per referring
// type and rule (the registry indexes the link paths these rules follow), one per tree level for ancestors. So a
// renamed or deleted record shows in what refers to it on the next read, with nothing stored to keep in step.
import { linksAt, type ComputedRule, type JsonObject, type JsonValue, type RecordType } from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import { isJsonObject } from "../../registry/json.js";
import { displayString } from "./display-format.js";
import { localComputer } from "./local-fields.js";
import { valueAt } from "./paths.js";

type Shown = Record<string, JsonValue>;

/**
 * The most referring records one incoming field lists. ArchivesSpace lists them all; a record linked from more than
 * this (an event log of a busy resource) is cut here, so a read stays bounded: the list is the first ones by id.
 */
export const MAX_INCOMING = 1000;

/** Referring types and the link path each follows into `target` from its `via` list. */
function referrers(deps: OperationDeps, target: RecordType, via: string) {
  return deps.registry.linksTo(target.name).filter(({ refPath }) => refPath.segments[0] === via);
}

type IncomingRule = Extract<ComputedRule, { kind: "incoming" }>;

/** Stored records of a type by uri, fetched by id in one query (the whole record, or `projection`). */
async function fetchByUri(deps: OperationDeps, typeName: string, uris: Iterable<string>, projection?: JsonObject) {
  const byUri = new Map<string, StoredRecord>();
  const ids: number[] = [];
  let repoId: number | undefined;
  for (const uri of uris) {
    const parsed = deps.registry.parseUri(uri);
    if (parsed === undefined) continue;
    ids.push(parsed.id);
    repoId = parsed.repoId;
  }
  if (ids.length === 0) return byUri;
  const type = deps.registry.get(typeName);
  // Every uri of one batch is in one repository: the records shown are, and tree links stay within it.
  const filter = type.scope === "repository" ? { repo_id: repoId, id: { $in: ids } } : { id: { $in: ids } };
  const options = projection === undefined ? {} : { projection };
  for (const doc of await deps.store.collection(typeName).find(filter, options).toArray())
    byUri.set(deps.registry.uriFor(typeName, doc.id, doc.repo_id), doc);
  return byUri;
}

/** The record each referring record stands for under `to`: itself, its tree's root, or its top-level node. */
async function standIns(
  deps: OperationDeps,
  referrer: RecordType,
  to: IncomingRule["to"],
  docs: StoredRecord[],
): Promise<Map<StoredRecord, { type: string; doc: StoredRecord }>> {
  const out = new Map<StoredRecord, { type: string; doc: StoredRecord }>();
  const tree = referrer.tree;
  if (to === "self" || tree === null) {
    for (const doc of docs) out.set(doc, { type: referrer.name, doc });
    return out;
  }
  if (to === "root") {
    const rootOf = (doc: StoredRecord) => (doc[tree.root] as { ref?: string } | undefined)?.ref;
    const roots = await fetchByUri(deps, tree.rootType, new Set(docs.flatMap((doc) => rootOf(doc) ?? [])));
    for (const doc of docs) {
      const root = roots.get(rootOf(doc) ?? "");
      if (root !== undefined) out.set(doc, { type: tree.rootType, doc: root });
    }
    return out;
  }
  // The top-level node: the last ancestor before the root, or the node itself at the top.
  const chains = await ancestors(deps, referrer, [], docs);
  const topUri = (doc: StoredRecord) => {
    const chain = chains.get(doc) ?? [];
    return chain.length >= 2 ? (chain[chain.length - 2]?.ref as string) : undefined;
  };
  const tops = await fetchByUri(deps, referrer.name, new Set(docs.flatMap((doc) => topUri(doc) ?? [])));
  for (const doc of docs) {
    const uri = topUri(doc);
    const top = uri === undefined ? doc : tops.get(uri);
    if (top !== undefined) out.set(doc, { type: referrer.name, doc: top });
  }
  return out;
}

/** Whether `doc` holds each value of `where` (a list: any of them; null stands for absent). */
function matches(doc: JsonObject, where: JsonObject | null): boolean {
  if (where === null) return true;
  return Object.entries(where).every(([path, wanted]) => {
    const value = valueAt(doc, path.split("/")) ?? null;
    return Array.isArray(wanted) ? wanted.includes(value) : value === wanted;
  });
}

/** For each uri: [{ref, ...shown fields}] of the records whose `via` list links to it (or what they stand for). */
async function incoming(deps: OperationDeps, type: RecordType, rule: IncomingRule, uris: string[]) {
  const found = new Map<string, JsonObject[]>(uris.map((uri) => [uri, []]));
  const listed = new Map<string, Set<string>>(uris.map((uri) => [uri, new Set()]));
  const bare = rule.to === "self" && rule.where === null && rule.show === null;
  for (const { type: referrer, refPath } of referrers(deps, type, rule.via)) {
    const docs = await deps.store
      .collection(referrer)
      .find({ [refPath.mongoPath]: { $in: uris } }, bare ? { projection: { id: 1, repo_id: 1, [rule.via]: 1 } } : {})
      .sort({ id: 1 })
      .limit(MAX_INCOMING)
      .toArray();
    const stands = await standIns(deps, deps.registry.get(referrer), rule.to, docs);
    for (const doc of docs) {
      const target = stands.get(doc);
      if (target === undefined || !matches(target.doc as JsonObject, rule.where)) continue;
      const ref = deps.registry.uriFor(target.type, target.doc.id, target.doc.repo_id);
      for (const { uri } of linksAt(doc as JsonObject, refPath)) {
        const list = found.get(uri);
        const seen = listed.get(uri);
        if (list === undefined || seen === undefined || seen.has(ref) || list.length >= MAX_INCOMING) continue;
        seen.add(ref);
        const entry: Record<string, JsonValue> = { ref };
        for (const [name, format] of Object.entries(rule.show ?? {})) {
          const value = isJsonObject(format) ? displayString(format, target.doc as JsonObject) : undefined;
          if (value !== undefined) entry[name] = value;
        }
        list.push(entry);
      }
    }
  }
  return found;
}

interface Use {
  ref: string;
  role: string | null;
  repoId: number | null;
  published: boolean;
}

/**
 * The distinct (linked uri, role, repository, published) of every link from a `via` list into the records: grouped by
 * the store, so a much-used agent costs its links' count in the store and a handful of rows here.
 */
async function uses(deps: OperationDeps, type: RecordType, via: string, uris: string[]): Promise<Use[]> {
  const out: Use[] = [];
  for (const { type: referrer, refPath } of referrers(deps, type, via)) {
    // Links in items of the via list itself ({via}/*/.../ref): the item is one row, with its role beside the ref.
    if (refPath.segments[1] !== "*" || refPath.segments.lastIndexOf("*") !== 1) continue;
    const rows = await deps.store
      .collection(referrer)
      .aggregate([
        { $match: { [refPath.mongoPath]: { $in: uris } } },
        { $unwind: `$${via}` },
        { $match: { [refPath.mongoPath]: { $in: uris } } },
        {
          $group: {
            _id: { ref: `$${refPath.mongoPath}`, role: `$${via}.role`, repo: "$repo_id", publish: "$publish" },
          },
        },
      ])
      .toArray();
    for (const row of rows) {
      const key = row._id as { ref: string; role?: unknown; repo?: unknown; publish?: unknown };
      out.push({
        ref: key.ref,
        role: typeof key.role === "string" ? key.role : null,
        repoId: typeof key.repo === "number" ? key.repo : null,
        published: key.publish === true,
      });
    }
  }
  return out;
}

function yieldOf(
  deps: OperationDeps,
  rule: Extract<ComputedRule, { kind: "uses" }>,
  rows: Use[],
  publishedRepositories: ReadonlySet<number>,
): JsonValue {
  const holder = deps.registry.scopeHolder;
  const repositories = (only: (row: Use) => boolean) =>
    [...new Set(rows.filter(only).flatMap((row) => (row.repoId === null ? [] : [row.repoId])))]
      .sort((a, b) => a - b)
      .map((id) => (holder === undefined ? String(id) : deps.registry.uriFor(holder.name, id)));
  switch (rule.yield) {
    case "roles": {
      const keep = rule.keep;
      const roles = new Set(rows.flatMap((row) => (row.role === null ? [] : [row.role])));
      // In the order `keep` lists them (ArchivesSpace's enumeration order), else alphabetical.
      return keep === null ? [...roles].sort() : keep.filter((role) => roles.has(role));
    }
    case "used_within":
      return repositories(() => true);
    case "used_within_published":
      return repositories((row) => row.repoId !== null && publishedRepositories.has(row.repoId));
    case "published":
      return rows.some((row) => row.published);
  }
}

/** Of the repositories `rows` are in, those published (the scope holder's `publish`). */
async function publishedRepositories(deps: OperationDeps, rows: Use[]): Promise<Set<number>> {
  const holder = deps.registry.scopeHolder;
  const ids = [...new Set(rows.flatMap((row) => (row.repoId === null ? [] : [row.repoId])))];
  if (holder === undefined || ids.length === 0) return new Set();
  const docs = await deps.store
    .collection(holder.name)
    .find({ id: { $in: ids }, publish: true }, { projection: { id: 1 } })
    .toArray();
  return new Set(docs.map((doc) => doc.id as number));
}

/** `{ref, ...fields}` of a stored record: an ancestor as the ancestors rule lists it. */
function pickFields(doc: StoredRecord, uri: string, fields: readonly string[]): JsonObject {
  const entry: Record<string, JsonValue> = { ref: uri };
  for (const field of fields) if (doc[field] !== undefined && doc[field] !== null) entry[field] = doc[field];
  return entry;
}

/** The chain above each tree node: [{ref, ...fields}] from its parent up to its root. */
async function ancestors(deps: OperationDeps, type: RecordType, fields: readonly string[], docs: StoredRecord[]) {
  const tree = type.tree;
  const chains = new Map<StoredRecord, JsonObject[]>();
  if (tree === null) return chains;
  const projection = Object.fromEntries(["id", "repo_id", tree.parent, ...fields].map((field) => [field, 1]));
  const pick = (doc: StoredRecord, uri: string): JsonObject => pickFields(doc, uri, fields);
  // Each node's chain grows one level per round, all nodes' parents fetched together.
  let climbing = docs.map((doc) => ({ doc, at: doc }));
  for (const { doc } of climbing) chains.set(doc, []);
  const parentUri = (doc: StoredRecord) => (doc[tree.parent] as { ref?: string } | undefined)?.ref;
  while (climbing.length > 0) {
    const wanted = new Set(climbing.flatMap(({ at }) => parentUri(at) ?? []));
    const parents = new Map<string, StoredRecord>();
    if (wanted.size > 0) {
      const ids = [...wanted].flatMap((uri) => deps.registry.parseUri(uri)?.id ?? []);
      const scope = type.scope === "repository" ? { repo_id: climbing[0]?.at.repo_id } : {};
      for (const parent of await deps.store
        .collection(type.name)
        .find({ ...scope, id: { $in: ids } }, { projection })
        .toArray())
        parents.set(deps.registry.uriFor(type.name, parent.id, parent.repo_id), parent);
    }
    const next: typeof climbing = [];
    for (const { doc, at } of climbing) {
      const uri = parentUri(at);
      const parent = uri === undefined ? undefined : parents.get(uri);
      if (uri === undefined || parent === undefined) continue;
      chains.get(doc)?.push(pick(parent, uri));
      next.push({ doc, at: parent });
    }
    climbing = next;
  }
  // The root closes each chain.
  const rootType = deps.registry.get(tree.rootType);
  const rootUris = new Set(docs.flatMap((doc) => (doc[tree.root] as { ref?: string } | undefined)?.ref ?? []));
  const roots = new Map<string, StoredRecord>();
  const rootIds = [...rootUris].flatMap((uri) => deps.registry.parseUri(uri)?.id ?? []);
  if (rootIds.length > 0) {
    const scope = rootType.scope === "repository" ? { repo_id: docs[0]?.repo_id } : {};
    const rootProjection = Object.fromEntries(["id", "repo_id", ...fields].map((field) => [field, 1]));
    for (const root of await deps.store
      .collection(rootType.name)
      .find({ ...scope, id: { $in: rootIds } }, { projection: rootProjection })
      .toArray())
      roots.set(deps.registry.uriFor(rootType.name, root.id, root.repo_id), root);
  }
  for (const doc of docs) {
    const uri = (doc[tree.root] as { ref?: string } | undefined)?.ref;
    const root = uri === undefined ? undefined : roots.get(uri);
    if (uri !== undefined && root !== undefined) chains.get(doc)?.push(pick(root, uri));
  }
  return chains;
}

type RestrictionsRule = Extract<ComputedRule, { kind: "restrictions" }>;

/** A restriction dated around `today` ("YYYY-MM-DD"), or undated but typed: ArchivesSpace's test of one in force. */
function inForce(restriction: JsonObject, today: string): boolean {
  const begin = typeof restriction.begin === "string" ? restriction.begin : undefined;
  const end = typeof restriction.end === "string" ? restriction.end : undefined;
  const types = restriction.local_access_restriction_type;
  const typed = Array.isArray(types) && types.length > 0;
  if (begin === undefined && end === undefined && !typed) return false;
  return (begin === undefined || begin <= today) && (end === undefined || end >= today);
}

/** For each uri: the restrictions in force of the records linking to it through `via`, their ancestors and roots. */
async function restrictions(deps: OperationDeps, type: RecordType, rule: RestrictionsRule, uris: string[]) {
  const found = new Map<string, JsonObject[]>(uris.map((uri) => [uri, []]));
  const today = deps.now().toISOString().slice(0, 10);
  const fromNotes = (holder: JsonObject, ref: string): JsonObject[] => {
    const notes = holder[rule.notes];
    if (!Array.isArray(notes)) return [];
    return notes.flatMap((note) => {
      if (!isJsonObject(note) || !rule.types.includes(note.type as string)) return [];
      const restriction = note[rule.holder];
      if (!isJsonObject(restriction) || !inForce(restriction, today)) return [];
      return [{ ...restriction, linked_records: { ref }, restriction_note_type: note.type as string }];
    });
  };
  for (const { type: referrer, refPath } of referrers(deps, type, rule.via)) {
    const referrerType = deps.registry.get(referrer);
    const docs = await deps.store
      .collection(referrer)
      .find({ [refPath.mongoPath]: { $in: uris } })
      .sort({ id: 1 })
      .limit(MAX_INCOMING)
      .toArray();
    const chains = await ancestors(deps, referrerType, [rule.notes], docs);
    for (const doc of docs) {
      const own = { ref: deps.registry.uriFor(referrer, doc.id, doc.repo_id), [rule.notes]: doc[rule.notes] ?? [] };
      const holders = [own as JsonObject, ...(chains.get(doc) ?? [])];
      const inForceHere = holders.flatMap((holder) => fromNotes(holder, holder.ref as string));
      for (const { uri } of linksAt(doc as JsonObject, refPath)) {
        const list = found.get(uri);
        if (list === undefined) continue;
        // An ancestor reached through several linking records is listed once.
        for (const restriction of inForceHere)
          if (!list.some((known) => JSON.stringify(known) === JSON.stringify(restriction))) list.push(restriction);
      }
    }
  }
  return found;
}

/** Fills the linked computed fields of `shown` (the shown forms of `docs`, same order), in place. */
export async function addLinkedFields(
  deps: OperationDeps,
  type: RecordType,
  docs: StoredRecord[],
  shown: readonly JsonObject[],
): Promise<void> {
  // shapeRecord's own fresh objects: filled in place, as shape.ts fills them.
  const records = shown as Shown[];
  const linked = type.computed.filter(({ rule }) => ["incoming", "uses", "restrictions"].includes(rule.kind));
  const climbing = type.computed.filter(({ rule }) => rule.kind === "ancestors");
  if (records.length === 0 || linked.length + climbing.length === 0) return;
  const uris = records.map((record) => record.uri as string);
  // One store round per via list, shared by the rules that read it (an agent's roles, repositories, published).
  const usesByVia = new Map<string, Promise<Use[]>>();
  for (const { field, rule } of linked) {
    if (rule.kind === "incoming") {
      const found = await incoming(deps, type, rule, uris);
      for (const record of records) record[field] = found.get(record.uri as string) ?? [];
    } else if (rule.kind === "restrictions") {
      const found = await restrictions(deps, type, rule, uris);
      for (const record of records) record[field] = found.get(record.uri as string) ?? [];
    } else if (rule.kind === "uses") {
      let rows = usesByVia.get(rule.via);
      if (rows === undefined) usesByVia.set(rule.via, (rows = uses(deps, type, rule.via, uris)));
      const all = await rows;
      const published: ReadonlySet<number> =
        rule.yield === "used_within_published" ? await publishedRepositories(deps, all) : new Set<number>();
      for (const record of records) {
        const own = all.filter((row) => row.ref === record.uri);
        record[field] = yieldOf(deps, rule, own, published);
      }
    }
  }
  for (const { field, rule } of climbing) {
    if (rule.kind !== "ancestors") continue;
    const chains = await ancestors(deps, type, rule.fields, docs);
    const { unless } = rule;
    docs.forEach((doc, i) => {
      const record = records[i];
      if (record === undefined) return;
      const chain = chains.get(doc) ?? [];
      if (unless !== null) {
        record[field] = chain.some((ancestor) => !matches(ancestor, unless));
        return;
      }
      const path = rule.fromRoot ? [...chain].reverse() : [...chain];
      if (rule.self) path.push(pickFields(doc, record.uri as string, rule.fields));
      record[field] = rule.ref ? path : path.map(({ ref: _ref, ...fields }) => fields);
    });
  }
  // Local fields may read linked ones (a top container's display string names its series): worked out again.
  const local = localComputer(type);
  if (local !== undefined) for (const record of records) local(record);
}
