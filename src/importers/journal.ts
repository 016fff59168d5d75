// The import journal: what makes an import all or nothing across crashes. Before an import's
// writing pass, an entry in the store names the import (repository, file, owner process) and
// holds a lease that a heartbeat renews while the import runs; before each batch is written,
// the entry notes its type and the ids allocated to it (ids come from a counter that never hands
// a number out twice, so an id range names exactly the records that batch wrote, and nothing
// needs to be stored in the records themselves). A finished import removes its entry; one that
// fails undoes its writes in-process and removes it. What is left is an import whose process
// died: a sweep (at start-up, in `npm run import`, and before every import) undoes the writes of
// every entry whose owner is known dead (same host, process gone) or whose lease expired, then
// removes the entry. A live import elsewhere keeps renewing its lease, so two Arca processes on
// one store never undo each other's imports.
import { randomUUID } from "node:crypto";
import type { ClientSession, Collection } from "mongodb";
import type { RecordStore } from "../storage/record-store.js";
import { trusted, type Actor, type RecordOperations } from "../records/operations/index.js";
import { isTreeNodeType, nodeLinks } from "../records/trees/tree-links.js";
import { ImportError } from "./pending.js";
import { ownerGone, THIS_PROCESS, type ProcessOwner } from "./processes.js";

export const JOURNAL_COLLECTION = "arca_import_journal";

/** The records one write batch created: ids first .. first + count - 1 of a type. */
export interface WrittenBatch {
  type: string;
  first: number;
  count: number;
}

interface JournalEntry {
  _id: string;
  repo_id: number;
  file: string;
  format: string;
  username: string;
  owner: ProcessOwner;
  started: Date;
  lease_until: Date;
  batches: WrittenBatch[];
}

function journal(ops: RecordOperations): Collection<JournalEntry> {
  return ops.deps.store.connection.collection<JournalEntry>(JOURNAL_COLLECTION) as unknown as Collection<JournalEntry>;
}

const leaseEnd = (seconds: number): Date => new Date(Date.now() + seconds * 1000);

/**
 * Deletes what the batches wrote, last first. Tree nodes that joined trees the batches did not
 * create go one by one through the record operations, so their trees close the gaps they opened
 * (the only existing records an import changes are the siblings a new node shifted); the rest
 * are deleted by id range.
 */
export async function undoBatches(
  ops: RecordOperations,
  repoId: number,
  batches: readonly WrittenBatch[],
  actor: Actor,
): Promise<void> {
  const { registry, store } = ops.deps;
  const written = (uri: string): boolean => {
    const parsed = registry.parseUri(uri);
    return (
      parsed !== undefined &&
      batches.some(
        (batch) => batch.type === parsed.type && parsed.id >= batch.first && parsed.id < batch.first + batch.count,
      )
    );
  };
  for (const batch of [...batches].reverse()) {
    const type = registry.get(batch.type);
    const scope = type.scope === "repository" ? { repoId } : {};
    const filter = {
      id: { $gte: batch.first, $lt: batch.first + batch.count },
      ...(type.scope === "repository" && { repo_id: repoId }),
    };
    const collection = store.collection(batch.type);
    if (isTreeNodeType(type)) {
      const docs = await collection.find(filter).toArray();
      const foreign = docs
        .filter((doc) => !written(nodeLinks(type, doc).rootUri))
        .map((doc) => doc.id)
        .reverse();
      // A node another undo step (or a cascade) already took answers 404: nothing left to do.
      for (const id of foreign) await ops.delete(batch.type, scope, id, actor).catch(() => undefined);
    }
    const { deletedCount } = await collection.deleteMany(filter);
    if (deletedCount > 0) {
      const ids = { first: batch.first, end: batch.first + batch.count };
      await ops.deps.changes.written({ type: batch.type, operation: "delete", ids, scope });
    }
  }
}

/**
 * One running import's entry: notes batches before they are written, renews its lease, and goes when the import ends.
 */
export class JournalTicket {
  private readonly heartbeat: NodeJS.Timeout;
  private lost = false;
  /** The entry's batches as noted so far (this process alone writes them). */
  private readonly noted: WrittenBatch[] = [];

  constructor(
    private readonly store: RecordStore,
    private readonly entries: Collection<JournalEntry>,
    readonly id: string,
    private readonly leaseSeconds: number,
  ) {
    // Three beats per lease: one late or failed beat does not let the lease run out.
    this.heartbeat = setInterval(() => void this.renew(), (leaseSeconds * 1000) / 3);
    this.heartbeat.unref();
  }

  private async renew(): Promise<void> {
    try {
      const { matchedCount } = await this.entries.updateOne(
        { _id: this.id, "owner.process": THIS_PROCESS.process },
        { $set: { lease_until: leaseEnd(this.leaseSeconds) } },
      );
      if (matchedCount === 0) this.lost = true;
    } catch {
      // The store is unreachable: the next batch's note fails the import, or the lease runs out and a sweep undoes it.
    }
  }

