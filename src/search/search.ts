// A search, transport-free: the request's query and filters as one filter over the search index, the caller's
// visibility added, one page of entries in the order asked, each result carrying its record as the caller may read
// it (`json`, as ArchivesSpace's results carry it: a JSON string), in ArchivesSpace's page envelope.
import type { Collection } from "mongodb";
import type { Actor } from "../auth/actor.js";
import { badRequest } from "../errors/api-error.js";
import type { RecordOperations } from "../records/operations/index.js";
import { seesSuppressed } from "../records/operations/suppression.js";
import { GLOBAL_REPOSITORY, type SearchEntry } from "../records/search/entries.js";
import { searchCollection } from "../records/search/index-writer.js";
import { groupUris } from "../records/search/uri-groups.js";
import type { JsonObject, JsonValue } from "../registry/index.js";
import { NONE, QueryCompiler, textFields, type Filter } from "./compile.js";
import { parseQuery, QueryParseError, type QueryNode } from "./query/parser.js";
import { checkFacets, countFacets, facetPaths, type FacetCounts } from "./facets.js";
import { rankedPage, rankedTerms } from "./ranking.js";
import { sortOf } from "./sort.js";

export interface SearchRequest {
  /** A repository's search (its records and the global ones), or every repository's (undefined). */
  repoId?: number;
  q?: string;
  /** Only entries with one of these in `types`. */
  types?: readonly string[];
  /** Lucene queries every result must also match (ArchivesSpace's filter_query[]). */
  filterQueries?: readonly string[];
  /** Uris left out. */
  exclude?: readonly string[];
  sort?: string;
  page: number;
  pageSize: number;
  /** Only these fields of each result. */
  fields?: readonly string[];
  /** Count the matching entries' values of these (facets.ts). */
  facets?: readonly string[];
  /** The least count a facet value is shown with (at least 1). */
  facetMinCount?: number;
}

export interface SearchPage {
  page_size: number;
  first_page: number;
  last_page: number;
  this_page: number;
  offset_first: number;
  offset_last: number;
  total_hits: number;
  results: JsonObject[];
  facets: {
    facet_queries: Record<string, never>;
    facet_fields: FacetCounts;
    facet_ranges: Record<string, never>;
    facet_intervals: Record<string, never>;
    facet_heatmaps: Record<string, never>;
  };
}

/** A query parsed, or a 400 naming the parameter it came from. */
function parsed(parameter: string, q: string): QueryNode {
  try {
    return parseQuery(q);
  } catch (error) {
    if (error instanceof QueryParseError)
      throw badRequest({ [parameter]: [`${error.message} (at character ${error.position + 1})`] });
    throw error;
  }
}

export class SearchOperations {
  private readonly compiler: QueryCompiler;
  private readonly facetPaths: ReadonlyMap<string, string>;

  constructor(private readonly operations: RecordOperations) {
    this.compiler = new QueryCompiler(textFields(operations.deps.registry));
    this.facetPaths = facetPaths(operations.deps.registry);
  }

  private get registry() {
    return this.operations.deps.registry;
  }

  /**
   * The filter of a request for `actor` (its query, its filters and what the actor may see), and the terms its
   * query ranks by.
   */
  private filterOf(request: SearchRequest, actor: Actor): { filter: Filter; terms: Set<string> } {
    const query = parsed("q", request.q ?? "*:*");
    const clauses: Filter[] = [this.compiler.compile(query)];
    for (const text of request.filterQueries ?? []) clauses.push(this.compiler.compile(parsed("filter_query[]", text)));
    if (request.types !== undefined) clauses.push({ types: { $in: [...request.types] } });
    if (request.exclude !== undefined && request.exclude.length > 0)
      clauses.push({ _id: { $nin: [...request.exclude] } });
    if (request.repoId !== undefined) {
      const holder = this.registry.scopeHolderType().name;
      clauses.push({ repository: { $in: [this.registry.uriFor(holder, request.repoId), GLOBAL_REPOSITORY] } });
      // As ArchivesSpace: a repository's search hides suppressed records from who may not see them.
      if (!seesSuppressed(actor, request.repoId)) clauses.push({ suppressed: false });
    }
    const meaningful = clauses.filter((clause) => Object.keys(clause).length > 0);
    const terms = rankedTerms(query);
    if (meaningful.some((clause) => clause === NONE)) return { filter: NONE, terms };
    const filter =
      meaningful.length === 0 ? {} : meaningful.length === 1 ? (meaningful[0] as Filter) : { $and: meaningful };
    return { filter, terms };
  }

