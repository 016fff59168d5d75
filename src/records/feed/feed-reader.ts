// Reading the change feed: what came after a sequence number, in order, optionally waiting for it (long polling).
// Each read first numbers what is waiting (change-feed.ts), so a change is readable the moment its write answered.
import type { Connection } from "mongoose";
import { ApiError } from "../../errors/api-error.js";
import type { RecordStore } from "../../storage/record-store.js";
import { feedCollection, feedPosition, prune, sequence, type FeedEntry } from "./change-feed.js";

export interface FeedQuery {
  /** The last sequence number the reader has seen (0: from the start). */
  since: number;
  /** The most entries answered. */
  limit: number;
  /** Only these types' changes. */
  types?: readonly string[];
  /** Only changes of records of this repository (its uri). */
  repository?: string;
  /** Wait up to this long for a change when there is none yet. */
  waitMs: number;
  /** Stop waiting once this is aborted (the client went away). */
  signal?: AbortSignal;
  /**
   * Refuse (410) a `since` from before what retention removed (the reader would miss changes); false: answer what
   * is left, as ArchivesSpace's update feed answers from what it still holds.
   */
  strict: boolean;
}

export interface FeedReaderOptions {
  /** How long changes are kept. */
  retentionMs: number;
  /** Reads waiting at once, at most; past it a read answers at once (each waiting read polls the store). */
  maxWaiting: number;
}

export interface FeedPage {
  entries: FeedEntry[];
  /** The number to ask from next: the last entry's, or `since` when there was none. */
  last: number;
}

/** How often a waiting read looks again, for changes other processes make (this process's wake it at once). */
const POLL_MS = 100;
/** How often this process removes changes past retention (when the feed is read). */
const PRUNE_EVERY_MS = 3_600_000;

export class FeedReader {
  private waiting = 0;
  private prunedAt = Number.NEGATIVE_INFINITY;
  /** The waiting reads' wake-ups. */
  private readonly sleepers = new Set<() => void>();

  constructor(
    private readonly store: RecordStore,
    private readonly options: FeedReaderOptions,
  ) {}

  private get connection(): Connection {
    return this.store.connection;
  }

  /** @throws ApiError 410 when entries after `since` were removed by retention */
  async read(query: FeedQuery): Promise<FeedPage> {
    const first = await this.readOnce(query);
    if (first.entries.length > 0 || query.waitMs <= 0 || this.waiting >= this.options.maxWaiting) return first;
    this.waiting++;
    try {
      const until = Date.now() + query.waitMs;
      while (Date.now() < until && query.signal?.aborted !== true) {
        await this.sleep(Math.min(POLL_MS, until - Date.now()));
        const page = await this.readOnce(query);
        if (page.entries.length > 0) return page;
      }
      return first;
    } finally {
      this.waiting--;
    }
  }

  /** Wakes every waiting read (a change was committed by this process): it looks again at once. */
  notify(): void {
    for (const wake of this.sleepers) wake();
    this.sleepers.clear();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, ms));
      this.sleepers.add(wake);
    });
  }

  /** Removes what is past retention, at most once an hour per process. */
  async pruneIfDue(now = Date.now()): Promise<void> {
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    await prune(this.connection, new Date(now - this.options.retentionMs));
  }

  private async readOnce(query: FeedQuery): Promise<FeedPage> {
    await this.pruneIfDue();
    await sequence(this.store);
    const { pruned } = await feedPosition(this.connection);
    if (query.strict && query.since < pruned)
      throw new ApiError(410, {
        since: [
          `Changes up to sequence ${pruned} are no longer kept (CHANGES_RETENTION_DAYS): read the records again ` +
            `and follow the feed from sequence ${pruned}`,
        ],
      });
    const entries = await feedCollection(this.connection)
      .find({
        seq: { $gt: query.since },
        ...(query.repository !== undefined && { repository: query.repository }),
        ...(query.types !== undefined && { type: { $in: [...query.types] } }),
      })
      .sort({ seq: 1 })
      .limit(query.limit)
      .toArray();
    return { entries, last: entries.at(-1)?.seq ?? query.since };
  }
}
