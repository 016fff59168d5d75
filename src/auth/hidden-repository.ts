// The hidden global repository (id 1) holds groups that grant permissions everywhere, and no
// records: ArchivesSpace hides it, and a record there would be visible to no repository's
// users. Every route that writes records into a repository (the record and tree routes through
// route-guard.ts, the imports) refuses it, whoever calls, administrators included.
import { ApiError } from "../errors/api-error.js";
import { GLOBAL_REPOSITORY_ID } from "./permissions.js";

export const HIDDEN_REPOSITORY_MESSAGE = "The global repository holds no records";

/** @throws ApiError 403 when `repoId` is the hidden global repository */
export function assertRepositoryTakesRecords(repoId: number | undefined): void {
  if (repoId === GLOBAL_REPOSITORY_ID) throw new ApiError(403, HIDDEN_REPOSITORY_MESSAGE);
}
