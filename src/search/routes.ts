// ArchivesSpace's search endpoints (backend search.rb), GET and POST alike (a POST's form body holds the same
// parameters):
//   /repositories/:repo_id/search   a repository's records and the global ones      view_repository there
//   /search                          every repository's                              view_all_records
//   /search/repositories, /search/subjects, /search/location_profile   one type, as ArchivesSpace forces it
//   /search/records, /search/record_types_by_repository, top_containers/search   (record-searches.ts)
// The operations are search.ts and record-searches.ts; here the parameters are read, each problem a 400 naming it.
// Mounted before the record controllers: /repositories/:repo_id/top_containers/search would otherwise be read as
// the top container with id "search".
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Request, Response } from "express";
import type { AccessControl } from "../auth/access-control.js";
import { callerWith, type Caller } from "../auth/caller.js";
import { notFound } from "../errors/api-error.js";
import type { DocumentContext, HttpMethod } from "../http/api-description.js";
import { Route, type RouteOperation } from "../http/described-route.js";
import { repoIdParam, repositoryExists, shownRepoId } from "../http/repository-param.js";
import { respond } from "../records/http/answer.js";
import { ParamReader, REQUIRED, requestParameters, throwIfAny } from "../records/http/list-params.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type RecordOperations } from "../records/operations/index.js";
import {
  describeRecordsByUri,
  describeSearch,
  describeTopContainerSearch,
  describeTypeCounts,
  SEARCH_ROUTES,
  type SearchRoute,
} from "./descriptions.js";
import { RecordSearches, RECORDS_MAX, TOP_CONTAINERS_MAX } from "./record-searches.js";
import { writeSearchCsv } from "./search-csv.js";
import { resolveProblem, resolveSources } from "./search-resolve.js";
import { SearchOperations, type SearchPage, type SearchRequest } from "./search.js";

export interface SearchRouteDeps {
  operations: RecordOperations;
  access: AccessControl;
}

const BOTH: readonly HttpMethod[] = ["get", "post"];
const ALL_RECORDS = "view_all_records";
const TOP_CONTAINER_SEARCH = "/repositories/:repo_id/top_containers/search";
const MAX_ARRAY_VALUES = 250;

/** The request's search parameters. @throws ApiError 400 naming each bad one */
function searchParams(req: Request, route: SearchRoute): Omit<SearchRequest, "repoId"> & { csv: boolean } {
  const reader = new ParamReader(requestParameters(req));
  const allIds = reader.boolean("all_ids");
  let page = reader.wholeNumber("page", 1);
  // ArchivesSnake asks a repository's search with all_ids=True (and no page) before it searches, and needs a 200:
  // that probe is answered as page 1.
  if (page === undefined && reader.errors.page === undefined) {
    if (allIds === true) page = 1;
    else reader.fail("page", REQUIRED);
  }
  const pageSize = Math.min(reader.wholeNumber("page_size", 1) ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const list = (name: string): string[] | undefined => {
    const values = reader.array(name);
    if (values !== undefined && values.length > MAX_ARRAY_VALUES)
      reader.fail(`${name}[]`, `At most ${MAX_ARRAY_VALUES} values, not ${values.length}`);
    return values;
  };
  const q = reader.scalar("q");
  const sort = reader.scalar("sort");
  const types = route.types ?? list("type");
  const filterQueries = list("filter_query");
  const exclude = list("exclude");
  const fields = list("fields");
  const facets = list("facet");
  const facetMinCount = reader.wholeNumber("facet_mincount", 0);
  const rootRecord = reader.scalar("root_record");
  const highlight = reader.boolean("hl");
  const aq = reader.scalar("aq");
  const filter = reader.scalar("filter");
  const resolveValues = reader.array("resolve");
  const resolveError = resolveValues === undefined ? undefined : resolveProblem(resolveValues);
  if (resolveError !== undefined) reader.fail("resolve[]", resolveError);
  // As ArchivesSpace: CSV from a repository's search only.
  const dt = reader.scalar("dt");
  if (dt !== undefined && (dt !== "csv" || !route.path.includes(":repo_id")))
    reader.fail("dt", `Only "csv", on a repository's search, not "${dt.slice(0, 50)}"`);
  throwIfAny(reader.errors);
  return {
    csv: dt === "csv",
    page: page ?? 1,
    pageSize,
    ...(q !== undefined && { q }),
    ...(sort !== undefined && { sort }),
    ...(types !== undefined && { types }),
    ...(filterQueries !== undefined && { filterQueries }),
    ...(exclude !== undefined && { exclude }),
    ...(fields !== undefined && { fields }),
    ...(facets !== undefined && { facets }),
    ...(facetMinCount !== undefined && { facetMinCount }),
    ...(rootRecord !== undefined && { rootRecord }),
    ...(highlight !== undefined && { highlight }),
    ...(aq !== undefined && { aq }),
    ...(filter !== undefined && { filter }),
    ...(resolveValues !== undefined && { resolve: resolveSources(resolveValues) }),
  };
}

type Describe = (ctx: DocumentContext) => RouteOperation;
type Handle = (req: Request, res: Response) => Promise<unknown>;

/** A controller class serving one method and path, answering what `handle` returns as JSON. */
function controller(method: HttpMethod, path: string, describe: Describe, handle: Handle): new () => unknown {
  class SearchController {
    @Route(method, path, describe)
    serve(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, handle);
    }
  }
  Object.defineProperty(SearchController, "name", {
    value: `Search${path.replace(/[^a-z]+/gi, "_")}${method}Controller`,
  });
  Controller("/")(SearchController);
  return SearchController;
}