  /** One page of the matching entries, in the order asked. */
  private async page(
    index: Collection<SearchEntry>,
    filter: Filter,
    total: number,
    terms: ReadonlySet<string>,
    request: SearchRequest,
  ): Promise<SearchEntry[]> {
    const order = sortOf(request.sort);
    const skip = (request.page - 1) * request.pageSize;
    const shown = { projection: { words: 0, text: 0, boosted: 0 } };
    if (order.relevance) {
      const uris = await rankedPage(index, filter, total, terms, skip, request.pageSize);
      const found = await index.find({ _id: { $in: uris } }, shown).toArray();
      const byUri = new Map(found.map((entry) => [entry._id, entry]));
      return uris.flatMap((uri) => byUri.get(uri) ?? []);
    }
    const sort = Object.fromEntries(order.keys.map(({ field, direction }) => [field, direction]));
    return index.find(filter, shown).sort(sort).skip(skip).limit(request.pageSize).toArray();
  }

  async search(request: SearchRequest, actor: Actor): Promise<SearchPage> {
    const { filter, terms } = this.filterOf(request, actor);
    const facets = request.facets ?? [];
    checkFacets(this.facetPaths, facets);
    const index = searchCollection(this.operations.deps.store.connection);
    const skip = (request.page - 1) * request.pageSize;
    const total = await index.countDocuments(filter);
    const [facetFields, entries] = await Promise.all([
      countFacets(index, this.facetPaths, filter, facets, request.facetMinCount ?? 1),
      this.page(index, filter, total, terms, request),
    ]);
    const records = await this.recordsOf(entries, actor);
    const results = entries.flatMap((entry) => {
      const record = records.get(entry._id);
      // A record the caller may not read (its type's permission) is not shown, though counted.
      return record === undefined ? [] : [this.result(entry, record, request.fields)];
    });
    const lastPage = Math.ceil(total / request.pageSize);
    return {
      page_size: request.pageSize,
      first_page: 1,
      last_page: lastPage,
      this_page: request.page,
      offset_first: skip + 1,
      offset_last: Math.min(skip + request.pageSize, total),
      total_hits: total,
      results,
      facets: {
        facet_queries: {},
        facet_fields: facetFields,
        facet_ranges: {},
        facet_intervals: {},
        facet_heatmaps: {},
      },
    };
  }

  /** The page's records as `actor` may read them, by uri: one id-set read per type and repository. */
  private async recordsOf(entries: readonly SearchEntry[], actor: Actor): Promise<Map<string, JsonObject>> {
    const records = new Map<string, JsonObject>();
    for (const { type, repoId, ids } of groupUris(
      this.registry,
      entries.map((entry) => entry._id),
    )) {
      let found: unknown;
      try {
        found = await this.operations.list(type.name, { repoId }, { mode: { kind: "idSet", ids } }, actor);
      } catch {
        continue; // a type the caller may not read: its entries are left out of the page
      }
      for (const record of Array.isArray(found) ? (found as JsonObject[]) : [])
        if (typeof record.uri === "string") records.set(record.uri, record);
    }
    return records;
  }

  /** One result, shaped as ArchivesSpace's index documents. */
  private result(entry: SearchEntry, record: JsonObject, fields: readonly string[] | undefined): JsonObject {
    const document: Record<string, JsonValue> = {
      id: entry._id,
      uri: entry._id,
      title: entry.title,
      primary_type: entry.primary_type,
      types: entry.types,
      json: JSON.stringify(record),
      repository: entry.repository,
      publish: entry.publish,
      suppressed: entry.suppressed,
      system_generated: false,
      jsonmodel_type: entry.primary_type,
    };
    if (entry.identifier !== null) document.identifier = entry.identifier;
    for (const key of ["level", "create_time", "system_mtime", "user_mtime", "created_by", "last_modified_by"]) {
      const value = record[key];
      if (value !== undefined && value !== null) document[key] = value;
    }
    if (fields === undefined) return document;
    return Object.fromEntries(Object.entries(document).filter(([key]) => fields.includes(key)));
  }
}
