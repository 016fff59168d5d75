// The record type registry: everything type-specific the service needs (routes, URIs, links,
// permissions, indexes), read from the schemas in record-types/ via generated/registry.ts.
// Generic code asks the registry; it never tests a type name.
import { enumerationSeeds, findEnumerationPaths, type EnumerationPath, type EnumerationSeed } from "./enumerations.js";
import { computedFields, type ComputedField } from "./computed-fields.js";
import { derivedPlan, type DerivedPlan } from "./derived-fields.js";
import { SchemaDefinitionError, UnknownRecordTypeError } from "./errors.js";
import { indexesFor, indexForKeyPattern, type IndexSpec } from "./indexes.js";
import { isJsonObject, type JsonObject } from "./json.js";
import { BUILT_IN_PERMISSION_LEVELS, type PermissionLevel } from "./permission-codes.js";
import { publicationOf, suppressibleOf, type PublicationShape } from "./publication.js";
import type {
  ExportSettings,
  IdentifierSettings,
  PermissionSettings,
  RecordOperation,
  RecordScope,
  RegistryManifest,
  SearchSettings,
  RecordTypeManifest,
  TreeSettings,
  UniqueSettings,
  WriteParameterSettings,
} from "./manifest.js";
import { findReciprocalLinks, type ReciprocalLink } from "./reciprocal-links.js";
import { findRefPaths, type RefPath } from "./ref-paths.js";
import { UriPattern, type ParsedUri } from "./uri-patterns.js";

export interface RecordType {
  /** jsonmodel_type name, e.g. "accession". */
  readonly name: string;
  /** The schema title, e.g. "Accession": for messages such as "Accession not found". */
  readonly title: string;
  /** URL segment and MongoDB collection name. */
  readonly collection: string;
  readonly scope: RecordScope;
  readonly uriPrefix: string;
  /** Route template for list and create, e.g. `/repositories/:repo_id/accessions`. */
  readonly collectionPath: string;
  /** Route template for read, update and delete, e.g. `/repositories/:repo_id/accessions/:id`. */
  readonly itemPath: string;
  readonly identifiers: IdentifierSettings | null;
  readonly unique: readonly UniqueSettings[];
  readonly permissions: PermissionSettings;
  /** Whether reading and listing need no session (x-public-read). */
  readonly publicRead: boolean;
  /** Whether a list without page, id_set or all_ids answers every record (x-list-unpaged). */
  readonly listUnpaged: boolean;
  /** Whether records of the type may be written into a hidden repository (x-in-hidden-scope). */
  readonly inHiddenScope: boolean;
  /** What creates and updates take beside the record (x-write-parameters). */
  readonly writeParameters: readonly WriteParameterSettings[];
  /** Fields a list may be narrowed by (x-list-filters). */
  readonly listFilters: readonly string[];
  /** Ids of records the API never serves (x-hidden-ids). */
  readonly hiddenIds: readonly number[];
  /** The parameters of the type's find_by_id route (x-find-by-id); none: it has no such route. */
  readonly findById: readonly string[];
  /** The dotted path of the type's external ids (x-external-id), or null. */
  readonly externalId: string | null;
  /** What the type's records give the search index (x-search); null: not searchable. */
  readonly search: SearchSettings | null;
  /** The formats the type's records are exported in, and their routes (x-exports). */
  readonly exports: readonly ExportSettings[];
  readonly refPaths: readonly RefPath[];
  /** Link items each stating one fact about two records, shown back by the target (x-reciprocal). */
  readonly reciprocalLinks: readonly ReciprocalLink[];
  readonly indexes: readonly IndexSpec[];
  /** Top-level fields the server fills in when a record arrives without them (x-generated). */
  readonly generated: readonly string[];
  /** x-read-permission: top-level fields hidden from callers without their code (read, list, resolve). */
  readonly readGuards: readonly ReadGuard[];
  /** x-computed: read-only fields the server produces on a read, in declaration order. */
  readonly computed: readonly ComputedField[];
  /** x-derived: where the writable properties the server produces on every write sit; null if none. */
  readonly derived: DerivedPlan;
  /** Where the type holds values of enumerations (x-enumeration). */
  readonly enumerationPaths: readonly EnumerationPath[];
  /** How the type's records form trees (x-tree), with the root's type; null for other types. */
  readonly tree: TreeShape | null;
  /** The publish routes the type takes (x-publish) and the sub-records a publish reaches; null: no `publish`. */
  readonly publication: PublicationShape | null;
  /** Whether records of the type can be suppressed (x-suppressible), and so are hidden from some callers. */
  readonly suppressible: boolean;
  /** The bundled schema (also served by the schema endpoints). */
  readonly schema: JsonObject;
}

