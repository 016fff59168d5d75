// A worker: claims jobs from the queue one at a time and runs them, outside any request and (as `npm start` and
// `npm run worker` run it) outside the HTTP process. While a job runs its lease is renewed every second, which is
// also when a cancel is seen; the work stops before its next batch and what it wrote is undone.
//
// All or nothing, across crashes: each file's import is all or nothing by its journal (importers/journal.ts), and
// what a finished file wrote is noted on the job in the transaction that ends that journal entry. A run that fails,
// is canceled or whose worker stops undoes every file it finished; a run whose worker died is found by its lease
// (or, on this host, its dead process), and the next run first undoes what the job notes, while the journal's sweep
// undoes the file that was half-way. After JOB_MAX_ATTEMPTS runs that died, the job ends failed, nothing kept.
import { trusted } from "../auth/actor.js";
import { importFile } from "../importers/committer.js";
import { detectFormat, parserFor } from "../importers/formats.js";
import { undoBatches } from "../importers/journal.js";
import type { ImportLimits } from "../importers/limits.js";
import type { ImportSummary } from "../importers/pending.js";
import type { RecordOperations } from "../records/operations/index.js";
import { Readable } from "node:stream";
import type { JobFile, JobFiles } from "./job-files.js";
import { JobLog } from "./job-log.js";
import type { JobDocument, JobProgress, JobQueue } from "./job-queue.js";
import type { ImportJobSpec, ReportJobSpec } from "./job-types.js";
import { REPORTS, writeReport } from "./reports.js";

export interface WorkerOptions {
  operations: RecordOperations;
  queue: JobQueue;
  files: JobFiles;
  limits: ImportLimits;
  /** How often an idle worker looks for a job. */
  pollMs: number;
  /** Runs of a job whose worker died before it ends failed. */
  maxAttempts: number;
  /** Records per write batch of an import (JobsConfig.batchRecords). */
  batchRecords: number;
  /** How often a running job's lease is renewed and a cancel looked for (default every second). */
  heartbeatMs?: number;
  /** Where the worker says what it does (default nowhere). */
  say?(line: string): void;
}

const HEARTBEAT_MS = 1_000;
const ORPHAN_SWEEP_MS = 3600_000;
const STOPPING = "the worker is stopping";
const CANCELED = "canceled";
const LEASE_LOST = "the job's lease ran out and another worker took it over";

/** How a run ended. */
type Outcome = "completed" | "failed" | "canceled";

class Run {
  readonly abort = new AbortController();
  progress: JobProgress | undefined;

  constructor(readonly job: JobDocument) {}

  get stopReason(): string | undefined {
    return this.abort.signal.aborted ? String(this.abort.signal.reason) : undefined;
  }
}

export class JobWorker {
  private running: Run | undefined;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private lastSweep = 0;

  constructor(private readonly options: WorkerOptions) {}

  /** Claims and runs jobs until stopped. */
  start(): void {
    this.loop ??= this.claimLoop();
  }

  /** Stops claiming; a running job is stopped, undone and given back to the queue. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.running?.abort.abort(STOPPING);
    this.wake?.();
    await this.loop;
  }

  private async claimLoop(): Promise<void> {
    while (!this.stopped) {
      let ran = false;
      try {
        ran = await this.runOne();
        await this.sweepOrphans();
      } catch (error) {
        this.options.say?.(`job worker: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (ran || this.stopped) continue;
      await new Promise<void>((resume) => {
        const timer = setTimeout(resume, this.options.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resume();
        };
      });
    }
  }

  private async sweepOrphans(): Promise<void> {
    if (Date.now() - this.lastSweep < ORPHAN_SWEEP_MS) return;
    this.lastSweep = Date.now();
    const { queue, files } = this.options;
    await files.removeOrphans(
      async (jobId) => (await queue.jobs.countDocuments({ _id: jobId })) > 0,
      new Date(Date.now() - ORPHAN_SWEEP_MS),
    );
  }

  /** Claims one job and runs it; false when there was none. */
  async runOne(): Promise<boolean> {
    const job = await this.options.queue.claim();
    if (job === undefined) return false;
    const run = new Run(job);
    this.running = run;
    const log = new JobLog(this.options.operations.deps.store.connection, job._id);
    const heartbeat = setInterval(() => void this.beat(run), this.options.heartbeatMs ?? HEARTBEAT_MS);
    try {
      const outcome = await this.execute(run, log);
      await log.close();
      if (outcome !== undefined) await this.options.queue.finish(job._id, outcome);
    } finally {
      clearInterval(heartbeat);
      await log.close();
      this.running = undefined;
    }
    return true;
  }

  private async beat(run: Run): Promise<void> {
    try {
      const { held, cancel } = await this.options.queue.renew(run.job._id, run.progress);
      if (!held) run.abort.abort(LEASE_LOST);
      else if (cancel) run.abort.abort(CANCELED);
    } catch {
      // The store is unreachable: the next beat tries again, or the lease runs out.
    }
  }

