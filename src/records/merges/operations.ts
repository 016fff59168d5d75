// The merge requests (`POST /merge_requests/<kind>`), transport-free: who may make one, what a request may name,
// and ArchivesSpace's answers (backend/app/controllers/merge_request.rb). Every refusal ArchivesSpace makes of a
// merge is a 400 naming its body (`{"error": {"merge_request": ["..."]}}`, its BadParamsException and
// MergeRequestFailed), so these are too; a record that does not exist is a 404 as on any route.
import { accessDenied, ApiError, badRequest } from "../../errors/api-error.js";
import { hasPermission, hasPermissionAnywhere } from "../../auth/permissions.js";
import type { JsonObject } from "../../registry/index.js";
import { duplicateKeyPattern } from "../../storage/record-store.js";
import type { OperationDeps } from "../deps.js";
import { findStored } from "../operations/locate.js";
import type { Actor } from "../types.js";
import { applySelections, previewSelections } from "./agent-detail.js";
import { mergeRecords, type MergeParty, type TargetAdjustment } from "./merge.js";
import { MERGE_ROUTES, type MergeKind, type MergeRoute } from "./merge-routes.js";
import { readMergeRefs } from "./request.js";

export interface MergeRequest {
  kind: MergeKind;
  body: unknown;
  /** `?repo_id=` of a repository's route (read and checked by the caller: a whole number). */
  repoId?: number;
  /** The agent detail merge's `dry_run`: answer the target as it would be, merge nothing. */
  dryRun?: boolean;
}

/** What a merge answers, as ArchivesSpace 2.x does. */
export const MERGED = { status: "OK" } as const;

/** Whether `actor` may make a merge of `route` (in repository `repoId` for a repository's route). */
export function mayMerge(actor: Actor, route: MergeRoute, repoId: number | undefined): boolean {
  if (actor.kind === "trusted") return true;
  if (actor.kind === "anonymous") return false;
  const map = actor.permissions;
  if (route.impliedBy !== undefined && hasPermissionAnywhere(map, route.impliedBy)) return true;
  return route.inRepository
    ? hasPermission(map, route.permission, repoId)
    : hasPermissionAnywhere(map, route.permission);
}

export class MergeOperations {
  constructor(private readonly deps: OperationDeps) {}

  /**
   * Carries out a merge request: `{"status": "OK"}`, or with `dryRun` on the agent detail route, the target as the
   * merge would leave it.
   * @throws ApiError 403 without the route's permission; 400 for a malformed body, a record of another type or
   * repository than the route's, a target merged into itself, or a merge the schemas do not allow; 404 for a record
   * that does not exist
   */
  async merge(request: MergeRequest, actor: Actor): Promise<JsonObject> {
    const route = MERGE_ROUTES[request.kind];
    if (!mayMerge(actor, route, request.repoId)) throw accessDenied();
    const refs = readMergeRefs(request.body);
    const refuse = (message: string): never => {
      throw badRequest({ [route.bodyName]: [message] });
    };
    const party = (uri: string): MergeParty => {
      const parsed = this.deps.registry.parseUri(uri);
      if (route.inRepository && (parsed === undefined || parsed.repoId !== request.repoId))
        refuse("All records to merge must be in the repository specified");
      if (parsed === undefined || !route.types.includes(parsed.type)) return refuse(route.wrongType);
      const type = this.deps.registry.get(parsed.type);
      return { type, id: parsed.id, scope: parsed.repoId === undefined ? {} : { repoId: parsed.repoId }, uri };
    };
    const target = party(refs.target);
    // As in ArchivesSpace, the target named among the victims is not merged into itself.
    const victims = refs.victims.filter((uri) => uri !== refs.target).map(party);
    if (victims.length === 0) refuse("A record cannot be merged into itself: name another record to merge");
    let adjust: TargetAdjustment | undefined;
    if (request.kind === "agent_detail") {
      const first = victims[0] as MergeParty;
      if (first.type !== target.type) refuse("An agent detail merge takes an agent of the target's type first");
      const selections = refs.selections ?? {};
      if (request.dryRun === true) {
        const stored = await findStored(this.deps, target.type, target.id, target.scope);
        for (const victim of victims) await findStored(this.deps, victim.type, victim.id, victim.scope);
        const victim = await findStored(this.deps, first.type, first.id, first.scope);
        return previewSelections(this.deps, target.type, stored, victim, selections);
      }
      if (Object.keys(selections).length > 0) {
        const firstUri = first.uri;
        adjust = (merged, victimDocs) => {
          const victim = victimDocs[victims.findIndex((party) => party.uri === firstUri)];
          return applySelections(this.deps, target.type, merged, victim!, selections);
        };
      }
    }
    try {
      await mergeRecords(this.deps, target, victims, actor, refuse, adjust);
    } catch (error) {
      // A moved tree node whose identifier the target's tree already has (an archival object's ref_id).
      if (!(error instanceof ApiError) && duplicateKeyPattern(error) !== undefined) {
        const fields = Object.keys(duplicateKeyPattern(error) ?? {}).join(", ");
        refuse(`Can't complete merge: a record moved to the target would repeat one already there (${fields})`);
      }
      throw error;
    }
    return { ...MERGED };
  }
}
