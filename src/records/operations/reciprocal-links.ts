// Reciprocal links (x-reciprocal, registry/reciprocal-links.ts): a link item that states one fact
// about two records, shown by both. When a record is written, every record it links to (or linked
// to before) gets, in the same list, the mirror of each item naming it: the item with its ref
// turned round and its relator read from the other side ("is_parent_of" becomes "is_child_of").
// The record written states the pair's whole fact: its items replace whatever the other record
// held about it, so removing a relationship on either side removes it from both, and a later
// write of the other side (which read the mirror) states it back unchanged. Mirrors are written
// in the write's transaction, bump the other record's lock_version (a client holding an older copy
// of it gets a 409 rather than undoing this write) and are recorded as updates. Deleting a record
// takes its mirrors away through the link's own x-on-target-delete "remove".
import type { ClientSession } from "mongodb";
import { ApiError } from "../../errors/api-error.js";
import {
  dictionary,
  reciprocalFor,
  type JsonObject,
  type JsonValue,
  type ReciprocalLink,
  type RecordType,
} from "../../registry/index.js";
import { addFieldError, fieldErrors } from "../../registry/validation-errors.js";
import type { OperationDeps } from "../deps.js";
import type { Actor } from "../types.js";

/** What a mirror write needs besides the records. */
export interface MirrorContext {
  session: ClientSession;
  actor: Actor;
  now: Date;
}

function itemsOf(record: JsonObject | undefined, property: string): JsonObject[] {
  const value = record?.[property];
  return Array.isArray(value) ? value.filter((item): item is JsonObject => isObject(item)) : [];
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON equality, key order and prototypes aside (mirrors are built as dictionaries, stored documents are not). */
function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (!isObject(a)) return a === b;
  if (!isObject(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
  );
}

function refOf(item: JsonObject): string | undefined {
  return typeof item.ref === "string" ? item.ref : undefined;
}

/** The item as the record it names shows it: pointing back at `from`, its relator read the other way. */
function mirrorOf(item: JsonObject, link: ReciprocalLink, from: string): JsonObject {
  const mirror = dictionary<JsonValue>();
  for (const [key, value] of Object.entries(item)) if (key !== "_resolved") mirror[key] = value;
  mirror.ref = from;
  const relator = item[link.relator];
  if (typeof relator === "string") mirror[link.relator] = link.inverse.get(relator) ?? relator;
  return mirror;
}

/** Whether any reciprocal list of the type holds an item in `record` or `previous` (else there is nothing to do). */
export function hasReciprocalItems(type: RecordType, record: JsonObject | undefined, previous?: JsonObject): boolean {
  return type.reciprocalLinks.some(
    (link) => itemsOf(record, link.property).length > 0 || itemsOf(previous, link.property).length > 0,
  );
}

/** A 400 for items naming the record itself: a fact needs two records, and its mirror would land in the same list. */
function refuseSelfLinks(type: RecordType, uri: string, record: JsonObject): void {
  const errors = fieldErrors();
  for (const property of new Set(type.reciprocalLinks.map((link) => link.property))) {
    itemsOf(record, property).forEach((item, index) => {
      if (refOf(item) === uri && reciprocalFor(type.reciprocalLinks, property, item) !== undefined)
        addFieldError(errors, `${property}/${index}/ref`, "Must not refer to the record itself");
    });
  }
  if (Object.keys(errors).length > 0) throw new ApiError(400, errors);
}

/**
 * Writes the mirrors of `record`'s reciprocal items (`uri`: its uri) into the records they name, and takes away
 * the mirrors of items `previous` had and `record` no longer has. `record` is what was just stored.
 */
export async function writeMirrors(
  deps: OperationDeps,
  type: RecordType,
  uri: string,
  record: JsonObject,
  previous: JsonObject | undefined,
  context: MirrorContext,
): Promise<void> {
  refuseSelfLinks(type, uri, record);
  for (const property of new Set(type.reciprocalLinks.map((link) => link.property))) {
    const items = itemsOf(record, property);
    const partners = new Set<string>();
    for (const item of [...items, ...itemsOf(previous, property)]) {
      const ref = refOf(item);
      if (ref !== undefined && reciprocalFor(type.reciprocalLinks, property, item) !== undefined) partners.add(ref);
    }
    for (const partner of partners) {
      const mirrors: JsonObject[] = [];
      for (const item of items) {
        const link = reciprocalFor(type.reciprocalLinks, property, item);
        if (link !== undefined && refOf(item) === partner) mirrors.push(mirrorOf(item, link, uri));
      }
      await showBack(deps, partner, property, uri, mirrors, context);
    }
  }
}

/** Replaces what the record at `partner` holds in `property` about `from` with `mirrors`, where it was (or last). */
async function showBack(
  deps: OperationDeps,
  partner: string,
  property: string,
  from: string,
  mirrors: readonly JsonObject[],
  { session, actor, now }: MirrorContext,
): Promise<void> {
  const target = deps.registry.parseUri(partner);
  // A new item's target was checked to exist before the write; an old item's may have gone since.
  if (target === undefined || !deps.registry.has(target.type)) return;
  const collection = deps.store.collection(target.type);
  const filter = target.repoId === undefined ? { id: target.id } : { id: target.id, repo_id: target.repoId };
  const doc = await collection.findOne(filter, { session });
  if (!doc) return;
  const { _id, ...fields } = doc;
  const current = Array.isArray(fields[property]) ? (fields[property] as JsonValue[]) : [];
  const at = current.findIndex((item) => isObject(item) && item.ref === from);
  const kept = current.filter((item) => !(isObject(item) && item.ref === from));
  // Nothing before the first old item names `from`, so that is its place among the kept ones too.
  const next = [...kept];
  next.splice(at < 0 ? kept.length : at, 0, ...mirrors);
  if (sameJson(current, next)) return;
  await collection.replaceOne(
    { _id },
    {
      ...fields,
      [property]: next,
      lock_version: (doc.lock_version as number) + 1,
      system_mtime: now,
      last_modified_by: actor.username,
    },
    { session },
  );
  await deps.changes.written(
    { type: target.type, operation: "update", id: target.id, scope: { repoId: target.repoId } },
    session,
  );
}
