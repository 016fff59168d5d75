// The job queue: jobs as documents in the store, which every API node adds to and every worker claims from, so any
// number of each share one queue. A worker claims the oldest runnable job with one atomic update that sets its lease
// (a runnable job is queued, or running under a lease that ran out or whose owner is known dead); it renews the lease
// while it runs, and everything it writes about the job is conditioned on still holding it, so a worker that stalled
// and lost its job cannot overwrite what its successor does. Job ids come from the counters every record id comes
// from; a job's log is a collection of lines beside it (job-log.ts), its files are in GridFS (job-files.ts).
import type { ClientSession, Collection, Connection } from "mongoose";
import { nextIds } from "../storage/record-store.js";
import type { WrittenBatch } from "../importers/journal.js";
import { ownerGone, THIS_PROCESS, type ProcessOwner } from "../importers/processes.js";
import type { JobSpec } from "./job-types.js";

export const JOBS_COLLECTION = "arca_jobs";
const JOB_IDS = "job";

export const JOB_STATUSES = ["queued", "running", "completed", "failed", "canceled"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const ACTIVE_STATUSES: readonly JobStatus[] = ["queued", "running"];

/** How far a running job is: records handled, bytes of its input read, of how many. */
export interface JobProgress {
  records: number;
  bytes: number;
  size?: number;
}

export interface JobDocument {
  _id: number;
  repo_id: number;
  spec: JobSpec;
  owner: string;
  status: JobStatus;
  time_submitted: Date;
  time_started?: Date;
  time_finished?: Date;
  system_mtime: Date;
  /** Runs begun (a run whose worker died counts). */
  attempts: number;
  /** The worker that holds the job while it runs, and until when. */
  lease?: { owner: ProcessOwner; until: Date };
  cancel_requested?: boolean;
  progress?: JobProgress;
  /** What the job's imports wrote (type and id ranges): its created records, and what a failed run undoes. */
  created: WrittenBatch[];
  /** The input files' names, in the order given (their GridFS ids are job-files.ts's). */
  filenames: string[];
}

export function jobsCollection(connection: Connection): Collection<JobDocument> {
  return connection.collection<JobDocument>(JOBS_COLLECTION) as unknown as Collection<JobDocument>;
}

const leaseEnd = (seconds: number): Date => new Date(Date.now() + seconds * 1000);

/** The filter that holds only while this process still holds the job's lease. */
const held = (id: number) => ({ _id: id, status: "running" as const, "lease.owner.process": THIS_PROCESS.process });

export class JobQueue {
  readonly jobs: Collection<JobDocument>;

  constructor(
    private readonly connection: Connection,
    private readonly leaseSeconds: number,
  ) {
    this.jobs = jobsCollection(connection);
  }

  async init(): Promise<void> {
    await this.jobs.createIndex({ status: 1, _id: 1 });
    await this.jobs.createIndex({ repo_id: 1, _id: -1 });
    await this.jobs.createIndex({ repo_id: 1, time_finished: -1 });
  }

  /** A new job's id, allocated before its files are stored under it. */
  newId(): Promise<number> {
    return nextIds(this.connection, JOB_IDS, 1);
  }

  async submit(id: number, repoId: number, owner: string, spec: JobSpec, filenames: string[]): Promise<JobDocument> {
    const now = new Date();
    const job: JobDocument = {
      _id: id,
      repo_id: repoId,
      spec,
      owner,
      status: "queued",
      time_submitted: now,
      system_mtime: now,
      attempts: 0,
      created: [],
      filenames,
    };
    await this.jobs.insertOne(job);
    return job;
  }

  /**
   * The oldest runnable job, now this process's: queued, or running under a lease that ran out or whose worker is
   * known dead (same host, process gone). Undefined when there is none.
   */
  async claim(): Promise<JobDocument | undefined> {
    await this.expireDeadOwners();
    const now = new Date();
    const claimed = await this.jobs.findOneAndUpdate(
      { $or: [{ status: "queued" }, { status: "running", "lease.until": { $lt: now } }] },
      {
        $set: {
          status: "running",
          lease: { owner: THIS_PROCESS, until: leaseEnd(this.leaseSeconds) },
          time_started: now,
          system_mtime: now,
        },
        $inc: { attempts: 1 },
      },
      { sort: { _id: 1 }, returnDocument: "after" },
    );
    return claimed ?? undefined;
  }

  /** Running jobs of workers of this host that are gone have their leases ended, so they are claimed at once. */
  private async expireDeadOwners(): Promise<void> {
    const running = await this.jobs
      .find({ status: "running", "lease.owner.host": THIS_PROCESS.host }, { projection: { lease: 1 } })
      .toArray();
    for (const job of running) {
      if (job.lease === undefined || !ownerGone(job.lease.owner)) continue;
      await this.jobs.updateOne(
        { _id: job._id, "lease.owner.process": job.lease.owner.process },
        { $set: { "lease.until": new Date(0) } },
      );
    }
  }

  /**
   * Renews the lease and notes progress; answers whether the job is still this worker's and whether a cancel was
   * asked for (the worker stops between batches).
   */
  async renew(id: number, progress?: JobProgress): Promise<{ held: boolean; cancel: boolean }> {
    const job = await this.jobs.findOneAndUpdate(
      held(id),
      { $set: { "lease.until": leaseEnd(this.leaseSeconds), ...(progress && { progress }) } },
      { projection: { cancel_requested: 1 }, returnDocument: "after" },
    );
    return { held: job !== null, cancel: job?.cancel_requested === true };
  }

  /** Notes what a run wrote, with the import that wrote it (`session`: its journal's closing transaction). */
  async noteCreated(id: number, written: readonly WrittenBatch[], session: ClientSession): Promise<void> {
    const { matchedCount } = await this.jobs.updateOne(
      held(id),
      { $push: { created: { $each: [...written] } } },
      { session },
    );
    if (matchedCount === 0) throw new Error("the job's lease ran out and another worker took it over");
  }

  /** Ends a held job; false when it is no longer this worker's. */
  async finish(id: number, status: "completed" | "failed" | "canceled", session?: ClientSession): Promise<boolean> {
    const now = new Date();
    const { matchedCount } = await this.jobs.updateOne(
      held(id),
      { $set: { status, time_finished: now, system_mtime: now }, $unset: { lease: "" } },
      { session },
    );
    return matchedCount === 1;
  }

  /** Gives a held job back to the queue (its worker is stopping), with what it wrote already undone. */
  async release(id: number): Promise<void> {
    await this.jobs.updateOne(held(id), {
      $set: { status: "queued", created: [], system_mtime: new Date() },
      $unset: { lease: "", progress: "" },
      $inc: { attempts: -1 },
    });
  }

  /** Forgets what a run wrote, once undone. */
  async clearCreated(id: number): Promise<void> {
    await this.jobs.updateOne(held(id), { $set: { created: [] } });
  }

  /**
   * Cancels a job: a queued one at once, a running one by asking its worker (which stops before its next batch and
   * undoes what it wrote). Answers the job as it is after; undefined when there is no such job.
   */
  async cancel(repoId: number, id: number): Promise<JobDocument | undefined> {
    const now = new Date();
    const queued = await this.jobs.findOneAndUpdate(
      { _id: id, repo_id: repoId, status: "queued" },
      { $set: { status: "canceled", time_finished: now, system_mtime: now } },
      { returnDocument: "after" },
    );
    if (queued !== null) return queued;
    const running = await this.jobs.findOneAndUpdate(
      { _id: id, repo_id: repoId, status: "running" },
      { $set: { cancel_requested: true, system_mtime: now } },
      { returnDocument: "after" },
    );
    return running ?? (await this.read(repoId, id)) ?? undefined;
  }

  /**
   * The places in the queue of those of `jobs` that are queued (1: next). The queue is every repository's (workers
   * take the oldest anywhere): one read of the queued ids up to the last of them.
   */
  async positions(jobs: readonly JobDocument[]): Promise<Map<number, number>> {
    const queued = jobs.filter((job) => job.status === "queued").map((job) => job._id);
    const places = new Map<number, number>();
    if (queued.length === 0) return places;
    const ahead = await this.jobs
      .find({ status: "queued", _id: { $lte: Math.max(...queued) } }, { projection: { _id: 1 } })
      .sort({ _id: 1 })
      .toArray();
    ahead.forEach((job, index) => places.set(job._id, index + 1));
    return places;
  }

  read(repoId: number, id: number): Promise<JobDocument | null> {
    return this.jobs.findOne({ _id: id, repo_id: repoId });
  }

  /** Deletes a job that is not active; false when there is none. @throws ActiveJobError */
  async delete(repoId: number, id: number): Promise<boolean> {
    const { deletedCount } = await this.jobs.deleteOne({
      _id: id,
      repo_id: repoId,
      status: { $nin: [...ACTIVE_STATUSES] },
    });
    if (deletedCount === 1) return true;
    if ((await this.read(repoId, id)) !== null) throw new ActiveJobError();
    return false;
  }
}

/** A queued or running job cannot be deleted: it is canceled first. */
export class ActiveJobError extends Error {
  constructor() {
    super("The job is queued or running: cancel it first");
  }
}
