// The change feed over HTTP:
//   GET /changes                         every change, in order, resumable            view_all_records
//   GET /repositories/:repo_id/changes   the changes of one repository's records      view_repository there
//   GET /update-feed                     ArchivesSpace's: changed records with their JSON, long-polled   index_system
//   GET /delete-feed                     ArchivesSpace's: the uris deleted since a time, paged          index_system
// The feed itself is change-feed.ts (written with every change) and feed-reader.ts (read after a sequence).
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Request, Response } from "express";
import type { AccessControl } from "../../auth/access-control.js";
import { callerWith } from "../../auth/caller.js";
import { notFound } from "../../errors/api-error.js";
import {
  commonResponses,
  idPathParameter,
  jsonResponse,
  notFoundResponse,
  resolveParameter,
  responseRef,
  type DocumentContext,
  type Parameter,
  type Tag,
} from "../../http/api-description.js";
import { Route, type RouteOperation } from "../../http/described-route.js";
import { repoIdParam, repositoryExists, shownRepoId } from "../../http/repository-param.js";
import { respond } from "../http/answer.js";
import {
  pageEnvelope,
  ParamReader,
  readPage,
  requestParameters,
  resolveParam,
  throwIfAny,
} from "../http/list-params.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type RecordOperations } from "../operations/index.js";
import { readByUri } from "../search/records-by-uri.js";
import { feedCollection, type FeedEntry } from "./change-feed.js";
import { FeedReader, type FeedQuery } from "./feed-reader.js";

export interface FeedRouteDeps {
  operations: RecordOperations;
  access: AccessControl;
  retentionDays: number;
  maxWaitSeconds: number;
}

/** Changes per answer of /changes, at most (and by default, 100). */
export const CHANGES_MAX = 1_000;
const CHANGES_DEFAULT = 100;
/** Changed records per answer of /update-feed: each carries its record's JSON. */
export const UPDATE_FEED_MAX = 100;
/** Reads waiting for a change at once, per process. */
const MAX_WAITING = 200;
const MAX_TYPES = 100;

/** One change as /changes answers it. */
function shownChange(entry: FeedEntry): Record<string, unknown> {
  return {
    sequence: entry.seq,
    operation: entry.operation,
    type: entry.type,
    uri: entry.uri,
    repository: entry.repository,
    at: entry.at.toISOString(),
    ...(entry.all === true && { all: true }),
  };
}

const FEED: Tag = {
  name: "changes",
  description:
    "Every create, update and delete, written in the same transaction as the change and numbered in the order " +
    "committed: a reader that asks again from the last sequence it saw misses nothing and sees nothing twice.",
};

function query(name: string, description: string, schema: Parameter["schema"], required = false): Parameter {
  return { name, in: "query", description, schema, ...(required && { required }) };
}

function changesParameters(ctx: DocumentContext, maxWait: number): Parameter[] {
  return [
    query("since", "The last sequence number seen (default 0: from the first kept).", { type: "integer", minimum: 0 }),
    query("wait", `Seconds to wait for a change when there is none yet (default 0, at most ${maxWait}).`, {
      type: "integer",
      minimum: 0,
      maximum: maxWait,
    }),
    query("limit", `Changes per answer (default ${CHANGES_DEFAULT}, at most ${CHANGES_MAX}).`, {
      type: "integer",
      minimum: 1,
      maximum: CHANGES_MAX,
    }),
    {
      name: "type[]",
      in: "query",
      description: `Only these record types' changes (at most ${MAX_TYPES}).`,
      schema: { type: "array", items: { type: "string", enum: ctx.registry.types.map((type) => type.name) } },
      style: "form",
      explode: true,
    },
  ];
}

const CHANGES_SCHEMA = {
  type: "object",
  required: ["changes", "last_sequence"],
  properties: {
    changes: {
      type: "array",
      items: {
        type: "object",
        required: ["sequence", "operation", "type", "uri", "repository", "at"],
        properties: {
          sequence: { type: "integer" },
          operation: { type: "string", enum: ["create", "update", "delete"] },
          type: { type: "string" },
          uri: { type: ["string", "null"], description: "null with `all`" },
          repository: { type: ["string", "null"], description: "The repository's uri; null for a global record." },
          at: { type: "string", format: "date-time" },
          all: { type: "boolean", description: "Every record of `type` in `repository` deleted (with it)." },
        },
      },
    },
    last_sequence: { type: "integer", description: "Ask from this next." },
  },
};