/** x-tree as the service uses it: the settings plus the type of the root record. */
export interface TreeShape extends TreeSettings {
  readonly rootType: string;
}

/** A link field of some type that may point at a given target type. */
export interface IncomingLink {
  readonly type: string;
  readonly refPath: RefPath;
}

/** A top-level property only callers holding `code` may see (x-read-permission). */
export interface ReadGuard {
  readonly field: string;
  readonly code: string;
}

function readGuards(schema: JsonObject): ReadGuard[] {
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const guards: ReadGuard[] = [];
  for (const [field, property] of Object.entries(properties)) {
    const code = isJsonObject(property) ? property["x-read-permission"] : undefined;
    if (typeof code === "string") guards.push({ field, code });
  }
  return guards;
}

function generatedFields(schema: JsonObject): string[] {
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  return Object.entries(properties)
    .filter(([, property]) => isJsonObject(property) && property["x-generated"] !== undefined)
    .map(([name]) => name);
}

/** The one type x-tree.root links to (the generator checked there is exactly one). */
function treeRootType(entry: RecordTypeManifest, refPaths: readonly RefPath[]): string {
  const root = entry.tree?.root;
  const link = refPaths.find((refPath) => refPath.segments[0] === root && refPath.segments.length <= 2);
  const target = link?.targets[0];
  if (target === undefined) throw new SchemaDefinitionError(entry.name, `x-tree.root "${root}" is not a link`);
  return target;
}

/** The one type marked x-scope-holder, checked: global itself, and present if any type is repository-scoped. */
function findScopeHolder(types: readonly RecordType[]): RecordType | undefined {
  const holders = types.filter((type) => type.schema["x-scope-holder"] === true);
  if (holders.length > 1)
    throw new SchemaDefinitionError(
      holders[1]!.name,
      `x-scope-holder: ${holders[0]!.name} already holds the repository-scoped records`,
    );
  const holder = holders[0];
  if (holder !== undefined && holder.scope !== "global")
    throw new SchemaDefinitionError(holder.name, 'x-scope-holder: the holder must itself have x-scope "global"');
  const held = types.find((type) => type.scope === "repository");
  if (holder === undefined && held !== undefined)
    throw new SchemaDefinitionError(
      held.name,
      "a repository-scoped type needs a type with x-scope-holder (the repository) to live in",
    );
  return holder;
}

/**
 * ArchivesSpace's permission codes and those the types declare with x-permission-codes, once
 * every x-permissions code is checked to be one of them: a typo is an error naming its schema.
 */
function checkedPermissionCodes(types: readonly RecordType[]): ReadonlyMap<string, PermissionLevel> {
  const levels = new Map(BUILT_IN_PERMISSION_LEVELS);
  const declaredBy = new Map<string, string>();
  for (const type of types) {
    const declared = type.schema["x-permission-codes"];
    if (!isJsonObject(declared)) continue;
    for (const [code, level] of Object.entries(declared)) {
      if (BUILT_IN_PERMISSION_LEVELS.has(code))
        throw new SchemaDefinitionError(
          type.name,
          `x-permission-codes: ${code} is already one of ArchivesSpace's permission codes`,
        );
      // Several types may share a code (as ArchivesSpace's types share theirs), at one level.
      const ownLevel: PermissionLevel = level === "global" ? "global" : "repository";
      const other = declaredBy.get(code);
      if (other !== undefined && levels.get(code) !== ownLevel) {
        throw new SchemaDefinitionError(
          type.name,
          `x-permission-codes: ${code} is declared by ${other} at the ${levels.get(code)} level`,
        );
      }
      declaredBy.set(code, type.name);
      levels.set(code, ownLevel);
    }
  }
  for (const type of types) {
    for (const [operation, code] of Object.entries(type.permissions)) {
      if (code !== null && !levels.has(code)) {
        throw new SchemaDefinitionError(
          type.name,
          `x-permissions.${operation}: "${code}" is not a permission code (ArchivesSpace's, or one a schema declares in x-permission-codes)`,
        );
      }
    }
    for (const { field, code } of type.readGuards) {
      if (!levels.has(code))
        throw new SchemaDefinitionError(type.name, `x-read-permission on ${field}: "${code}" is not a permission code`);
    }
  }
  return levels;
}

