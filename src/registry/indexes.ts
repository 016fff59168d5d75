// The indexes a record type's collection must have, derived from its scope and x- settings, and
// the reverse question a duplicate-key error (E11000) asks: which field do we name in the reply?
import { FIND_BY_IDENTIFIER, type RecordTypeManifest } from "./manifest.js";

export interface IndexSpec {
  /** Stable name, so that index sync can compare declared and existing indexes. */
  readonly name: string;
  readonly keys: Readonly<Record<string, 1 | -1>>;
  readonly unique: boolean;
  /** Set for sparse unique rules: records without the fields are left out of the index. */
  readonly partialFilterExpression?: Readonly<Record<string, { readonly $exists: true }>>;
  /** Records without the field are left out (a link index: most records hold few of their type's links). */
  readonly sparse?: boolean;
  /**
   * The field a duplicate is reported on (`{"<field>":["That ID is already in use"]}`); unset when not a user error.
   */
  readonly duplicateField?: string;
}

function scoped(scope: "repository" | "global", fields: readonly string[]): Record<string, 1> {
  const keys: Record<string, 1> = scope === "repository" ? { repo_id: 1 } : {};
  for (const field of fields) keys[field] = 1;
  return keys;
}

/**
 * Every index the store must create for one type. Records carry their numeric `id` (and
 * `repo_id` when repository-scoped) beside their fields. Extra indexes (x-indexes) of
 * repository-scoped types are prefixed with repo_id, because every list query is confined to
 * one repository.
 */
export function indexesFor(type: Omit<RecordTypeManifest, "schema">): IndexSpec[] {
  const specs: IndexSpec[] = [{ name: "id_unique", keys: scoped(type.scope, ["id"]), unique: true }];
  if (type.identifiers !== null) {
    const fields = type.identifiers.fields;
    specs.push({
      name: "identifier_unique",
      keys: scoped(type.identifiers.scope, fields),
      unique: true,
      duplicateField: fields[0],
    });
  }
  for (const rule of type.unique) {
    const spec: IndexSpec = {
      name: `${rule.fields.join("_")}_unique`,
      keys: scoped(rule.scope, [...rule.within, ...rule.fields]),
      unique: true,
      duplicateField: rule.fields[0],
    };
    // A sparse compound index still holds records missing the field when repo_id is present,
    // so "sparse" is a partial index on the fields existing.
    const partial = Object.fromEntries(rule.fields.map((field) => [field, { $exists: true as const }]));
    specs.push(rule.sparse ? { ...spec, partialFilterExpression: partial } : spec);
  }
  for (const extra of type.indexes) {
    // id ends every extra index: lists sort by the field with id as the tie-breaker, and the
    // index then gives that order directly (no sort over the whole repository).
    const keys: Record<string, 1 | -1> =
      type.scope === "repository" ? { repo_id: 1, ...extra.fields, id: 1 } : { ...extra.fields, id: 1 };
    specs.push({ name: `${Object.keys(extra.fields).join("_")}_index`, keys, unique: false });
  }
  for (const field of type.findById) {
    // The identifier's parts are looked up through identifier_unique; any other field needs an index led by it (after
    // repo_id: a lookup is confined to the repository in its URL), unless one already is.
    if (field === FIND_BY_IDENTIFIER) continue;
    const keys = scoped(type.scope, [field]);
    if (specs.some((spec) => leadsWith(spec.keys, keys) && spec.partialFilterExpression === undefined)) continue;
    specs.push({ name: `${field}_lookup_index`, keys: { ...keys, id: 1 }, unique: false });
  }
  if (type.externalId !== null) {
    // Not prefixed with repo_id: /by-external-id looks in every repository.
    specs.push({
      name: `${type.externalId.replaceAll(".", "_")}_lookup_index`,
      keys: { [type.externalId]: 1 },
      unique: false,
    });
  }
  if (type.tree !== undefined) {
    // A tree's children are read by parent in position order, a waypoint at a time: the
    // index serves both, and the range of positions a waypoint covers.
    specs.push({
      name: "tree_position_index",
      keys: scoped(type.scope, [TREE_PARENT_FIELD, type.tree.position]),
      unique: false,
    });
  }
  return specs;
}

/** Whether an index's keys begin with exactly `prefix`'s, in its order. */
function leadsWith(keys: Readonly<Record<string, unknown>>, prefix: Readonly<Record<string, unknown>>): boolean {
  const have = Object.keys(keys);
  return Object.keys(prefix).every((key, i) => have[i] === key);
}

/**
 * Stored beside a tree node's fields: the uri of its parent node, or of the root record for a
 * top-level node. One field for both makes "the children of X" one index range either way.
 */
export const TREE_PARENT_FIELD = "tree_parent";

/** The unique index whose keys are exactly those of `keyPattern` (a MongoDB E11000 `keyPattern`). */
export function indexForKeyPattern(
  specs: readonly IndexSpec[],
  keyPattern: Readonly<Record<string, unknown>>,
): IndexSpec | undefined {
  const wanted = Object.keys(keyPattern).sort().join(",");
  return specs.find((spec) => spec.unique && Object.keys(spec.keys).sort().join(",") === wanted);
}