function describeChanges(ctx: DocumentContext, maxWait: number, inRepository: boolean): RouteOperation {
  return {
    operationId: inRepository ? "repository_changes" : "changes",
    summary: inRepository ? "The changes of a repository's records, in order" : "Every change, in order",
    description:
      "The changes numbered after `since`, oldest first. Keep `last_sequence` and ask from it next: nothing is " +
      "missed, nothing repeated, across restarts and several Arca nodes. With `wait`, an empty answer waits that " +
      "long for a change. Changes older than CHANGES_RETENTION_DAYS are removed; asking from before them is a 410 " +
      "naming the sequence to resume from after reading the records again. " +
      (inRepository ? "Needs `view_repository` in the repository." : "Needs `view_all_records`."),
    tag: FEED,
    ...(inRepository && { pathParameters: [idPathParameter("repo_id", "The repository's id.")] }),
    parameters: changesParameters(ctx, maxWait),
    responses: {
      "200": jsonResponse("The changes.", CHANGES_SCHEMA, {
        changes: [
          {
            sequence: 41,
            operation: "update",
            type: "accession",
            uri: "/repositories/2/accessions/7",
            repository: "/repositories/2",
            at: "2026-11-29T10:00:00.000Z",
          },
        ],
        last_sequence: 41,
      }),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      ...(inRepository && { "404": notFoundResponse(ctx, ["Repository"]) }),
      "410": jsonResponse("`since` is older than the changes kept.", ctx.fixedRef("Error")),
      ...commonResponses(),
    },
    security: ctx.security(inRepository ? "view_repository" : "view_all_records"),
  };
}

function describeUpdateFeed(ctx: DocumentContext, maxWait: number): RouteOperation {
  return {
    operationId: "update_feed",
    summary: "Changed records with their JSON (ArchivesSpace's update feed)",
    description:
      "ArchivesSpace's `/update-feed`: the records changed after `last_sequence` (at most " +
      `${UPDATE_FEED_MAX}), each \`{sequence, uri, record, timestamp}\` with the record's JSON as it is now, or ` +
      `\`"deleted"\`. When there is none yet, waits up to ${maxWait} s for one. Needs \`index_system\`.`,
    tag: FEED,
    parameters: [
      query("last_sequence", "The last sequence number seen (default 0).", { type: "integer", minimum: 0 }),
      resolveParameter,
    ],
    responses: {
      "200": jsonResponse("The updates, oldest first.", {
        type: "array",
        items: {
          type: "object",
          required: ["sequence", "uri", "record", "timestamp"],
          properties: {
            sequence: { type: "integer" },
            uri: { type: "string" },
            record: { oneOf: [{ type: "object" }, { type: "string", enum: ["deleted"] }] },
            timestamp: { type: "integer", description: "Milliseconds since 1970." },
          },
        },
      }),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      ...commonResponses(),
    },
    security: ctx.security("index_system"),
  };
}

function describeDeleteFeed(ctx: DocumentContext): RouteOperation {
  return {
    operationId: "delete_feed",
    summary: "The uris deleted since a time (ArchivesSpace's delete feed)",
    description:
      "ArchivesSpace's `/delete-feed`: the uris of records deleted at or after `modified_since`, paged, oldest " +
      "first. Kept as long as the change feed (CHANGES_RETENTION_DAYS). Needs `index_system`.",
    tag: FEED,
    parameters: [
      query("page", "The page, from 1.", { type: "integer", minimum: 1 }, true),
      query("page_size", `Uris per page (default ${DEFAULT_PAGE_SIZE}; more than ${MAX_PAGE_SIZE} is cut to it).`, {
        type: "integer",
        minimum: 1,
      }),
      query("modified_since", "Seconds since 1970 (default 0).", { type: "integer", minimum: 0 }),
    ],
    responses: {
      "200": jsonResponse("A page of uris.", {
        type: "object",
        required: ["first_page", "last_page", "this_page", "total", "results"],
        properties: {
          first_page: { type: "integer" },
          last_page: { type: "integer" },
          this_page: { type: "integer" },
          total: { type: "integer" },
          results: { type: "array", items: { type: "string" } },
        },
      }),
      "400": responseRef("BadRequest"),
      "403": responseRef("AccessDenied"),
      ...commonResponses(),
    },
    security: ctx.security("index_system"),
  };
}

/** An AbortSignal that fires when the client goes away before its answer is written. */
function clientGone(res: Response): AbortSignal {
  const controller = new AbortController();
  res.once("close", () => controller.abort());
  return controller.signal;
}

