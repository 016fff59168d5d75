// A job as the job routes answer it, in ArchivesSpace's shape (its job schema), with what Arca adds: how many runs
// it took and how far the running one is.
import type { Registry } from "../registry/index.js";
import type { WrittenBatch } from "../importers/journal.js";
import type { JobDocument } from "./job-queue.js";

export function jobUri(repoId: number, id: number): string {
  return `/repositories/${repoId}/jobs/${id}`;
}

/** `position`: a queued job's place in the queue (1: next). */
export function jobJson(job: JobDocument, position?: number): Record<string, unknown> {
  const { spec } = job;
  const inner =
    spec.job_type === "import_job"
      ? { jsonmodel_type: "import_job", import_type: spec.import_type, filenames: job.filenames }
      : { jsonmodel_type: "report_job", report_type: spec.report_type, format: spec.format };
  return {
    jsonmodel_type: "job",
    id: job._id,
    uri: jobUri(job.repo_id, job._id),
    lock_version: 0,
    job_type: spec.job_type,
    job: inner,
    owner: job.owner,
    created_by: job.owner,
    status: job.status,
    time_submitted: job.time_submitted.toISOString(),
    ...(job.time_started && job.status !== "queued" && { time_started: job.time_started.toISOString() }),
    ...(job.time_finished && { time_finished: job.time_finished.toISOString() }),
    ...(position !== undefined && { queue_position: position }),
    create_time: job.time_submitted.toISOString(),
    system_mtime: job.system_mtime.toISOString(),
    attempts: job.attempts,
    ...(job.progress && job.status === "running" && { progress: job.progress }),
    ...(job.cancel_requested === true && job.status === "running" && { cancel_requested: true }),
  };
}

/** The uris a job's imports created, `skip` .. `skip + limit`, in the order written, and how many there are. */
export function createdUris(
  registry: Registry,
  repoId: number,
  batches: readonly WrittenBatch[],
  skip: number,
  limit: number,
): { total: number; uris: string[] } {
  const total = batches.reduce((sum, batch) => sum + batch.count, 0);
  const uris: string[] = [];
  let offset = 0;
  for (const batch of batches) {
    const from = Math.max(skip - offset, 0);
    const to = Math.min(skip + limit - offset, batch.count);
    for (let i = from; i < to; i++) {
      const type = registry.get(batch.type);
      uris.push(registry.uriFor(batch.type, batch.first + i, type.scope === "repository" ? repoId : undefined));
    }
    offset += batch.count;
    if (offset >= skip + limit) break;
  }
  return { total, uris };
}
