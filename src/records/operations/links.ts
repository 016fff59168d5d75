// The links of a record: finding them along the registry's ref paths, checking them on
// write (the target exists and, if repository-scoped, is in the same repository: contract
// §3), and taking them out when their target is deleted.
import type { ClientSession } from "mongodb";
import { linksAt, type JsonObject, type JsonValue, type RefPath } from "../../registry/index.js";
import { addFieldError, fieldErrors, type FieldErrors } from "../../registry/validation-errors.js";
import type { OperationDeps } from "../deps.js";
import type { Scope } from "../types.js";

/** The problems of every link of a record being written, by slash path (empty when all are good). */
export async function linkProblems(
  deps: OperationDeps,
  type: string,
  scope: Scope,
  record: JsonObject,
): Promise<FieldErrors> {
  return (await linkProblemsOfMany(deps, type, scope, [record]))[0] ?? fieldErrors();
}

/**
 * The link problems of several records of one type at once (one query per target type for all
 * of them). `present`: uris that count as existing though the store has no record yet (records
 * being created in the same batch).
 */
export async function linkProblemsOfMany(
  deps: OperationDeps,
  type: string,
  scope: Scope,
  records: readonly JsonObject[],
  present: { has(uri: string): boolean } = new Set<string>(),
  /** Read inside this transaction (a record created earlier in it counts as existing). */
  session?: ClientSession,
): Promise<FieldErrors[]> {
  const errors = records.map(() => fieldErrors());
  // target type -> ids wanted, with the records and paths that asked for them
  const wanted = new Map<string, Map<number, Array<{ index: number; path: string }>>>();
  records.forEach((record, index) => {
    const own = errors[index] as FieldErrors;
    for (const refPath of deps.registry.refPaths(type)) {
      for (const link of linksAt(record, refPath)) {
        const parsed = deps.registry.parseUri(link.uri);
        // The validator already checked the URI's shape; a parse failure here is the same error.
        if (!parsed || !refPath.targets.includes(parsed.type)) {
          addFieldError(own, link.path, `Must be a uri of: ${refPath.targets.join(", ")}`);
          continue;
        }
        if (parsed.repoId !== undefined && parsed.repoId !== scope.repoId) {
          addFieldError(own, link.path, "Must refer to a record in the same repository");
          continue;
        }
        if (present.has(link.uri)) continue;
        let ids = wanted.get(parsed.type);
        if (!ids) wanted.set(parsed.type, (ids = new Map()));
        // Added to in place: a batch's records often share a target (their resource, a parent), and a copy per
        // asker would cost the square of the batch.
        const askers = ids.get(parsed.id);
        if (askers === undefined) ids.set(parsed.id, [{ index, path: link.path }]);
        else askers.push({ index, path: link.path });
      }
    }
  });
  for (const [target, ids] of wanted) {
    const filter: Record<string, unknown> = { id: { $in: [...ids.keys()] } };
    if (deps.registry.scopeOf(target) === "repository") filter.repo_id = scope.repoId;
    const found = new Set(
      (
        await deps.store
          .collection(target)
          .find(filter, { projection: { id: 1 }, session })
          .toArray()
      ).map((doc) => doc.id),
    );
    for (const [id, askers] of ids) {
      if (found.has(id)) continue;
      for (const { index, path } of askers)
        addFieldError(
          errors[index] as FieldErrors,
          path,
          `Reference to ${deps.registry.uriFor(target, id, scope.repoId)} does not exist`,
        );
    }
  }
  return errors;
}

/**
 * Removes from `record` every list item (or link property) that links to `uri` along
 * `refPath`. Returns true when something was removed.
 */
export function removeLinksTo(record: JsonObject, refPath: RefPath, uri: string): boolean {
  const removeDepth = refPath.removeAt.split("/").length;
  let removed = false;
  const walk = (value: JsonValue | undefined, depth: number): void => {
    if (value === undefined || value === null || typeof value !== "object") return;
    const segment = refPath.segments[depth];
    if (depth === removeDepth - 1) {
      // `value` holds the removable item(s) under `segment`.
      if (segment === "*" && Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) {
          if (
            linksAt(value[i], { ...refPath, segments: refPath.segments.slice(depth + 1) }).some(
              (link) => link.uri === uri,
            )
          ) {
            value.splice(i, 1);
            removed = true;
          }
        }
      } else if (!Array.isArray(value)) {
        const holder = value as Record<string, JsonValue>;
        if (
          linksAt(holder[segment], { ...refPath, segments: refPath.segments.slice(depth + 1) }).some(
            (link) => link.uri === uri,
          )
        ) {
          delete holder[segment];
          removed = true;
        }
      }
      return;
    }
    if (segment === "*") {
      if (Array.isArray(value)) for (const item of value) walk(item, depth + 1);
    } else if (!Array.isArray(value)) {
      walk((value as JsonObject)[segment], depth + 1);
    }
  };
  walk(record as JsonValue, 0);
  return removed;
}
