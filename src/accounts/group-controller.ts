// The groups of a repository (docs/api.md §8), behind the permission the group schema
// declares (manage_repository) in that repository, and the rules of group-input.ts (levels,
// members the caller may add, administrators' groups). Every write empties the permission
// cache: a membership change applies to the member's existing sessions at once.
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import type { Response } from "express";
import { respond } from "../records/http/answer.js";
import { Route } from "../http/described-route.js";
import type { RecordOperation } from "../registry/index.js";
import { onBehalfOf, type RecordOperations } from "../records/operations/index.js";
import type { AccountAccessControl } from "./access-control.js";
import { describeGroupRoute as describe } from "./route-descriptions.js";
import { callerWith, type Caller } from "../auth/caller.js";
import { assertMayChangeGroup, groupBefore, prepareGroupInput, type GroupWriteContext } from "./group-input.js";
import { idParam, scalarParam } from "../records/http/request-params.js";

export interface GroupControllerDeps {
  operations: RecordOperations;
  access: AccountAccessControl;
}

const GROUP = "group";

/** The Ts.ED controller of a repository's groups, to mount at "/". */
export function groupController({ operations, access }: GroupControllerDeps): new () => unknown {
  const { registry, store } = operations.deps;
  const type = registry.get(GROUP);
  const caller = (res: Response, operation: RecordOperation, repoId: number) =>
    callerWith(access, res, type.permissions[operation], repoId);
  /** What a write is judged against; `id`: the group it changes, read once the caller may. */
  const context = async (who: Caller, repoId: number, id?: number): Promise<GroupWriteContext> => ({
    store,
    access,
    caller: who,
    repoId,
    before: id === undefined ? undefined : groupBefore(await operations.read(GROUP, { repoId }, id, onBehalfOf(who))),
  });

  @Controller("/")
  class GroupController {
    // A bare list, in id order (ArchivesSpace's shape); `group_code` narrows it to one group.
    @Route("get", type.collectionPath, describe.list)
    list(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const repoId = idParam(req, "repo_id");
        const who = await caller(res, "read", repoId);
        const groupCode = scalarParam(req, "group_code");
        const groups = await operations.list(GROUP, { repoId }, { mode: { kind: "all" } }, who);
        return groupCode === undefined
          ? groups
          : (groups as Array<Record<string, unknown>>).filter((group) => group.group_code === groupCode);
      });
    }

    @Route("post", type.collectionPath, describe.create)
    create(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const repoId = idParam(req, "repo_id");
        const who = await caller(res, "create", repoId);
        const input = await prepareGroupInput(req.body, await context(who, repoId));
        return operations.create(GROUP, { repoId }, input, who);
      });
    }

    @Route("get", type.itemPath, describe.read)
    read(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const repoId = idParam(req, "repo_id");
        return operations.read(GROUP, { repoId }, idParam(req, "id"), await caller(res, "read", repoId));
      });
    }

    @Route("post", type.itemPath, describe.update)
    update(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const repoId = idParam(req, "repo_id");
        const who = await caller(res, "update", repoId);
        const id = idParam(req, "id");
        const input = await prepareGroupInput(req.body, await context(who, repoId, id));
        return operations.update(GROUP, { repoId }, id, input, who);
      });
    }

    @Route("delete", type.itemPath, describe.delete)
    delete(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const repoId = idParam(req, "repo_id");
        const who = await caller(res, "delete", repoId);
        const id = idParam(req, "id");
        await assertMayChangeGroup(await context(who, repoId, id));
        return operations.delete(GROUP, { repoId }, id, who);
      });
    }
  }
  return GroupController;
}