/**
 * Each reciprocal link's targets can show it back: they have the same list, taking items of the same variant
 * reciprocally (a parent-child relationship from a person to a person, a subordinate-superior one between corporate
 * entities).
 */
function checkReciprocalTargets(types: readonly RecordType[], byName: ReadonlyMap<string, RecordType>): void {
  for (const type of types) {
    for (const link of type.reciprocalLinks) {
      for (const targetName of link.targets) {
        const target = byName.get(targetName);
        const back = target?.reciprocalLinks.find(
          (other) => other.property === link.property && other.variant?.value === link.variant?.value,
        );
        if (back === undefined)
          throw new SchemaDefinitionError(
            type.name,
            `x-reciprocal: ${targetName} must take ${link.variant?.value ?? "these"} links back in ${link.property}`,
          );
      }
    }
  }
}

/** `/repositories/2/accessions/5` -> ["2", "/accessions"]; `/agents/people/3` -> [undefined, "/agents/people"]. */
const URI_SHAPE = /^(?:\/repositories\/([1-9][0-9]*))?(\/.+)\/[1-9][0-9]*$/;

function describeType(entry: RecordTypeManifest, pattern: UriPattern): RecordType {
  const indexes = indexesFor(entry);
  const names = indexes.map((index) => index.name);
  const duplicate = names.find((name, i) => names.indexOf(name) !== i);
  if (duplicate !== undefined) throw new SchemaDefinitionError(entry.name, `two indexes would be named ${duplicate}`);
  const refPaths = findRefPaths(entry.schema, entry.name);
  return {
    name: entry.name,
    title: typeof entry.schema.title === "string" ? entry.schema.title : entry.name,
    collection: entry.collection,
    scope: entry.scope,
    uriPrefix: entry.uriPrefix,
    collectionPath: pattern.collectionPath,
    itemPath: pattern.itemPath,
    identifiers: entry.identifiers,
    unique: entry.unique,
    permissions: entry.permissions,
    publicRead: entry.publicRead,
    listUnpaged: entry.listUnpaged,
    inHiddenScope: entry.inHiddenScope,
    writeParameters: entry.writeParameters,
    listFilters: entry.listFilters,
    hiddenIds: entry.hiddenIds,
    findById: entry.findById,
    externalId: entry.externalId,
    search: entry.search,
    exports: entry.exports,
    refPaths,
    reciprocalLinks: findReciprocalLinks(entry.schema, entry.name),
    indexes,
    generated: generatedFields(entry.schema),
    readGuards: readGuards(entry.schema),
    computed: computedFields(entry.schema, entry.name),
    derived: derivedPlan(entry.schema, entry.name),
    enumerationPaths: findEnumerationPaths(entry.schema, entry.name),
    tree: entry.tree === undefined ? null : { ...entry.tree, rootType: treeRootType(entry, refPaths) },
    publication: publicationOf(entry.schema, entry.name),
    suppressible: suppressibleOf(entry.schema, entry.name),
    schema: entry.schema,
  };
}

/**
 * Every link path of every type indexed: what links to a record is looked up by its uri (a delete's restrict, cascade
 * and unlink, merges, transfers, computed fields, exports), and that lookup must be an index range, never a scan of
 * the referring collection (a resource's delete looked up each component's children by `parent.ref`: one scan of
 * every archival object per component). Not prefixed with repo_id: the uri looked for names its repository, and an
 * agent is linked from every repository. Sparse: a record holding none of a path's links has no entry in its index
 * (most records hold few of their type's links), and a lookup by a uri never needs those records.
 */
