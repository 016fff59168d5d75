// A client's record body, made ready to store: safe keys, valid against the type's schema
// (read-only fields dropped, defaults applied), links checked.
import { ApiError } from "../../errors/api-error.js";
import type { JsonObject, RecordType } from "../../registry/index.js";
import type { OperationDeps } from "./deps.js";
import { assertSafeKeys } from "./input-safety.js";
import { checkLinks } from "./links.js";
import type { Scope } from "./types.js";

export interface PreparedRecord {
  fields: JsonObject;
  /** The server changed what it stores beyond the client's input (e.g. defaults). */
  stale: boolean;
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}

export async function prepareRecord(deps: OperationDeps, type: RecordType, scope: Scope, input: unknown): Promise<PreparedRecord> {
  assertSafeKeys(input);
  const result = deps.validator.validate(type.name, input);
  if (!result.ok) throw new ApiError(400, result.errors);
  await checkLinks(deps, type.name, scope, result.doc);
  const submitted = input && typeof input === "object" && !Array.isArray(input) ? deps.validator.stripReadOnly(type.name, input as JsonObject) : {};
  return { fields: result.doc, stale: canonical(submitted) !== canonical(result.doc) };
}