export function feedControllers(deps: FeedRouteDeps): Array<new () => unknown> {
  const { operations, access } = deps;
  const registry = operations.deps.registry;
  const feed = new FeedReader(operations.deps.store, {
    retentionMs: deps.retentionDays * 86_400_000,
    maxWaiting: MAX_WAITING,
  });
  const maxWait = deps.maxWaitSeconds;
  // A change this process commits wakes the reads waiting for one; other processes' are found by polling.
  operations.deps.changes.subscribe(() => feed.notify());

  /** The /changes parameters. @throws ApiError 400 naming each bad one */
  function changesQuery(req: Request, res: Response): Omit<FeedQuery, "repository"> {
    const reader = new ParamReader(requestParameters(req));
    const since = reader.wholeNumber("since", 0) ?? 0;
    const wait = reader.wholeNumber("wait", 0) ?? 0;
    if (wait > maxWait) reader.fail("wait", `At most ${maxWait} seconds, not ${wait}`);
    const limit = reader.wholeNumber("limit", 1) ?? CHANGES_DEFAULT;
    if (limit > CHANGES_MAX) reader.fail("limit", `At most ${CHANGES_MAX}, not ${limit}`);
    const types = reader.array("type");
    if (types !== undefined && types.length > MAX_TYPES)
      reader.fail("type[]", `At most ${MAX_TYPES} values, not ${types.length}`);
    const unknown = types?.find((type) => !registry.has(type));
    if (unknown !== undefined) reader.fail("type[]", `Not a record type: "${unknown.slice(0, 100)}"`);
    throwIfAny(reader.errors);
    return {
      since,
      limit,
      waitMs: wait * 1000,
      signal: clientGone(res),
      strict: true,
      ...(types !== undefined && { types }),
    };
  }

  async function changes(query: FeedQuery): Promise<unknown> {
    const page = await feed.read(query);
    return { changes: page.entries.map(shownChange), last_sequence: page.last };
  }

  @Controller("/")
  class ChangeFeedController {
    @Route("get", "/changes", (ctx) => describeChanges(ctx, maxWait, false))
    all(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        await callerWith(access, res, "view_all_records");
        return changes(changesQuery(req, res));
      });
    }

    @Route("get", "/repositories/:repo_id/changes", (ctx) => describeChanges(ctx, maxWait, true))
    ofRepository(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const given = repoIdParam(req);
        // Before the path is judged: someone who may not learns nothing from a 404.
        await callerWith(access, res, "view_repository", given);
        const holder = registry.scopeHolderType();
        const repoId = shownRepoId(registry, given);
        if (repoId === undefined || !(await repositoryExists(operations.deps.store, registry, repoId)))
          throw notFound(holder.title);
        return changes({ ...changesQuery(req, res), repository: registry.uriFor(holder.name, repoId) });
      });
    }

    @Route("get", "/update-feed", (ctx) => describeUpdateFeed(ctx, maxWait))
    updates(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const actor = await callerWith(access, res, "index_system");
        const params = new ParamReader(requestParameters(req));
        const since = params.wholeNumber("last_sequence", 0) ?? 0;
        throwIfAny(params.errors);
        const resolve = resolveParam(req);
        const page = await feed.read({
          since,
          limit: UPDATE_FEED_MAX,
          waitMs: maxWait * 1000,
          signal: clientGone(res),
          strict: false,
        });
        const named = page.entries.filter((entry) => entry.uri !== null);
        const records = await readByUri(
          operations,
          named.filter((entry) => entry.operation !== "delete").map((entry) => entry.uri ?? ""),
          actor,
          resolve,
        );
        return named.map((entry) => ({
          sequence: entry.seq,
          uri: entry.uri,
          record: (entry.uri !== null && records.get(entry.uri)) || "deleted",
          timestamp: entry.at.getTime(),
        }));
      });
    }

    @Route("get", "/delete-feed", describeDeleteFeed)
    deletes(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        await callerWith(access, res, "index_system");
        const params = new ParamReader(requestParameters(req));
        const page = readPage(params, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
        const since = params.wholeNumber("modified_since", 0) ?? 0;
        throwIfAny(params.errors);
        const filter = { operation: "delete" as const, uri: { $ne: null }, at: { $gte: new Date(since * 1000) } };
        const entries = feedCollection(operations.deps.store.connection);
        const [total, found] = await Promise.all([
          entries.countDocuments(filter),
          entries
            .find(filter, { projection: { uri: 1 } })
            .sort({ at: 1, _id: 1 })
            .skip((page.page - 1) * page.pageSize)
            .limit(page.pageSize)
            .toArray(),
        ]);
        return pageEnvelope(
          page,
          total,
          found.map((entry) => entry.uri),
        );
      });
    }
  }
  return [ChangeFeedController];
}
