// GET /users/complete (ArchivesSpace's matching_usernames): the usernames starting with a prefix,
// for a staff interface completing a member's name. Usernames are stored lower-cased
// (usernames.ts), so a case-insensitive prefix is a range of the unique username index: no
// pattern built from the client's text, and at most MAX_COMPLETIONS read.
import type { RecordStore } from "../storage/record-store.js";
import { normaliseUsername } from "./usernames.js";

/** ArchivesSpace's max_usernames_per_source default. */
export const MAX_COMPLETIONS = 50;

/** The highest UTF-16 code unit: every string starting with `prefix` sorts below prefix + it. */
const HIGHEST = "\uffff";

export async function completeUsernames(store: RecordStore, query: string): Promise<string[]> {
  const prefix = normaliseUsername(query);
  const filter = prefix === "" ? {} : { username: { $gte: prefix, $lt: `${prefix}${HIGHEST}` } };
  const found = await store
    .collection("user")
    .find(filter, { projection: { username: 1 } })
    .sort({ username: 1 })
    .limit(MAX_COMPLETIONS)
    .toArray();
  return found.map((user) => String(user.username));
}
