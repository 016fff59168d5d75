// The groups of a repository (docs/api.md §8), behind the permission the group schema
// declares (manage_repository) in that repository, and the rules of group-input.ts (levels,
// members the caller may add, administrators' groups). Every write empties the permission
// cache: a membership change applies to the member's existing sessions at once.
import { Router, type Response } from "express";
import type { RecordOperation } from "../registry/index.js";
import type { RecordOperations } from "../records/operations/index.js";
import type { AccountAccessControl } from "./access-control.js";
import { callerWith, type Caller } from "../auth/caller.js";
import { assertMayChangeGroup, groupBefore, prepareGroupInput, type GroupWriteContext } from "./group-input.js";
import { idParam, scalarParam } from "../records/http/request-params.js";

export interface GroupRoutesDeps {
  operations: RecordOperations;
  access: AccountAccessControl;
}

const GROUP = "group";
const COLLECTION = "/repositories/:repo_id/groups";
const ITEM = `${COLLECTION}/:id`;

export function groupRoutes({ operations, access }: GroupRoutesDeps): Router {
  const router = Router();
  const { registry, store } = operations.deps;
  const caller = (res: Response, operation: RecordOperation, repoId: number) =>
    callerWith(access, res, registry.permission(GROUP, operation), repoId);
  /** What a write is judged against; `id`: the group it changes, read once the caller may. */
  const context = async (who: Caller, repoId: number, id?: number): Promise<GroupWriteContext> => ({
    store,
    access,
    caller: who,
    repoId,
    before: id === undefined ? undefined : groupBefore(await operations.read(GROUP, { repoId }, id)),
  });

  // A bare list, in id order (ArchivesSpace's shape); `group_code` narrows it to one group.
  router.get(COLLECTION, async (req, res) => {
    const repoId = idParam(req, "repo_id");
    await caller(res, "read", repoId);
    const groupCode = scalarParam(req, "group_code");
    const ids = (await operations.list(GROUP, { repoId }, { mode: { kind: "allIds" } })) as number[];
    const groups = ids.length === 0 ? [] : await operations.list(GROUP, { repoId }, { mode: { kind: "idSet", ids } });
    res.json(
      groupCode === undefined
        ? groups
        : (groups as Array<Record<string, unknown>>).filter((group) => group.group_code === groupCode),
    );
  });

  router.post(COLLECTION, async (req, res) => {
    const repoId = idParam(req, "repo_id");
    const who = await caller(res, "create", repoId);
    const result = await operations.create(
      GROUP,
      { repoId },
      await prepareGroupInput(req.body, await context(who, repoId)),
      who,
    );
    res.json(result);
  });

  router.get(ITEM, async (req, res) => {
    const repoId = idParam(req, "repo_id");
    await caller(res, "read", repoId);
    res.json(await operations.read(GROUP, { repoId }, idParam(req, "id")));
  });

  router.post(ITEM, async (req, res) => {
    const repoId = idParam(req, "repo_id");
    const who = await caller(res, "update", repoId);
    const id = idParam(req, "id");
    const result = await operations.update(
      GROUP,
      { repoId },
      id,
      await prepareGroupInput(req.body, await context(who, repoId, id)),
      who,
    );
    res.json(result);
  });

  router.delete(ITEM, async (req, res) => {
    const repoId = idParam(req, "repo_id");
    const who = await caller(res, "delete", repoId);
    const id = idParam(req, "id");
    await assertMayChangeGroup(await context(who, repoId, id));
    const result = await operations.delete(GROUP, { repoId }, id, who);
    res.json(result);
  });

  return router;
}