  /** Runs the job; answers how it ended, or undefined when it is no longer this worker's to end. */
  private async execute(run: Run, log: JobLog): Promise<Outcome | undefined> {
    const { job } = run;
    const { queue, files, maxAttempts } = this.options;
    if (job.attempts > 1) log.line(`Run ${job.attempts}: the worker of the run before stopped without ending it`);
    // What an earlier run finished (it died before the job ended) goes first, and its outputs.
    await this.undo(job, log);
    await files.removeAll(job._id, "output");
    if (job.cancel_requested === true) {
      log.line("Canceled before it ran");
      return "canceled";
    }
    if (job.attempts > maxAttempts) {
      log.line(`Failed: its worker stopped ${job.attempts - 1} times before it ended (JOB_MAX_ATTEMPTS)`);
      return "failed";
    }
    let outcome: Outcome;
    try {
      outcome =
        job.spec.job_type === "import_job"
          ? await this.importFiles(run, job.spec, log)
          : await this.report(run, job.spec, log);
    } catch (error) {
      log.line(`Error: ${error instanceof Error ? error.message : String(error)}`);
      outcome = "failed";
    }
    const reason = run.stopReason;
    if (reason === LEASE_LOST) {
      log.line("Stopped: the job's lease ran out and another worker took it over");
      return undefined;
    }
    if (outcome !== "completed") {
      await this.options.files.removeAll(job._id, "output");
      await this.undo((await queue.jobs.findOne({ _id: job._id })) ?? job, log);
      if (reason === STOPPING) {
        log.line("Stopped with its worker; nothing kept, queued again");
        await log.close();
        await queue.release(job._id);
        return undefined;
      }
      if (reason === CANCELED) outcome = "canceled";
    }
    log.line(
      outcome === "completed"
        ? "Completed"
        : outcome === "canceled"
          ? "Canceled; nothing kept"
          : "Failed; nothing kept",
    );
    return outcome;
  }

  /** Undoes what the job notes its runs wrote. */
  private async undo(job: JobDocument, log: JobLog): Promise<void> {
    if (job.created.length === 0) return;
    const count = job.created.reduce((sum, batch) => sum + batch.count, 0);
    await undoBatches(this.options.operations, job.repo_id, job.created, trusted(job.owner));
    await this.options.queue.clearCreated(job._id);
    log.line(`Undid the ${count} records an unfinished run wrote`);
  }

  private async importFiles(run: Run, spec: ImportJobSpec, log: JobLog): Promise<Outcome> {
    const { operations, files, queue, limits } = this.options;
    const { job } = run;
    const inputs = await files.list(job._id, "input");
    const summaries: ImportSummary[] = [];
    for (const [index, file] of inputs.entries()) {
      const format = await this.formatOf(file, spec);
      if (format === undefined) {
        log.line(`${file.name}: not ${spec.import_type} (${spec.formats.join(" or ")}) as far as its first bytes tell`);
        return "failed";
      }
      log.line(`Importing ${file.name} (${format}, ${file.length} bytes), file ${index + 1} of ${inputs.length}`);
      const opened = await files.open(job._id, file.id, "input");
      if (opened === undefined) throw new Error(`the job's file ${file.name} is gone`);
      const summary = await importFile(
        operations,
        parserFor(format, operations.deps, limits),
        { name: file.name, open: () => opened.read(), size: file.length },
        {
          repoId: job.repo_id,
          actor: trusted(job.owner),
          limits,
          batchSize: this.options.batchRecords,
          signal: run.abort.signal,
          onProgress: (progress) => (run.progress = progress),
          onWarning: (warning) => log.line(`Warning: ${describe(warning)}`),
          complete: (session, written) => queue.noteCreated(job._id, written, session),
        },
      );
      summaries.push(summary);
      const created = Object.entries(summary.created).map(([type, count]) => `${count} ${type}`);
      if (summary.outcome === "failed") {
        for (const error of summary.errors) log.line(`Error: ${describe(error)}`);
        return "failed";
      }
      log.line(
        summary.outcome === "skipped"
          ? `${file.name}: imported before (${summary.uris.join(", ")}); nothing written`
          : `${file.name}: created ${created.join(", ") || "nothing"}`,
      );
    }
    const text = JSON.stringify(summaries, null, 2);
    await files.save(job._id, "output", "import-summary.json", Readable.from([Buffer.from(text)]), {
      contentType: "application/json",
    });
    return "completed";
  }

  private async formatOf(file: JobFile, spec: ImportJobSpec) {
    if (spec.formats.length === 1) return spec.formats[0];
    const detected = detectFormat(file.name, await this.options.files.head(file, 4096));
    return detected !== undefined && spec.formats.includes(detected) ? detected : undefined;
  }

  private async report(run: Run, spec: ReportJobSpec, log: JobLog): Promise<Outcome> {
    const { job } = run;
    const definition = REPORTS.get(spec.report_type);
    if (definition === undefined) throw new Error(`no report ${spec.report_type}`);
    log.line(`Writing ${definition.title} as CSV`);
    const output = await this.options.files.create(job._id, `${spec.report_type}.csv`, "text/csv; charset=utf-8");
    let rows: number;
    try {
      const { store, registry } = this.options.operations.deps;
      rows = await writeReport(store, registry, definition, job.repo_id, output.stream, () => run.stopReason);
    } catch (error) {
      await output.stream.abort().catch(() => undefined);
      throw error;
    }
    run.progress = { records: rows, bytes: 0 };
    log.line(`${rows} rows`);
    return "completed";
  }
}

function describe(message: { message: string; file?: string; line?: number; path?: string }): string {
  const where = [message.file, message.line !== undefined ? `line ${message.line}` : undefined, message.path]
    .filter(Boolean)
    .join(", ");
  return where === "" ? message.message : `${where}: ${message.message}`;
}
