// POST <item>/suppressed?suppressed=true|false (ArchivesSpace's suppression.rb, docs/api.md §14): sets the record's
// suppressed state and that of every tree node below it (a resource's archival objects, a component's own), in one
// transaction, as ArchivesSpace's set_suppressed does across the record's object graph.
import { accessDenied, notFound } from "../../errors/api-error.js";
import { hasPermission } from "../../auth/permissions.js";
import type { OperationDeps } from "../deps.js";
import { changeWithDescendants } from "./flag-writes.js";
import { findStored, permittedType } from "./locate.js";
import { SUPPRESS_PERMISSION, SUPPRESSED_FIELD } from "./suppression.js";
import type { Actor, Scope } from "../types.js";

/** ArchivesSpace's answer to a suppressed route. */
export interface SuppressedResult {
  status: "Suppressed";
  id: number;
  suppressed_state: boolean;
}

export async function setSuppressed(
  deps: OperationDeps,
  typeName: string,
  scope: Scope,
  id: number,
  suppressed: boolean,
  actor: Actor,
): Promise<SuppressedResult> {
  // Reading the record is the least a caller needs; suppressing it takes the suppression code in its repository.
  const type = permittedType(deps, typeName, scope, actor, "read");
  if (actor.kind === "anonymous") throw accessDenied();
  if (actor.kind === "user" && !hasPermission(actor.permissions, SUPPRESS_PERMISSION, scope.repoId))
    throw accessDenied();
  if (!type.suppressible) throw notFound(type.title);
  await deps.store.transaction(async (session) => {
    // Whoever holds the code sees suppressed records: no hidden filter.
    const record = await findStored(deps, type, id, scope, session);
    await changeWithDescendants(deps, type, scope, record, actor, session, (of, stored) =>
      of.suppressible && (stored[SUPPRESSED_FIELD] === true) !== suppressed
        ? { [SUPPRESSED_FIELD]: suppressed }
        : undefined,
    );
  });
  return { status: "Suppressed", id, suppressed_state: suppressed };
}