function withLinkIndexes(types: readonly RecordType[]): RecordType[] {
  return types.map((type) => {
    const added: IndexSpec[] = [];
    for (const { mongoPath } of type.refPaths) {
      const name = `${mongoPath.replaceAll(".", "_")}_link_index`;
      const covered = [...type.indexes, ...added].some(
        (index) => index.name === name || Object.keys(index.keys)[0] === mongoPath,
      );
      if (!covered) added.push({ name, keys: { [mongoPath]: 1 }, unique: false, sparse: true });
    }
    return added.length === 0 ? type : { ...type, indexes: [...type.indexes, ...added] };
  });
}

export class Registry {
  readonly types: readonly RecordType[];
  /**
   * The type whose records hold the repository-scoped ones (x-scope-holder: the repository);
   * undefined in a registry without one (then it has no repository-scoped types).
   */
  readonly scopeHolder: RecordType | undefined;

  /** The scope holder, where the registry must have one (it does whenever a type is repository-scoped). */
  scopeHolderType(): RecordType {
    if (this.scopeHolder === undefined) throw new Error("no record type has x-scope-holder");
    return this.scopeHolder;
  }
  /** Every enumeration the types use, by name, with its seed values. */
  readonly enumerations: ReadonlyMap<string, EnumerationSeed>;
  /**
   * Every permission code x-permissions may name, with its level: ArchivesSpace's and the types' own
   * (x-permission-codes).
   */
  readonly permissionLevels: ReadonlyMap<string, PermissionLevel>;
  private readonly byName = new Map<string, RecordType>();
  private readonly patterns = new Map<string, UriPattern>();
  /** Patterns by scope and URI prefix (`repository:/accessions`, `global:/agents/people`). */
  private readonly byShape = new Map<string, UriPattern>();

  constructor(manifest: RegistryManifest) {
    const types: RecordType[] = [];
    const collections = new Map<string, string>();
    const uris = new Map<string, string>();
    for (const entry of manifest.types) {
      if (this.byName.has(entry.name))
        throw new SchemaDefinitionError(entry.name, "two schemas declare this x-record-type");
      const pattern = new UriPattern(entry.name, entry.scope, entry.uriPrefix);
      const type = describeType(entry, pattern);
      const collectionKey = `${type.scope}:${type.collection}`;
      const sameCollection = collections.get(collectionKey);
      if (sameCollection !== undefined)
        throw new SchemaDefinitionError(
          entry.name,
          `x-collection "${type.collection}" is already used by ${sameCollection}`,
        );
      const sameUri = uris.get(type.itemPath);
      if (sameUri !== undefined)
        throw new SchemaDefinitionError(entry.name, `uri ${type.itemPath} is already used by ${sameUri}`);
      collections.set(collectionKey, entry.name);
      uris.set(type.itemPath, entry.name);
      this.byName.set(entry.name, type);
      this.patterns.set(entry.name, pattern);
      this.byShape.set(`${entry.scope}:${entry.uriPrefix}`, pattern);
      types.push(type);
    }
    this.types = withLinkIndexes(types);
    for (const type of this.types) this.byName.set(type.name, type);
    this.scopeHolder = findScopeHolder(this.types);
    this.enumerations = new Map(enumerationSeeds(this.types).map((seed) => [seed.name, seed]));
    this.permissionLevels = checkedPermissionCodes(this.types);
    checkReciprocalTargets(this.types, this.byName);
    for (const type of this.types) {
      if (type.tree === null) continue;
      const rootType = this.byName.get(type.tree.rootType);
      if (rootType === undefined)
        throw new SchemaDefinitionError(
          type.name,
          `x-tree.root links to ${type.tree.rootType}, which no schema declares`,
        );
      if (rootType.scope !== type.scope)
        throw new SchemaDefinitionError(type.name, `x-tree: the root type ${rootType.name} must have the same scope`);
      const other = this.types.find(
        (candidate) => candidate !== type && candidate.tree?.rootType === type.tree?.rootType,
      );
      if (other !== undefined)
        throw new SchemaDefinitionError(type.name, `${other.name} already forms the trees of ${rootType.name}`);
    }
  }

