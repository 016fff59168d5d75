// A group body as the store must hold it: member usernames normalised and de-duplicated (so
// the membership query in access-control.ts finds them), both lists present, every granted
// code a known permission, every member an existing user. What the schema checks (types,
// required fields) is left to it.
import { isPermission } from "../auth/permissions.js";
import { badRequest } from "../errors/api-error.js";
import type { RecordStore } from "../storage/record-store.js";
import { assertMembersExist } from "./memberships.js";
import { normaliseUsername } from "./usernames.js";

function stringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/** @throws ApiError 400 naming each unknown code (`grants_permissions/<i>`) or unknown member */
export async function prepareGroupInput(store: RecordStore, input: unknown): Promise<unknown> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return input;
  const body = { ...(input as Record<string, unknown>) };
  body.member_usernames ??= [];
  body.grants_permissions ??= [];
  if (stringList(body.member_usernames)) body.member_usernames = [...new Set(body.member_usernames.map(normaliseUsername))];
  if (stringList(body.grants_permissions)) {
    const errors: Record<string, string[]> = {};
    body.grants_permissions.forEach((code, index) => {
      if (!isPermission(code)) errors[`grants_permissions/${index}`] = [`Unknown permission code '${code}'`];
    });
    if (Object.keys(errors).length > 0) throw badRequest(errors);
    body.grants_permissions = [...new Set(body.grants_permissions)];
  }
  if (stringList(body.member_usernames)) await assertMembersExist(store, body.member_usernames);
  return body;
}