  /**
   * Called before a batch is written; fails the import when another process has taken the entry over (its lease ran
   * out).
   */
  async noteBatch(batch: WrittenBatch): Promise<void> {
    // A batch whose ids follow on from the last one's, of its type, lengthens that range: the ids of one import's
    // batches mostly do (one counter, one writer), so the entry stays a few ranges long. Pushed one per batch, a job's
    // 25-record batches made it thousands long, each note rewriting (and journalling) the whole entry again.
    const last = this.noted.at(-1);
    const follows = last !== undefined && last.type === batch.type && last.first + last.count === batch.first;
    const change = follows
      ? { $inc: { [`batches.${this.noted.length - 1}.count`]: batch.count } }
      : { $push: { batches: { ...batch } } };
    const { matchedCount } = this.lost
      ? { matchedCount: 0 }
      : await this.entries.updateOne(
          { _id: this.id, "owner.process": THIS_PROCESS.process },
          { ...change, $set: { lease_until: leaseEnd(this.leaseSeconds) } },
        );
    if (matchedCount === 0) {
      this.lost = true;
      throw new ImportError(
        "the import's journal lease ran out (the process stalled longer than IMPORT_JOURNAL_LEASE_SECONDS) and another process undid it; import the file again",
      );
    }
    if (follows) this.noted[this.noted.length - 1] = { ...last, count: last.count + batch.count };
    else this.noted.push({ ...batch });
  }

  /**
   * The import ended (finished, or failed and undone in-process): the entry goes, with `alongside` in the same
   * transaction when given (the entry must still be this process's: one taken over fails it, and the heartbeat goes
   * on until it commits).
   */
  async close(alongside?: (session: ClientSession) => Promise<void>): Promise<void> {
    const mine = { _id: this.id, "owner.process": THIS_PROCESS.process };
    if (alongside !== undefined) {
      await this.store.transaction(async (session) => {
        const { deletedCount } = await this.entries.deleteOne(mine, { session });
        if (deletedCount === 0) throw new ImportError("the import's journal entry was taken over by another process");
        await alongside(session);
      });
    }
    clearInterval(this.heartbeat);
    if (alongside === undefined) await this.entries.deleteOne(mine);
  }

  /** The import ended but its undo failed: the heartbeat stops, so the lease runs out and a sweep finishes the undo. */
  abandon(): void {
    clearInterval(this.heartbeat);
  }
}

export interface JournalStart {
  repoId: number;
  file: string;
  format: string;
  username: string;
  leaseSeconds: number;
}

/** Writes the entry of an import about to write. */
export async function beginImport(ops: RecordOperations, start: JournalStart): Promise<JournalTicket> {
  const entries = journal(ops);
  const id = randomUUID();
  const now = new Date();
  await entries.insertOne({
    _id: id,
    repo_id: start.repoId,
    file: start.file,
    format: start.format,
    username: start.username,
    owner: THIS_PROCESS,
    started: now,
    lease_until: leaseEnd(start.leaseSeconds),
    batches: [],
  });
  return new JournalTicket(ops.deps.store, entries, id, start.leaseSeconds);
}

/** What a sweep undid. */
export interface SweptImport {
  id: string;
  repoId: number;
  file: string;
  records: number;
}

/**
 * Undoes every import whose process is gone: entries whose owner is known dead, or whose lease
 * ran out. Each entry is claimed first (one atomic update that only succeeds while the entry is
 * as it was read), so two processes sweeping at once do not both undo it, and a live owner that
 * renewed its lease in between keeps it.
 */
export async function sweepImports(ops: RecordOperations, leaseSeconds: number): Promise<SweptImport[]> {
  const entries = journal(ops);
  const swept: SweptImport[] = [];
  const now = new Date();
  for (const entry of await entries.find({ "owner.process": { $ne: THIS_PROCESS.process } }).toArray()) {
    if (!(ownerGone(entry.owner) || entry.lease_until.getTime() < now.getTime())) continue;
    const claimed = await entries.findOneAndUpdate(
      { _id: entry._id, "owner.process": entry.owner.process, lease_until: entry.lease_until },
      { $set: { owner: THIS_PROCESS, lease_until: leaseEnd(leaseSeconds) } },
    );
    if (claimed === null) continue;
    await undoBatches(ops, entry.repo_id, entry.batches, trusted(entry.username));
    await entries.deleteOne({ _id: entry._id });
    swept.push({
      id: entry._id,
      repoId: entry.repo_id,
      file: entry.file,
      records: entry.batches.reduce((sum, batch) => sum + batch.count, 0),
    });
  }
  return swept;
}
