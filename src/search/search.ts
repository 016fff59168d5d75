// A search, transport-free: the request's query and filters as one filter over the search index, the caller's
// visibility added, one page of entries in the order asked, each result carrying its record as the caller may read
// it (`json`, as ArchivesSpace's results carry it: a JSON string), in ArchivesSpace's page envelope.
import type { Collection } from "mongodb";
import type { Actor } from "../auth/actor.js";
import { badRequest } from "../errors/api-error.js";
import type { RecordOperations } from "../records/operations/index.js";
import { seesSuppressed } from "../records/operations/suppression.js";
import { facetPaths, GLOBAL_REPOSITORY, KEYWORD, type SearchEntry } from "../records/search/entries.js";
import { searchCollection } from "../records/search/index-writer.js";
import { NONE, QueryCompiler, QueryFieldError, textFields, type Filter } from "./compile.js";
import { AdvancedQueryError, parseAdvancedQuery } from "./query/advanced.js";
import { parseQuery, QueryParseError, type QueryNode } from "./query/parser.js";
import { checkFacets, countFacets, type FacetCounts } from "./facets.js";
import { highlighting, type Highlighting } from "./highlight.js";
import { rankedPage, rankedTerms } from "./ranking.js";
import { resolveResults } from "./search-resolve.js";
import { resultDocument, SearchResults, type ResultDocument } from "./results.js";
import { sortOf } from "./sort.js";
import { TermCounts } from "./term-counts.js";

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

/** A request's query, and the parameter it came from. */
interface RequestQuery {
  query: QueryNode;
  from: string;
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
  private compiled(parameter: string, node: QueryNode, counts?: TermCounts): Filter {
    try {
      return this.compiler.compile(node, counts === undefined ? undefined : (key) => counts.of(key));
    } catch (error) {
      if (error instanceof QueryFieldError) throw badRequest({ [parameter]: [error.message] });
      throw error;
    }
  }

  /** The request's query (q when given, else the advanced query, else everything, as ArchivesSpace) and its name. */
  private queryOf(request: SearchRequest): RequestQuery {
    if (request.q === undefined && request.aq !== undefined)
      return { query: parsedAdvanced("aq", request.aq, false), from: "aq" };
    return { query: parsed("q", request.q ?? "*:*"), from: "q" };
  }

  /**
   * The repository and suppression a request's caller searches: a repository's search its records and the global
   * ones, its suppressed records only for who may see them (as ArchivesSpace); every repository's, all.
   */
  private scopeOf(request: SearchRequest, actor: Actor): Filter {
    if (request.repoId === undefined) return {};
    const holder = this.registry.scopeHolderType().name;
    return {
      repository: { $in: [this.registry.uriFor(holder, request.repoId), GLOBAL_REPOSITORY] },
      suppressed: seesSuppressed(actor, request.repoId) ? { $in: [false, true] } : false,
    };
  }

  /** The filter of a request: its query (anchored on its rarest required term), its filters and its scope. */
  private filterOf(request: SearchRequest, query: RequestQuery, scope: Filter, counts: TermCounts): Filter {
    const clauses: Filter[] = [this.compiled(query.from, query.query, counts)];
    for (const text of request.filterQueries ?? [])
      clauses.push(this.compiled("filter_query[]", parsed("filter_query[]", text)));
    // The filter parameter's values are literal, as ArchivesSpace builds it (use_literal).
    if (request.filter !== undefined)
      clauses.push(this.compiled("filter", parsedAdvanced("filter", request.filter, true)));
    if (request.types !== undefined) clauses.push({ types: { $in: [...request.types] } });
    if (request.rootRecord !== undefined) clauses.push({ root_record: request.rootRecord });
    if (request.exclude !== undefined && request.exclude.length > 0)
      clauses.push({ _id: { $nin: [...request.exclude] } });
    clauses.push(scope);
    const meaningful = clauses.filter((clause) => Object.keys(clause).length > 0);
    if (meaningful.some((clause) => clause === NONE)) return NONE;
    return meaningful.length === 0 ? {} : meaningful.length === 1 ? (meaningful[0] as Filter) : { $and: meaningful };
  }

  /** How many entries match, and one page of them in the order asked. */
  private async page(
    index: Collection<SearchEntry>,
    filter: Filter,
    terms: ReadonlySet<string>,
    counts: TermCounts,
    request: SearchRequest,
  ): Promise<{ total: number; entries: SearchEntry[] }> {
    const order = sortOf(request.sort);
    const skip = (request.page - 1) * request.pageSize;
    const shown = { projection: { words: 0, text: 0, boosted: 0 } as const };
    if (order.relevance) return rankedPage(index, filter, terms, counts, skip, request.pageSize, shown.projection);
    const sort = Object.fromEntries(order.keys.map(({ field, direction }) => [field, direction]));
    const [total, entries] = await Promise.all([
      index.countDocuments(filter),
      index.find(filter, shown).sort(sort).skip(skip).limit(request.pageSize).toArray(),
    ]);
    return { total, entries };
  }

  async search(request: SearchRequest, actor: Actor): Promise<SearchPage> {
    const query = this.queryOf(request);
    const facets = request.facets ?? [];
    checkFacets(this.facetPaths, facets);
    const index = searchCollection(this.operations.deps.store.connection);
    const scope = this.scopeOf(request, actor);
    const terms = rankedTerms(query.query);
    // Counted before compiling: the rarest required term anchors the query, and each term's count weighs it.
    const counts = await TermCounts.of(index, scope, [
      ...[...terms].map((term) => `${KEYWORD}:${term}`),
      ...this.compiler.anchorKeys(query.query),
    ]);
    const filter = this.filterOf(request, query, scope, counts);
    const skip = (request.page - 1) * request.pageSize;
    const [facetFields, { total, entries }] = await Promise.all([
      countFacets(index, this.facetPaths, filter, facets, request.facetMinCount ?? 1),
      this.page(index, filter, terms, counts, request),
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
