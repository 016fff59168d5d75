// ArchivesSpace's /repositories/with_agent (backend repository.rb): a repository together with the
// corporate agent standing for it (its `agent_representation`), read, created and updated as one
// `repository_with_agent` document `{repository, agent_representation}`. Each write is one
// transaction: the agent and the repository are stored together or not at all.
// - create: the agent (when given) is created, and the repository with its agent_representation
//   linking it;
// - update: a given agent updates the one the repository links (or is created when it links none);
//   none given unlinks it (the agent record stays, as in ArchivesSpace);
// - errors name their place in the document: `repository/repo_code`, `agent_representation/names`.
// Mounted before the record controllers: POST /repositories/with_agent would otherwise be read as
// an update of the repository with id "with_agent".
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Request, Response } from "express";
import type { ClientSession } from "mongodb";
import type { AccessControl } from "../auth/access-control.js";
import { callerOf, callerWith } from "../auth/caller.js";
import { ApiError, badRequest, notFound } from "../errors/api-error.js";
import { Route } from "../http/described-route.js";
import { respond } from "../records/http/answer.js";
import { onBehalfOf, type Actor, type RecordOperations, type WriteResult } from "../records/operations/index.js";
import type { JsonObject } from "../registry/index.js";
import { addFieldError, fieldErrors } from "../registry/validation-errors.js";
import { describeWithAgent as describe } from "./descriptions.js";

const REPOSITORY = "repository";
const AGENT = "agent_corporate_entity";
const REPOSITORY_PART = "repository";
const AGENT_PART = "agent_representation";
const POSITIVE_ID = /^[1-9][0-9]{0,14}$/;

export interface WithAgentDeps {
  operations: RecordOperations;
  access: AccessControl;
}

interface RepositoryWithAgent {
  repository: JsonObject;
  agent?: JsonObject;
}

function isPlainObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The two parts of the body. @throws ApiError 400 naming `repository` or `agent_representation` */
function partsOf(body: unknown): RepositoryWithAgent {
  const errors = fieldErrors();
  if (!isPlainObject(body)) addFieldError(errors, REPOSITORY_PART, "Property is required but was missing");
  const repository = isPlainObject(body) ? body[REPOSITORY_PART] : undefined;
  const agent = isPlainObject(body) ? body[AGENT_PART] : undefined;
  if (isPlainObject(body) && !isPlainObject(repository))
    addFieldError(
      errors,
      REPOSITORY_PART,
      repository == null ? "Property is required but was missing" : "Must be an object",
    );
  // null and {} are an absent agent, as everywhere on input (docs/api.md §3).
  const noAgent = agent === undefined || agent === null || (isPlainObject(agent) && Object.keys(agent).length === 0);
  if (!noAgent && !isPlainObject(agent)) addFieldError(errors, AGENT_PART, "Must be an object");
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  return { repository: repository as JsonObject, ...(noAgent ? {} : { agent: agent as JsonObject }) };
}

/** A part's 400, its field paths put under the part's name; any other error as it was. */
function within(part: string, error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 400 || typeof error.detail === "string") return error;
  const errors = fieldErrors();
  for (const [path, messages] of Object.entries(error.detail))
    for (const message of messages) addFieldError(errors, `${part}/${path}`, message);
  return new ApiError(400, errors, error.extra);
}

async function inPart<T>(part: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw within(part, error);
  }
}

const prefixed = (part: string, warnings: readonly string[]) => warnings.map((warning) => `${part}/${warning}`);

function repositoryId(req: Request): number {
  const raw = req.params.id;
  if (typeof raw !== "string" || !POSITIVE_ID.test(raw)) throw notFound("Repository");
  return Number(raw);
}

function agentIdOf(repository: JsonObject, operations: RecordOperations): number | undefined {
  const link = repository[AGENT_PART];
  if (!isPlainObject(link) || typeof link.ref !== "string") return undefined;
  const located = operations.deps.registry.parseUri(link.ref);
  return located?.type === AGENT ? located.id : undefined;
}

