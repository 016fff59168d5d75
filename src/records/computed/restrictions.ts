// x-computed restrictions: the restrictions in force today in the notes of the records whose `via` list links to each
// of a batch of records, of their ancestors and of their root (a top container's active_restrictions).
import { linksAt, type ComputedRule, type JsonObject, type RecordType } from "../../registry/index.js";
import { isJsonObject } from "../../registry/json.js";
import type { OperationDeps } from "../deps.js";
import { ancestors, MAX_INCOMING, referrers } from "./linked-lookups.js";

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
export async function restrictions(
  deps: OperationDeps,
  type: RecordType,
  rule: RestrictionsRule,
  uris: string[],
): Promise<Map<string, JsonObject[]>> {
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