  /** The type whose records form the trees of `rootType`'s records (resource -> archival_object). */
  treeNodeTypeOf(rootType: string): RecordType | undefined {
    return this.types.find((type) => type.tree?.rootType === rootType);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** @throws UnknownRecordTypeError */
  get(name: string): RecordType {
    const type = this.byName.get(name);
    if (type === undefined) throw new UnknownRecordTypeError(name);
    return type;
  }

  /** The type served under a URL segment, e.g. ("accessions", "repository"). */
  byCollection(segment: string, scope: RecordScope): RecordType | undefined {
    return this.types.find((type) => type.collection === segment && type.scope === scope);
  }

  scopeOf(name: string): RecordScope {
    return this.get(name).scope;
  }

  /** `/repositories/2/accessions/7` or `/users/5`. @throws RangeError when a repository-scoped type gets no repoId */
  uriFor(name: string, id: number, repoId?: number): string {
    const pattern = this.patterns.get(name);
    if (pattern === undefined) throw new UnknownRecordTypeError(name);
    return pattern.format(id, repoId);
  }

  /**
   * Which record a URI names, or undefined when it matches no type's pattern. The URI's shape
   * picks the one candidate pattern (every link, resolve[] site and import ref goes through
   * here); the full scan is only for shapes the lookup does not know.
   */
  parseUri(uri: string): ParsedUri | undefined {
    const shape = URI_SHAPE.exec(uri);
    if (shape !== null) {
      const candidate = this.byShape.get(shape[1] === undefined ? `global:${shape[2]}` : `repository:${shape[2]}`);
      const parsed = candidate?.match(uri);
      if (parsed !== undefined) return parsed;
    }
    for (const pattern of this.patterns.values()) {
      const parsed = pattern.match(uri);
      if (parsed !== undefined) return parsed;
    }
    return undefined;
  }

  /** The item route template of a type, or undefined for a name no schema declares. */
  uriTemplate(name: string): string | undefined {
    return this.byName.get(name)?.itemPath;
  }

  /** The link fields of a type, with their allowed targets and delete rule. */
  refPaths(name: string): readonly RefPath[] {
    return this.get(name).refPaths;
  }

  /** Every link field, in any type, that may point at records of `target` (what a delete must visit). */
  linksTo(target: string): IncomingLink[] {
    return this.types.flatMap((type) =>
      type.refPaths
        .filter((refPath) => refPath.targets.includes(target))
        .map((refPath) => ({ type: type.name, refPath })),
    );
  }

  /** Every enumerated field, in any type, holding values of `enumeration` (what removing a value must visit). */
  enumerationUsers(enumeration: string): { type: string; path: EnumerationPath }[] {
    return this.types.flatMap((type) =>
      type.enumerationPaths
        .filter((path) => path.enumeration === enumeration)
        .map((path) => ({ type: type.name, path })),
    );
  }

  /** The permission code an operation on a type needs; null when it needs none. */
  permission(name: string, operation: RecordOperation): string | null {
    return this.get(name).permissions[operation];
  }

  /** Every permission code any type declares, sorted (e.g. for the administrators group). */
  permissionCodes(): string[] {
    const codes = new Set<string>();
    for (const type of this.types) {
      for (const code of Object.values(type.permissions)) if (code !== null) codes.add(code);
    }
    return [...codes].sort();
  }

  /** Every index the type's collection must have. */
  indexes(name: string): readonly IndexSpec[] {
    return this.get(name).indexes;
  }

  /**
   * The field to name when a write hits a unique index (MongoDB E11000 `keyPattern`), e.g.
   * `id_0` for the identifier index, `ead_id`; undefined when the index is not a user-facing rule.
   */
  uniqueFieldFor(name: string, keyPattern: Readonly<Record<string, unknown>>): string | undefined {
    return indexForKeyPattern(this.get(name).indexes, keyPattern)?.duplicateField;
  }
}
