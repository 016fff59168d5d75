// A job's log: lines a worker writes as the job runs (what it is doing, every warning of its imports, how it ended),
// readable while it grows (GET …/jobs/:id/log?offset= answers the bytes after `offset`, as ArchivesSpace's does, so a
// client polls with the length it has). Lines are buffered and written a group at a time; a run logs at most
// MAX_LINES lines, then says how many it left out.
import type { Collection, Connection } from "mongoose";

export const JOB_LOGS_COLLECTION = "arca_job_logs";
const MAX_LINES = 10_000;
const MAX_LINE_CHARS = 2_000;
const FLUSH_MS = 500;

interface LogChunk {
  job_id: number;
  at: Date;
  text: string;
}

export function logCollection(connection: Connection): Collection<LogChunk> {
  return connection.collection<LogChunk>(JOB_LOGS_COLLECTION) as unknown as Collection<LogChunk>;
}

export async function initLogs(connection: Connection): Promise<void> {
  await logCollection(connection).createIndex({ job_id: 1, at: 1, _id: 1 });
}

/** The job's log as bytes, from `offset` on (empty past its end). */
export async function readLog(connection: Connection, jobId: number, offset: number): Promise<Buffer> {
  const chunks = await logCollection(connection)
    .find({ job_id: jobId }, { projection: { text: 1 } })
    .sort({ at: 1, _id: 1 })
    .toArray();
  const whole = Buffer.from(chunks.map((chunk) => chunk.text).join(""), "utf8");
  return whole.subarray(Math.min(offset, whole.length));
}

export async function removeLog(connection: Connection, jobId: number): Promise<void> {
  await logCollection(connection).deleteMany({ job_id: jobId });
}

/** One run's writer of a job's log. */
export class JobLog {
  private buffered: string[] = [];
  private lines = 0;
  private omitted = 0;
  private readonly timer: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly connection: Connection,
    private readonly jobId: number,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  line(message: string): void {
    if (this.lines >= MAX_LINES) {
      this.omitted++;
      return;
    }
    this.lines++;
    const bounded = message.length > MAX_LINE_CHARS ? `${message.slice(0, MAX_LINE_CHARS)}…` : message;
    this.buffered.push(`${new Date().toISOString()} ${bounded.replace(/\r?\n/g, " ")}\n`);
  }

  /** Writes what is buffered (a failed write is retried with the next group: a log line is never worth a job). */
  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (this.buffered.length === 0) return;
      // Taken before the write: lines logged while it runs go with the next group.
      const group = this.buffered.splice(0);
      try {
        await logCollection(this.connection).insertOne({ job_id: this.jobId, at: new Date(), text: group.join("") });
      } catch {
        this.buffered.unshift(...group); // kept for the next flush
      }
    });
    return this.writing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    if (this.omitted > 0) {
      this.buffered.push(`${new Date().toISOString()} … ${this.omitted} more lines not logged\n`);
      this.omitted = 0;
    }
    await this.flush();
  }
}
