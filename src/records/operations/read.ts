// Read (docs/api.md §4, §6): one record as JSON, with resolve[].
import type { JsonObject } from "../../registry/index.js";
import { addLinkedFields } from "../computed/linked-fields.js";
import { readWithLinks } from "./read-with-links.js";
import type { OperationDeps } from "../deps.js";
import { permittedType } from "./locate.js";
import { resolveRefs } from "./resolve.js";
import { shapeRecord } from "./shape.js";
import type { Actor, ReadOptions, Scope } from "../types.js";

export async function readRecord(
  deps: OperationDeps,
  typeName: string,
  scope: Scope,
  id: number,
  actor: Actor,
  options: ReadOptions = {},
): Promise<JsonObject> {
  const type = permittedType(deps, typeName, scope, actor, "read");
  const { stored, prefetched } = await readWithLinks(deps, type, id, scope, actor);
  const shaped = shapeRecord(deps.registry, type, stored, actor);
  await addLinkedFields(deps, type, [stored], [shaped], prefetched);
  const afterRead = deps.hooks.of(type.name)?.afterRead;
  const record = afterRead === undefined ? shaped : await afterRead(shaped, actor);
  if (await resolveRefs(deps, [record], options.resolve ?? [], actor)) return { ...record, _resolve_truncated: true };
  return record;
}
