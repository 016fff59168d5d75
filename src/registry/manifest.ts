// The shape of generated/registry.ts: per record type, its x- settings (already checked by
// the generator) and its schema with every $ref bundled into $defs, so nothing is read from
// disk at run time.
import type { JsonObject } from "./json.js";

export type RecordScope = "repository" | "global";
export type RecordOperation = "read" | "create" | "update" | "delete";
export type OnTargetDelete = "remove" | "cascade" | "restrict";
/** x-on-transfer on a link: what moving the record holding it to another repository does to its target. */
export type OnTransfer = "move" | "move-or-copy";
/** x-on-target-transfer on a link: what moving its target to another repository does to the record holding it. */
export type OnTargetTransfer = "split";
export type IndexDirection = 1 | -1;

/** The x-find-by-id name that stands for the 4-part identifier (x-identifiers), given as a JSON array. */
export const FIND_BY_IDENTIFIER = "identifier";

/** x-identifiers: the 4-part identifier (docs/api.md §10). */
export interface IdentifierSettings {
  readonly fields: readonly string[];
  readonly scope: RecordScope;
}

/**
 * One entry of x-unique. `within`: fields that scope the rule (an archival object's ref_id is
 * unique within its `resource.ref`); a duplicate is reported on `fields`, never on them.
 * `sparse`: records without the field are not indexed (may repeat).
 */
export interface UniqueSettings {
  readonly fields: readonly string[];
  readonly within: readonly string[];
  readonly scope: RecordScope;
  readonly sparse: boolean;
}

/** One entry of x-indexes. */
export interface ExtraIndexSettings {
  readonly fields: Readonly<Record<string, IndexDirection>>;
}

/**
 * x-tree: records of this type form ordered trees under a root record of another type
 * (archival objects under a resource, components under a digital object).
 */
export interface TreeSettings {
  /** The link property naming the root record, e.g. "resource". */
  readonly root: string;
  /** The link property naming the parent node, absent at the top of the tree, e.g. "parent". */
  readonly parent: string;
  /** The integer property holding the node's place among its siblings (0-based, kept dense). */
  readonly position: string;
  /** Fields tried in order for a node's title in tree views. */
  readonly label: readonly string[];
  /** Fields copied into tree views when present (e.g. level). */
  readonly summary: readonly string[];
}

/**
 * x-permissions: the code each operation needs; null means any logged-in user may (docs/api.md §2:
 * only what x-public-read opens is readable without a session).
 */
export type PermissionSettings = Readonly<Record<RecordOperation, string | null>>;

/** Whether a write takes a parameter: it must be given, it may be, or (absent) it is not read. */
export type ParameterUse = "required" | "optional";

/**
 * x-write-parameters: a value a create or an update takes beside the record, from the query
 * string or a form body, handed to the type's hooks (a user's password, which no record holds).
 */
export interface WriteParameterSettings {
  readonly name: string;
  readonly create?: ParameterUse;
  readonly update?: ParameterUse;
  /** `"array": true`: a list, sent as `name[]=a&name[]=b` (a user's groups); otherwise one text value. */
  readonly array?: true;
  readonly description: string;
}

export interface RecordTypeManifest {
  /** x-record-type: the jsonmodel_type name. */
  readonly name: string;
  /** x-collection: URL segment and MongoDB collection name. */
  readonly collection: string;
  readonly scope: RecordScope;
  /** x-uri-prefix, default `/<collection>`; repository-scoped types get it after `/repositories/:repo_id`. */
  readonly uriPrefix: string;
  readonly identifiers: IdentifierSettings | null;
  readonly unique: readonly UniqueSettings[];
  readonly permissions: PermissionSettings;
  /** x-public-read: records of the type can be read and listed without a session (repositories). */
  readonly publicRead: boolean;
  /**
   * x-list-unpaged: a list without page, id_set or all_ids answers every record as a bare array
   * (ArchivesSpace's unpaged listings: repositories, vocabularies), bounded as any list is.
   */
  readonly listUnpaged: boolean;
  /**
   * x-in-hidden-scope: records of the type may be written into a hidden repository (x-hidden-ids
   * of the scope holder: the global repository, whose groups grant permissions everywhere). Other
   * repository-scoped types are refused there, whoever writes.
   */
  readonly inHiddenScope: boolean;
  /** x-write-parameters, in declaration order (none: `[]`). */
  readonly writeParameters: readonly WriteParameterSettings[];
  /**
   * x-list-filters: top-level text fields a list may be narrowed by, `field=value` (a group by
   * its group_code, as ArchivesSpace lists them).
   */
  readonly listFilters: readonly string[];
  /**
   * x-hidden-ids: records the API never serves (read, listed, changed or deleted: 404), though
   * they exist for the server's own use (the hidden global repository, id 1).
   */
  readonly hiddenIds: readonly number[];
  readonly indexes: readonly ExtraIndexSettings[];
  /**
   * x-find-by-id: the parameters of `GET /repositories/:repo_id/find_by_id/<collection>` (ArchivesSpace's lookups),
   * each a top-level text property matched as given, or `identifier`: the x-identifiers parts as a JSON array. None:
   * the type has no such route. Each gets an index (indexes.ts), so a lookup never scans.
   */
  readonly findById: readonly string[];
  /**
   * x-external-id: the dotted path of the type's external ids (`external_ids.external_id`), which
   * `GET /by-external-id` looks up in every repository, through an index on it; null when the type has none.
   */
  readonly externalId: string | null;
  /** x-search: what the type's records contribute to the search index; null: they are not searchable. */
  readonly search: SearchSettings | null;
  /**
   * x-exports: the formats the type's records are exported in (src/exporters/formats.ts names them), each served at
   * `/repositories/:repo_id/<path>/:id.<extension>` with its `…/:id.:fmt/metadata` (the file name and media type).
   */
  readonly exports: readonly ExportSettings[];
  /** x-tree, when the type's records form trees (absent otherwise). */
  readonly tree?: TreeSettings;
  /** The bundled draft 2020-12 schema (x- keywords kept: the validator reads some of them). */
  readonly schema: JsonObject;
}

/** One search field (x-search.fields): its name in queries and where its text is, over the record as shown. */
/** One export of a type's records (x-exports). */
export interface ExportSettings {
  /** The export format's name (src/exporters/formats.ts): `ead`, `marc21`, `eac_cpf`, `mods`, ... */
  readonly format: string;
  /** The route's segments between `/repositories/:repo_id/` and `/:id.<extension>`, e.g. `resources/marc21`. */
  readonly path: string;
  /** Dotted paths into the record whose values, joined by `separator`, name the exported file. */
  readonly filename: { readonly fields: readonly string[]; readonly separator: string };
}

export interface SearchFieldSettings {
  readonly name: string;
  /**
   * Slash paths (`*` for every item of a list, `*[role=creator]` for those whose property has that value); every text
   * at or below each is the field's text, and a link's uri stands for the linked record's title.
   */
  readonly paths: readonly string[];
}

/** x-search: how a type's records are indexed for search (src/search/). */
export interface SearchSettings {
  /** Slash paths over the record as shown: the first holding text is the result's title. */
  readonly title: readonly string[];
  readonly fields: readonly SearchFieldSettings[];
  /** Names the records are also found by in `types` besides their own (agents: `agent`). */
  readonly types: readonly string[];
  /** Fields (of `fields`) whose values `facet[]` counts. */
  readonly facets: readonly string[];
}

export interface RegistryManifest {
  readonly types: readonly RecordTypeManifest[];
}
