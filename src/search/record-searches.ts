// The searches ArchivesSpace answers beside the paged one (search.rb, container.rb):
//   /search/records?uri[]=                   the index documents of records named by uri, in the order named
//   /search/record_types_by_repository       how many records of each type each repository holds
//   /repositories/:id/top_containers/search  every matching top container, in Solr's own answer
import type { Actor } from "../auth/actor.js";
import { badRequest } from "../errors/api-error.js";
import type { RecordOperations } from "../records/operations/index.js";
import { GLOBAL_REPOSITORY } from "../records/search/entries.js";
import { searchCollection } from "../records/search/index-writer.js";
import { dictionary } from "../registry/index.js";
import type { FacetCounts } from "./facets.js";
import type { Highlighting } from "./highlight.js";
import { SearchResults, type ResultDocument } from "./results.js";
import type { SearchOperations, SearchPage } from "./search.js";

/** The most top containers one search answers, as ArchivesSpace's max_top_container_results. */
export const TOP_CONTAINERS_MAX = 10_000;
/** The most uris /search/records takes. */
export const RECORDS_MAX = 250;

export interface SolrAnswer {
  responseHeader: { status: 0; QTime: number; params: { q: string } };
  response: { numFound: number; start: 0; docs: ResultDocument[] };
  facet_counts: { facet_queries: Record<string, never>; facet_fields: FacetCounts };
  highlighting: Highlighting;
}

export class RecordSearches {
  private readonly results: SearchResults;

  constructor(
    private readonly operations: RecordOperations,
    private readonly search: SearchOperations,
  ) {
    this.results = new SearchResults(operations);
  }

  /** The documents of the records at `uris` the caller may read, in the order given, as one page. */
  async byUris(uris: readonly string[], actor: Actor): Promise<SearchPage> {
    if (uris.length > RECORDS_MAX) throw badRequest({ "uri[]": [`At most ${RECORDS_MAX} uris, not ${uris.length}`] });
    const index = searchCollection(this.operations.deps.store.connection);
    const found = await index
      .find({ _id: { $in: [...new Set(uris)] } }, { projection: { words: 0, text: 0 } })
      .toArray();
    const byUri = new Map(found.map((entry) => [entry._id, entry]));
    const ordered = uris.flatMap((uri) => byUri.get(uri) ?? []);
    const results = await this.results.documents(ordered, actor);
    const size = Math.max(1, results.length);
    return {
      page_size: size,
      first_page: 1,
      last_page: results.length === 0 ? 0 : 1,
      this_page: 1,
      offset_first: 1,
      offset_last: results.length,
      total_hits: results.length,
      results,
      facets: {
        facet_queries: {},
        facet_fields: dictionary(),
        facet_ranges: {},
        facet_intervals: {},
        facet_heatmaps: {},
      },
    };
  }

  /**
   * How many records of each of `types` each repository holds: `{type: count}` for `repositoryUri`, else
   * `{repository uri: {type: count}}` for every repository holding any. Counted by the store.
   */
  async typeCounts(
    types: readonly string[],
    repositoryUri: string | undefined,
  ): Promise<Record<string, number> | Record<string, Record<string, number>>> {
    const index = searchCollection(this.operations.deps.store.connection);
    const rows = await index
      .aggregate([
        {
          $match: {
            primary_type: { $in: [...types] },
            repository: repositoryUri === undefined ? { $ne: GLOBAL_REPOSITORY } : repositoryUri,
          },
        },
        { $group: { _id: { repository: "$repository", type: "$primary_type" }, count: { $sum: 1 } } },
      ])
      .toArray();
    const counts = dictionary<Record<string, number>>();
    for (const row of rows) {
      const { repository, type } = row._id as { repository: string; type: string };
      const of = counts[repository] ?? dictionary<number>(types.map((name) => [name, 0]));
      of[type] = row.count as number;
      counts[repository] = of;
    }
    if (repositoryUri !== undefined) return counts[repositoryUri] ?? dictionary<number>(types.map((name) => [name, 0]));
    return counts;
  }

  /** A repository's top containers matching `q`, all of them (to TOP_CONTAINERS_MAX), as Solr answers. */
  async topContainers(
    repoId: number,
    q: string | undefined,
    facets: readonly string[],
    actor: Actor,
  ): Promise<SolrAnswer> {
    const started = Date.now();
    const page = await this.search.search(
      {
        repoId,
        ...(q !== undefined && { q }),
        types: ["top_container"],
        facets,
        highlight: true,
        page: 1,
        pageSize: TOP_CONTAINERS_MAX,
      },
      actor,
    );
    return {
      responseHeader: { status: 0, QTime: Date.now() - started, params: { q: q ?? "*:*" } },
      response: { numFound: page.total_hits, start: 0, docs: page.results },
      facet_counts: { facet_queries: {}, facet_fields: page.facets.facet_fields },
      highlighting: page.highlighting ?? dictionary(),
    };
  }
}
