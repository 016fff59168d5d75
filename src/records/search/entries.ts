// One search index entry per searchable record (a type whose schema says x-search), built from the record as an
// anonymous caller would be shown it (computed titles and display strings included; fields behind a read
// permission, such as an agent's contacts, left out, so search never shows them). An entry holds what a query
// filters, sorts and facets on, and `words`: every analysed term of every search field, as `field:term` (and under
// `keyword`, the field every unqualified term searches), which one multikey index serves. `text` keeps each field's
// terms in order, for phrases.
import { ANONYMOUS } from "../../auth/actor.js";
import { shapeRecord } from "../operations/shape.js";
import {
  dictionary,
  type JsonObject,
  type JsonValue,
  type RecordType,
  type Registry,
  type SearchSettings,
} from "../../registry/index.js";
import type { StoredRecord } from "../../storage/record-store.js";
import { analyze, fold } from "./analysis.js";

export const SEARCH_COLLECTION = "arca_search";

/** The field every unqualified term is looked up in: all of a record's text. */
export const KEYWORD = "keyword";
/** Where the text of the entry's title and identifier is searched, beside the type's own fields. */
export const TITLE = "title";
export const IDENTIFIER = "identifier";

/** The repository of a global record, as ArchivesSpace's index names it. */
export const GLOBAL_REPOSITORY = "global";

/** Text beyond this many characters of one record is not indexed (a bound on an entry's size). */
const MAX_TEXT = 200_000;

export interface SearchEntry {
  /** The record's uri. */
  _id: string;
  primary_type: string;
  /** The record's id (numbered within its type, and within its repository for a repository's records). */
  record_id: number;
  types: string[];
  /** The repository's uri, or "global". */
  repository: string;
  title: string;
  /** The title folded (case and diacritics), for sorting. */
  title_sort: string;
  identifier: string | null;
  publish: boolean;
  suppressed: boolean;
  create_time: unknown;
  system_mtime: unknown;
  user_mtime: unknown;
  created_by: unknown;
  last_modified_by: unknown;
  words: string[];
  /** The title's and identifier's words (`title:paper`, `identifier:ms-42`): what relevance weighs above the rest. */
  boosted: string[];
  /** How many terms the title has (a match in a short title counts for more). */
  title_length: number;
  /** A tree node's root record (a component's resource or digital object): what `root_record` narrows to. */
  root_record: string | null;
  /** The records whose titles the entry holds (its links' targets): their entries' changes rewrite this one. */
  links: string[];
  /** Per facet field (x-search.facets), its values as shown (a link's: the linked record's title). */
  facets: Record<string, string[]>;
  /**
   * Per field (not keyword): its terms in order, space-separated and space-bounded (` a b c `), for phrase matching.
   */
  text: Record<string, string>;
}

/** Facets every entry has, and where. */
const ENTRY_FACETS = new Map<string, string>([
  ["primary_type", "primary_type"],
  ["types", "types"],
  ["repository", "repository"],
  ["publish", "publish"],
  ["suppressed", "suppressed"],
  ["created_by", "created_by"],
  ["last_modified_by", "last_modified_by"],
]);

/** Every facet name a search may ask for (the entry's own, and each type's x-search facets), and its path. */
export function facetPaths(registry: Registry): Map<string, string> {
  const paths = new Map(ENTRY_FACETS);
  for (const type of registry.types) for (const facet of type.search?.facets ?? []) paths.set(facet, `facets.${facet}`);
  return paths;
}

/** Keys whose values are machinery, not text anyone searches for. */
const NOT_TEXT = new Set(["jsonmodel_type", "uri", "ref", "persistent_id", "lock_version", "repository"]);
/** EAD markup inside notes (`<emph render="italic">`): its names and attributes are not words of the text. */
const MARKUP = /<[^<>]{0,500}>/g;

function collectText(value: JsonValue | undefined, out: string[]): void {
  if (typeof value === "string") out.push(value.replace(MARKUP, " "));
  else if (typeof value === "number") out.push(String(value));
  else if (Array.isArray(value)) for (const item of value) collectText(item, out);
  else if (value !== null && typeof value === "object")
    for (const [key, item] of Object.entries(value)) if (!NOT_TEXT.has(key)) collectText(item, out);
}

/** `*[role=creator]`: the items of a list whose `role` is `creator`. */
const ITEMS_WHERE = /^\*\[([a-z_][a-z0-9_]*)=([a-z0-9_]+)\]$/;

function itemsOf(value: JsonValue, segment: string): JsonValue[] {
  if (!Array.isArray(value)) return [];
  if (segment === "*") return value;
  const [, key = "", wanted] = ITEMS_WHERE.exec(segment) ?? [];
  return value.filter(
    (item) =>
      item !== null &&
      typeof item === "object" &&
      !Array.isArray(item) &&
      Object.hasOwn(item, key) &&
      item[key] === wanted,
  );
}

/** Every text at or below a slash path (`*`: each item of a list; `*[key=value]`: those items where key is value). */
export function textAt(record: JsonObject, path: string): string[] {
  let current: JsonValue[] = [record];
  for (const segment of path.split("/")) {
    const next: JsonValue[] = [];
    for (const value of current) {
      if (segment.startsWith("*")) next.push(...itemsOf(value, segment));
      else if (value !== null && typeof value === "object" && !Array.isArray(value)) {
        const child = Object.hasOwn(value, segment) ? (value as JsonObject)[segment] : undefined;
        if (child !== undefined) next.push(child);
      }
    }
    current = next;
  }
  const out: string[] = [];
  for (const value of current) collectText(value, out);
  return out;
}

