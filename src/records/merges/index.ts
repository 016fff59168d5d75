// Merging records (`POST /merge_requests/<kind>`, docs/api.md §18).
export { mergeController } from "./controller.js";
export { MergeOperations, MERGED, type MergeRequest } from "./operations.js";
export { mergeRecords, type MergeParty } from "./merge.js";
