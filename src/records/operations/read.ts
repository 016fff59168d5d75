// Read (docs/api.md §4, §6): one record as JSON, with resolve[].
import type { JsonObject } from "../../registry/index.js";
import type { OperationDeps } from "../deps.js";
import { findStored, recordType } from "./locate.js";
import { resolveRefs } from "./resolve.js";
import { shapeRecord } from "./shape.js";
import type { ReadOptions, Scope } from "../types.js";

export async function readRecord(
  deps: OperationDeps,
  typeName: string,
  scope: Scope,
  id: number,
  options: ReadOptions = {},
): Promise<JsonObject> {
  const type = recordType(deps, typeName, scope);
  const record = shapeRecord(deps.registry, type, await findStored(deps, type, id, scope));
  if (await resolveRefs(deps, [record], options.resolve ?? [])) return { ...record, _resolve_truncated: true };
  return record;
}
