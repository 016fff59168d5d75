// ArchivesSpace's search endpoints (backend search.rb), GET and POST alike (a POST's form body holds the same
// parameters):
//   /repositories/:repo_id/search   a repository's records and the global ones      view_repository there
//   /search                          every repository's                              view_all_records
//   /search/repositories, /search/subjects, /search/location_profile   one type, as ArchivesSpace forces it
// The operation is search.ts; here the parameters are read, each problem a 400 naming it.
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Request, Response } from "express";
import type { AccessControl } from "../auth/access-control.js";
import { callerWith, type Caller } from "../auth/caller.js";
import { notFound } from "../errors/api-error.js";
import type { HttpMethod } from "../http/api-description.js";
import { Route } from "../http/described-route.js";
import { respond } from "../records/http/answer.js";
import { ParamReader, REQUIRED, requestParameters, throwIfAny } from "../records/http/list-params.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type RecordOperations } from "../records/operations/index.js";
import { describeSearch, SEARCH_ROUTES, UNSUPPORTED_PARAMETERS, type SearchRoute } from "./descriptions.js";
import { SearchOperations, type SearchRequest } from "./search.js";

export interface SearchRouteDeps {
  operations: RecordOperations;
  access: AccessControl;
}

const POSITIVE_ID = /^[1-9][0-9]{0,14}$/;
const MAX_ARRAY_VALUES = 250;

/** The request's search parameters. @throws ApiError 400 naming each bad one */
function searchParams(req: Request, route: SearchRoute): Omit<SearchRequest, "repoId"> {
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
  for (const name of UNSUPPORTED_PARAMETERS)
    if (reader.array(name) !== undefined) reader.fail(name, "Not supported by Arca's search yet");
  const q = reader.scalar("q");
  const sort = reader.scalar("sort");
  const types = route.types ?? list("type");
  const filterQueries = list("filter_query");
  const exclude = list("exclude");
  const fields = list("fields");
  const facets = list("facet");
  const facetMinCount = reader.wholeNumber("facet_mincount", 0);
  throwIfAny(reader.errors);
  return {
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
  };
}

export function searchControllers({ operations, access }: SearchRouteDeps): Array<new () => unknown> {
  const search = new SearchOperations(operations);
  const registry = operations.deps.registry;

  /** The caller, once they may search, and the repository of a repository's search. @throws 403, 404 */
  async function scopeOf(req: Request, res: Response, route: SearchRoute): Promise<{ actor: Caller; repoId?: number }> {
    if (!route.path.includes(":repo_id")) return { actor: await callerWith(access, res, route.permission) };
    const raw = req.params.repo_id;
    const repoId = typeof raw === "string" && POSITIVE_ID.test(raw) ? Number(raw) : undefined;
    // Before the path is judged: someone who may not learns nothing from a 404.
    const actor = await callerWith(access, res, route.permission, repoId);
    const holder = registry.scopeHolderType();
    const exists =
      repoId !== undefined &&
      !holder.hiddenIds.includes(repoId) &&
      (await operations.deps.store.collection(holder.name).findOne({ id: repoId }, { projection: { _id: 1 } }));
    if (!exists) throw notFound(holder.title);
    return { actor, repoId };
  }

  function controllerFor(route: SearchRoute, method: HttpMethod): new () => unknown {
    class SearchController {
      @Route(method, route.path, (ctx) => describeSearch(ctx, route, method))
      search(@Context() ctx: PlatformContext): Promise<void> {
        return respond(ctx, async (req, res) => {
          const { actor, repoId } = await scopeOf(req, res, route);
          return search.search({ ...searchParams(req, route), ...(repoId !== undefined && { repoId }) }, actor);
        });
      }
    }
    const name = `Search${route.path.replace(/[^a-z]+/gi, "_")}${method}Controller`;
    Object.defineProperty(SearchController, "name", { value: name });
    Controller("/")(SearchController);
    return SearchController;
  }

  return SEARCH_ROUTES.flatMap((route) => route.methods.map((method) => controllerFor(route, method)));
}
