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
import { NONE, QueryCompiler, QueryFieldError, textFields, type Filter } from "./compile.js";
import { AdvancedQueryError, parseAdvancedQuery } from "./query/advanced.js";
import { parseQuery, QueryParseError, type QueryNode } from "./query/parser.js";
import { checkFacets, countFacets, facetPaths, type FacetCounts } from "./facets.js";
import { highlighting, type Highlighting } from "./highlight.js";
import { rankedPage, rankedTerms } from "./ranking.js";
import { resolveResults } from "./search-resolve.js";
import { resultDocument, SearchResults, type ResultDocument } from "./results.js";
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
  /** Only the components of this tree (a resource's or digital object's uri). */
  rootRecord?: string;
  /** Snippets of the text that matched (highlight.ts). */
  highlight?: boolean;
  /** ArchivesSpace's advanced query JSON (query/advanced.ts), used when there is no `q`. */
  aq?: string;
  /** An advanced query JSON every result must also match, its values taken literally. */
  filter?: string;
  /** Search-style resolve[] sources (search-resolve.ts). */
  resolve?: readonly string[];
}

export interface SearchPage {
  page_size: number;
  first_page: number;
  last_page: number;
  this_page: number;
  offset_first: number;
  offset_last: number;
  total_hits: number;
  results: ResultDocument[];
  /** With hl=true. */
  highlighting?: Highlighting;
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

/** An advanced query (aq, filter) parsed, or a 400 naming the parameter and where in it the problem is. */
function parsedAdvanced(parameter: string, json: string, literal: boolean): QueryNode {
  try {
    return parseAdvancedQuery(json, { literal });
  } catch (error) {
    if (error instanceof AdvancedQueryError)
      throw badRequest({ [parameter]: [error.path === "" ? error.message : `${error.path}: ${error.message}`] });
    throw error;
  }
}

export class SearchOperations {
  private readonly compiler: QueryCompiler;
  private readonly facetPaths: ReadonlyMap<string, string>;
  private readonly results: SearchResults;

  constructor(private readonly operations: RecordOperations) {
    this.results = new SearchResults(operations);
    this.compiler = new QueryCompiler(textFields(operations.deps.registry));
    this.facetPaths = facetPaths(operations.deps.registry);
  }

  private get registry() {
    return this.operations.deps.registry;
  }

  /** A parsed query's filter, or a 400 naming the parameter when it names a field that does not exist. */
  private compiled(parameter: string, node: QueryNode): Filter {
    try {
      return this.compiler.compile(node);
    } catch (error) {
      if (error instanceof QueryFieldError) throw badRequest({ [parameter]: [error.message] });
      throw error;
    }
  }

  /**
   * The filter of a request for `actor` (its query, its filters and what the actor may see), and the terms its
   * query ranks by.
   */
  private filterOf(request: SearchRequest, actor: Actor): { filter: Filter; terms: Set<string> } {
    // As ArchivesSpace: q when given, else the advanced query, else everything.
    const [query, queryFrom] =
      request.q === undefined && request.aq !== undefined
        ? [parsedAdvanced("aq", request.aq, false), "aq"]
        : [parsed("q", request.q ?? "*:*"), "q"];
    const clauses: Filter[] = [this.compiled(queryFrom, query)];
    for (const text of request.filterQueries ?? [])
      clauses.push(this.compiled("filter_query[]", parsed("filter_query[]", text)));
    // The filter parameter's values are literal, as ArchivesSpace builds it (use_literal).
    if (request.filter !== undefined)
      clauses.push(this.compiled("filter", parsedAdvanced("filter", request.filter, true)));
    if (request.types !== undefined) clauses.push({ types: { $in: [...request.types] } });
    if (request.rootRecord !== undefined) clauses.push({ root_record: request.rootRecord });
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
  /** How many entries match, and one page of them in the order asked. */
  private async page(
    index: Collection<SearchEntry>,
    filter: Filter,
    terms: ReadonlySet<string>,
    request: SearchRequest,
  ): Promise<{ total: number; entries: SearchEntry[] }> {
    const order = sortOf(request.sort);
    const skip = (request.page - 1) * request.pageSize;
    const shown = { projection: { words: 0, text: 0, boosted: 0 } };
    if (order.relevance) {
      const { total, uris } = await rankedPage(index, filter, terms, skip, request.pageSize);
      const found = await index.find({ _id: { $in: uris } }, shown).toArray();
      const byUri = new Map(found.map((entry) => [entry._id, entry]));
      return { total, entries: uris.flatMap((uri) => byUri.get(uri) ?? []) };
    }
    const sort = Object.fromEntries(order.keys.map(({ field, direction }) => [field, direction]));
    const [total, entries] = await Promise.all([
      index.countDocuments(filter),
      index.find(filter, shown).sort(sort).skip(skip).limit(request.pageSize).toArray(),
    ]);
    return { total, entries };
  }

  async search(request: SearchRequest, actor: Actor): Promise<SearchPage> {
    const { filter, terms } = this.filterOf(request, actor);
    const facets = request.facets ?? [];
    checkFacets(this.facetPaths, facets);
    const index = searchCollection(this.operations.deps.store.connection);
    const skip = (request.page - 1) * request.pageSize;
    const [facetFields, { total, entries }] = await Promise.all([
      countFacets(index, this.facetPaths, filter, facets, request.facetMinCount ?? 1),
      this.page(index, filter, terms, request),
    ]);
    // A record the caller may not read (its type's permission) is not shown, though counted.
    const found = await this.results.read(entries, actor);
    const results = found.map(({ entry, record }) => resultDocument(entry, record, request.fields));
    if (request.resolve !== undefined) await resolveResults(index, this.results, results, request.resolve, actor);
    const highlights =
      request.highlight === true
        ? {
            highlighting: highlighting(
              this.registry,
              found.map(({ entry, record }) => ({
                uri: entry._id,
                type: entry.primary_type,
                title: entry.title,
                record,
              })),
              terms,
            ),
          }
        : {};
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
      ...highlights,
    };
  }
}