function firstText(record: JsonObject, paths: readonly string[]): string | undefined {
  for (const path of paths) {
    const found = textAt(record, path).find((text) => text.trim() !== "");
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The record's identifier as ArchivesSpace shows it: its x-identifiers parts joined by "-", or its declared one. */
function identifierOf(type: RecordType, search: SearchSettings, record: JsonObject): string | null {
  if (type.identifiers !== null) {
    const parts = type.identifiers.fields.map((field) => record[field]).filter((part) => typeof part === "string");
    return parts.length === 0 ? null : parts.join("-");
  }
  const declared = search.fields.find((field) => field.name === IDENTIFIER);
  const texts = declared === undefined ? [] : declared.paths.flatMap((path) => textAt(record, path));
  return texts.length === 0 ? null : texts.join(" ");
}

/** The repository an entry belongs to: its record's, or the repository itself, or for other global records none. */
function repositoryOf(registry: Registry, type: RecordType, stored: StoredRecord, uri: string): string {
  const holder = registry.scopeHolderType();
  if (stored.repo_id !== undefined) return registry.uriFor(holder.name, stored.repo_id);
  return type.name === holder.name ? uri : GLOBAL_REPOSITORY;
}

function rootOf(type: RecordType, record: JsonObject): string | null {
  const link = type.tree ? record[type.tree.root] : undefined;
  const ref = link !== null && typeof link === "object" && !Array.isArray(link) ? (link as JsonObject).ref : undefined;
  return typeof ref === "string" ? ref : null;
}

/** Adds one field's text to the entry's words and phrase text. */
function addField(entry: SearchEntry, field: string, texts: readonly string[]): void {
  const joined = texts.join(" \n ").slice(0, MAX_TEXT);
  if (joined.trim() === "") return;
  const { terms, whole } = analyze(joined);
  const words = new Set(entry.words);
  for (const term of [...terms, ...whole]) {
    words.add(`${field}:${term}`);
    words.add(`${KEYWORD}:${term}`);
  }
  entry.words = [...words];
  // Fields are kept apart, and each text of a field on its own line, so a phrase never spans two. (A phrase in
  // any field looks in each: keyword's text would be a second copy of them all.)
  const line = ` ${terms.join(" ")} `;
  const before = Object.hasOwn(entry.text, field) ? entry.text[field] : undefined;
  entry.text[field] = before === undefined ? line : `${before}\n${line}`;
}

/** The record as its index entry is built from: as an anonymous caller is shown it (guarded fields left out). */
export function indexedView(registry: Registry, type: RecordType, stored: StoredRecord): JsonObject {
  return shapeRecord(registry, type, stored, ANONYMOUS);
}

/** The title of a record of a searchable type, as its entry (and search results) show it. */
export function titleOf(type: RecordType, view: JsonObject): string | undefined {
  return type.search === null ? undefined : firstText(view, type.search.title);
}

/** The uris of records of searchable types the view's search fields name (whose titles its entry will hold). */
export function linkedUris(registry: Registry, type: RecordType, view: JsonObject): string[] {
  const uris = new Set<string>();
  for (const field of type.search?.fields ?? [])
    for (const text of field.paths.flatMap((path) => textAt(view, path))) if (isLink(registry, text)) uris.add(text);
  return [...uris];
}

function isLink(registry: Registry, text: string): boolean {
  const parsed = text.startsWith("/") ? registry.parseUri(text) : undefined;
  return parsed !== undefined && registry.has(parsed.type) && registry.get(parsed.type).search !== null;
}

/**
 * The index entry of a stored record of a searchable type, from its indexed view; `titles`: the titles of the
 * records it links (linkedUris), a link whose record is not there being left out.
 */
export function searchEntry(
  registry: Registry,
  type: RecordType,
  stored: StoredRecord,
  record: JsonObject,
  titles: ReadonlyMap<string, string>,
): SearchEntry {
  const search = type.search;
  if (search === null) throw new Error(`${type.name} is not searchable (no x-search)`);
  const uri = registry.uriFor(type.name, stored.id, stored.repo_id);
  const title = firstText(record, search.title) ?? uri;
  const identifier = identifierOf(type, search, record);
  const entry: SearchEntry = {
    _id: uri,
    primary_type: type.name,
    record_id: stored.id,
    types: [type.name, ...search.types],
    repository: repositoryOf(registry, type, stored, uri),
    title,
    title_sort: fold(title),
    identifier,
    publish: record.publish === true,
    suppressed: stored.suppressed === true,
    create_time: stored.create_time ?? null,
    system_mtime: stored.system_mtime ?? null,
    user_mtime: stored.user_mtime ?? null,
    created_by: stored.created_by ?? null,
    last_modified_by: stored.last_modified_by ?? null,
    words: [],
    boosted: [],
    title_length: analyze(title).terms.length,
    root_record: rootOf(type, record),
    links: [],
    facets: dictionary(),
    text: dictionary(),
  };
  addField(entry, TITLE, [title]);
  if (identifier !== null) addField(entry, IDENTIFIER, [identifier]);
  entry.boosted = entry.words.filter((word) => word.startsWith(`${TITLE}:`) || word.startsWith(`${IDENTIFIER}:`));
  const links = new Set<string>();
  for (const field of search.fields) {
    if (field.name === IDENTIFIER) continue;
    const texts: string[] = [];
    for (const text of field.paths.flatMap((path) => textAt(record, path))) {
      if (!isLink(registry, text)) texts.push(text);
      else {
        const title = titles.get(text);
        links.add(text);
        if (title !== undefined) texts.push(title);
      }
    }
    addField(entry, field.name, texts);
    if (search.facets.includes(field.name)) entry.facets[field.name] = [...new Set(texts)];
  }
  entry.links = [...links];
  return entry;
}