export function searchControllers({ operations, access }: SearchRouteDeps): Array<new () => unknown> {
  const search = new SearchOperations(operations);
  const records = new RecordSearches(operations, search);
  const registry = operations.deps.registry;

  /**
   * The caller, once they hold `permission`, and the repository of a repository's route, whose existence is read
   * while `work` runs (a search of a missing repository finds nothing, and is then answered 404): one round trip
   * less before the search's own. @throws 403, 404
   */
  async function withinScope<T>(
    req: Request,
    res: Response,
    path: string,
    permission: string,
    work: (scope: { actor: Caller; repoId?: number }) => Promise<T>,
  ): Promise<T> {
    if (!path.includes(":repo_id")) return work({ actor: await callerWith(access, res, permission) });
    const given = repoIdParam(req);
    // Before the path is judged: someone who may not learns nothing from a 404.
    const actor = await callerWith(access, res, permission, given);
    const missing = notFound(registry.scopeHolderType().title);
    const repoId = shownRepoId(registry, given);
    if (repoId === undefined) throw missing;
    const [exists, done] = await Promise.allSettled([
      repositoryExists(operations.deps.store, registry, repoId),
      work({ actor, repoId }),
    ]);
    // The repository's absence first: it is the answer whatever the work made of the request.
    if (exists.status === "rejected") throw exists.reason;
    if (!exists.value) throw missing;
    if (done.status === "rejected") throw done.reason;
    return done.value;
  }

  const paged = SEARCH_ROUTES.flatMap((route) =>
    route.methods.map((method) =>
      controller(
        method,
        route.path,
        (ctx) => describeSearch(ctx, route, method),
        async (req, res) => {
          type Answer = { csv: SearchRequest; actor: Caller } | { page: SearchPage };
          const answer = await withinScope<Answer>(
            req,
            res,
            route.path,
            route.permission,
            async ({ actor, repoId }) => {
              const { csv, ...params } = searchParams(req, route);
              const request = { ...params, ...(repoId !== undefined && { repoId }) };
              // A CSV is streamed as it is read: only once the repository is known to be there.
              return csv ? { csv: request, actor } : { page: await search.search(request, actor) };
            },
          );
          return "csv" in answer ? writeSearchCsv(res, search, answer.csv, answer.actor) : answer.page;
        },
      ),
    ),
  );
  const byUri = BOTH.map((method) =>
    controller(
      method,
      "/search/records",
      (ctx) => describeRecordsByUri(ctx, method, RECORDS_MAX),
      async (req, res) => {
        const { actor } = await withinScope(req, res, "/search/records", ALL_RECORDS, async (scope) => scope);
        const reader = new ParamReader(requestParameters(req));
        const uris = reader.array("uri");
        if (uris === undefined) reader.fail("uri[]", REQUIRED);
        throwIfAny(reader.errors);
        return records.byUris(uris ?? [], actor);
      },
    ),
  );
  const typeCounts = BOTH.map((method) =>
    controller(
      method,
      "/search/record_types_by_repository",
      (ctx) => describeTypeCounts(ctx, method),
      async (req, res) => {
        await withinScope(req, res, "/search/record_types_by_repository", ALL_RECORDS, async (scope) => scope);
        const reader = new ParamReader(requestParameters(req));
        const types = reader.array("record_types");
        if (types === undefined) reader.fail("record_types[]", REQUIRED);
        else if (types.length > MAX_ARRAY_VALUES)
          reader.fail("record_types[]", `At most ${MAX_ARRAY_VALUES} values, not ${types.length}`);
        const repositoryUri = reader.scalar("repo_uri");
        throwIfAny(reader.errors);
        return records.typeCounts(types ?? [], repositoryUri);
      },
    ),
  );
  const containers = controller(
    "get",
    TOP_CONTAINER_SEARCH,
    (ctx) => describeTopContainerSearch(ctx, TOP_CONTAINERS_MAX),
    async (req, res) => {
      return withinScope(req, res, TOP_CONTAINER_SEARCH, "view_repository", ({ actor, repoId }) => {
        const reader = new ParamReader(requestParameters(req));
        const q = reader.scalar("q");
        const facets = reader.array("facet") ?? [];
        throwIfAny(reader.errors);
        return records.topContainers(repoId ?? 0, q, facets, actor);
      });
    },
  );
  return [...paged, ...byUri, ...typeCounts, containers];
}
