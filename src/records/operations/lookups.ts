// Finding records by the identifiers people and other systems give them, as ArchivesSpace's lookups do:
//   find_by_id   within one repository, by the fields a type's schema names (x-find-by-id): an archival object's
//                ref_id or component_id, a resource's 4-part identifier, a top container's barcode or indicator;
//   by external id   in every repository, by the `external_id` of a record's external ids (x-external-id).
// Both answer uris only (and find_by_id what resolve[] asks of them); both read `{id, repo_id}` through the index
// the registry derives from the same keyword (registry/indexes.ts), never a scan, and both are bounded.
import { hiddenFilter } from "./suppression.js";
import { badRequest } from "../../errors/api-error.js";
import { dictionary, FIND_BY_IDENTIFIER, type JsonObject, type RecordType } from "../../registry/index.js";
import type { OperationDeps } from "../deps.js";
import { permittedType, requireRepository } from "./locate.js";
import { resolveRefs } from "./resolve.js";
import type { Actor, Scope } from "../types.js";

/** The most records one find_by_id names: past it, a 400 asks for fewer values. */
export const FIND_BY_ID_MAX_REFS = 10_000;
/** The most uris one external-id lookup lists (its 300 answer). */
export const EXTERNAL_ID_MAX_URIS = 1_000;

/** One find_by_id parameter as given: text values of a field, or identifier tuples (parts, absent ones null). */
export type FindByIdCriterion =
  | { readonly field: string; readonly values: readonly string[] }
  | { readonly field: typeof FIND_BY_IDENTIFIER; readonly identifiers: ReadonlyArray<ReadonlyArray<string | null>> };

interface Found {
  id: number;
  repo_id?: number;
}

function uriOf(deps: OperationDeps, type: RecordType, doc: Found): string {
  return deps.registry.uriFor(type.name, doc.id, doc.repo_id);
}

/**
 * ArchivesSpace's find_by_id: the records of `typeName` in the repository matching every criterion (one criterion
 * matches when the field holds any of its values), in id order, as `{<collection>: [{ref}]}`, each ref resolved when
 * `resolve` names the collection. No criterion: none, as there. Needs the type's read permission.
 * @throws ApiError 403, 404 (no such repository), 400 past FIND_BY_ID_MAX_REFS
 */
export async function findById(
  deps: OperationDeps,
  typeName: string,
  scope: Scope,
  criteria: readonly FindByIdCriterion[],
  resolve: readonly string[],
  actor: Actor,
): Promise<JsonObject> {
  const type = permittedType(deps, typeName, scope, actor, "read");
  // Suppressed records are not found by whoever may not see them, as ArchivesSpace's scoped queries leave them out.
  const base: Record<string, unknown> = { repo_id: scope.repoId, ...hiddenFilter(type, actor, scope.repoId) };
  let tuples: ReadonlyArray<ReadonlyArray<string | null>> | undefined;
  for (const criterion of criteria) {
    if ("identifiers" in criterion) tuples = criterion.identifiers;
    // A field the schema declares (x-find-by-id), matched as text: never an operator.
    else if (type.findById.includes(criterion.field)) base[criterion.field] = { $in: [...criterion.values] };
  }
  const parts = type.identifiers?.fields ?? [];
  // Each identifier is a point in the unique identifier index: one exact lookup apiece (absent parts as null, which
  // MongoDB matches to a missing field), rather than an $or the planner could only scan for.
  const filters =
    tuples === undefined
      ? [base]
      : tuples.map((tuple) => ({ ...base, ...Object.fromEntries(parts.map((part, i) => [part, tuple[i] ?? null])) }));
  const found = new Map<number, Found>();
  if (criteria.length > 0) {
    for (const filter of filters) {
      const docs = await deps.store
        .collection(type.name)
        .find(filter, { projection: { _id: 0, id: 1, repo_id: 1 } })
        .limit(FIND_BY_ID_MAX_REFS + 1)
        .toArray();
      for (const doc of docs) found.set(doc.id, { id: doc.id, repo_id: doc.repo_id });
      if (found.size > FIND_BY_ID_MAX_REFS) {
        const names = criteria.map((criterion): [string, string[]] => [
          criterion.field,
          [tooMany(FIND_BY_ID_MAX_REFS)],
        ]);
        throw badRequest(dictionary(names));
      }
    }
  }
  if (found.size === 0) await requireRepository(deps, type, scope);
  const refs: JsonObject[] = [...found.values()]
    .sort((a, b) => a.id - b.id)
    .map((doc) => ({ ref: uriOf(deps, type, doc) }));
  const answer: JsonObject = dictionary([[type.collection, refs]]);
  const truncated = await resolveRefs(deps, [answer], resolve, actor);
  return truncated ? { ...answer, _resolve_truncated: true } : answer;
}

const tooMany = (max: number) => `These values match more than ${max} records; ask for fewer at a time`;

/** The types whose records carry external ids (x-external-id), in registry order. */
export function externalIdTypes(deps: OperationDeps): RecordType[] {
  return deps.registry.types.filter((type) => type.externalId !== null);
}

/**
 * The uris of the records whose external ids include `eid`, in every repository, of the types named (all types with
 * external ids when none is), type by type in registry order and by id within a type; at most EXTERNAL_ID_MAX_URIS.
 * Whether the caller may ask (ArchivesSpace: `view_all_records`) is the route's question.
 */
export async function findByExternalId(
  deps: OperationDeps,
  eid: string,
  typeNames: readonly string[] | undefined,
): Promise<string[]> {
  const types = externalIdTypes(deps).filter((type) => typeNames === undefined || typeNames.includes(type.name));
  const uris: string[] = [];
  for (const type of types) {
    if (uris.length >= EXTERNAL_ID_MAX_URIS || type.externalId === null) break;
    const docs = await deps.store
      .collection(type.name)
      .find({ [type.externalId]: { $eq: eid } }, { projection: { _id: 0, id: 1, repo_id: 1 } })
      .sort({ id: 1 })
      .limit(EXTERNAL_ID_MAX_URIS - uris.length)
      .toArray();
    for (const doc of docs) uris.push(uriOf(deps, type, { id: doc.id, repo_id: doc.repo_id }));
  }
  return uris;
}
