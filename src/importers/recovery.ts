// What start-up does for imports (the service's and `npm run import`'s): undo the imports of
// processes that died mid-import (journal.ts) and remove the upload files they left (uploads.ts).
import type { RecordOperations } from "../records/operations/index.js";
import { sweepImports, type SweptImport } from "./journal.js";
import type { ImportLimits } from "./limits.js";
import { sweepUploads, UPLOAD_DIR } from "./uploads.js";

export interface Recovery {
  imports: SweptImport[];
  uploads: string[];
}

export async function recoverImports(
  ops: RecordOperations,
  limits: ImportLimits,
  uploadDir = UPLOAD_DIR,
): Promise<Recovery> {
  const imports = await sweepImports(ops, limits.journalLeaseSeconds);
  const uploads = await sweepUploads(uploadDir, limits.journalLeaseSeconds);
  return { imports, uploads };
}

/** One line per undone import, for the log. */
export function describeRecovery({ imports, uploads }: Recovery): string[] {
  const lines = imports.map(
    (swept) =>
      `undid the unfinished import of ${swept.file} into repository ${swept.repoId} (${swept.records} records written before its process died)`,
  );
  if (uploads.length > 0) lines.push(`removed ${uploads.length} upload file(s) left by processes that are gone`);
  return lines;
}