export function repositoryWithAgentController({ operations, access }: WithAgentDeps): new () => unknown {
  const { store, registry } = operations.deps;
  const hiddenIds = registry.get(REPOSITORY).hiddenIds;

  const read = async (req: Request, res: Response) => {
    const caller = await callerOf(access, res);
    const id = repositoryId(req);
    if (hiddenIds.includes(id)) throw notFound("Repository");
    const repository = await operations.read(REPOSITORY, {}, id, caller);
    const agentId = agentIdOf(repository, operations);
    const agent = agentId === undefined ? undefined : await operations.read(AGENT, {}, agentId, caller);
    return {
      jsonmodel_type: "repository_with_agent",
      uri: `/repositories/with_agent/${id}`,
      repository,
      ...(agent === undefined ? {} : { agent_representation: agent }),
    };
  };

  /**
   * Runs `work` in a transaction, handing it `createAgent`, which makes the agent in that transaction. Ids are taken
   * outside transactions: when the transaction fails, the agent's id goes back, so a refused write (a repo_code in
   * use, a stale lock_version) moves no counter.
   */
  const withAgentMade = async <T>(
    work: (
      session: ClientSession,
      createAgent: (agent: JsonObject, actor: Actor) => Promise<WriteResult>,
    ) => Promise<T>,
  ): Promise<T> => {
    let madeId: number | undefined;
    try {
      return await store.transaction((session) =>
        work(session, async (agent, actor) => {
          const made = await inPart(AGENT_PART, () =>
            operations.create(AGENT, {}, agent, onBehalfOf(actor), { session }),
          );
          madeId = made.id;
          return made;
        }),
      );
    } catch (error) {
      if (madeId !== undefined) await store.releaseIds(AGENT, madeId, 1);
      throw error;
    }
  };

  const create = async (req: Request, res: Response): Promise<WriteResult> => {
    const caller = await callerWith(access, res, registry.get(REPOSITORY).permissions.create);
    const { repository, agent } = partsOf(req.body);
    return withAgentMade(async (session, createAgent) => {
      const made = agent === undefined ? undefined : await createAgent(agent, caller);
      const link = made === undefined ? {} : { [AGENT_PART]: { ref: made.uri } };
      const result = await inPart(REPOSITORY_PART, () =>
        operations.create(REPOSITORY, {}, { ...repository, ...link }, caller, { session }),
      );
      return {
        ...result,
        warnings: [...prefixed(AGENT_PART, made?.warnings ?? []), ...prefixed(REPOSITORY_PART, result.warnings)],
      };
    });
  };

  const update = async (req: Request, res: Response): Promise<WriteResult> => {
    const caller = await callerWith(access, res, registry.get(REPOSITORY).permissions.update);
    const id = repositoryId(req);
    const { repository, agent } = partsOf(req.body);
    if (hiddenIds.includes(id)) throw notFound("Repository");
    return withAgentMade(async (session, createAgent) => {
      const stored = await store.collection(REPOSITORY).findOne({ id }, { session });
      if (!stored) throw notFound("Repository");
      const linked = agentIdOf(stored as JsonObject, operations);
      let agentUri: string | undefined;
      let agentWarnings: string[] = [];
      if (agent !== undefined && linked !== undefined) {
        const updated = await inPart(AGENT_PART, () =>
          operations.update(AGENT, {}, linked, agent, onBehalfOf(caller), { session }),
        );
        agentUri = updated.uri;
        agentWarnings = updated.warnings;
      } else if (agent !== undefined) {
        const made = await createAgent(agent, caller);
        agentUri = made.uri;
        agentWarnings = made.warnings;
      }
      const { [AGENT_PART]: _dropped, ...rest } = repository;
      const input = agentUri === undefined ? rest : { ...rest, [AGENT_PART]: { ref: agentUri } };
      const result = await inPart(REPOSITORY_PART, () =>
        operations.update(REPOSITORY, {}, id, input, caller, { session }),
      );
      return {
        ...result,
        warnings: [...prefixed(AGENT_PART, agentWarnings), ...prefixed(REPOSITORY_PART, result.warnings)],
      };
    });
  };

  @Controller("/")
  class RepositoryWithAgentController {
    @Route("post", "/repositories/with_agent", describe.create)
    create(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, create);
    }

    @Route("get", "/repositories/with_agent/:id", describe.read)
    read(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, read);
    }

    @Route("post", "/repositories/with_agent/:id", describe.update)
    update(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, update);
    }
  }
  return RepositoryWithAgentController;
}
