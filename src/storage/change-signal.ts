// A version number in the store that every process on it shares, so that a write in one process
// can tell the others to drop what they cached about it (several Arca nodes on one MongoDB).
// `raise()` after the write; `changed()` before using a cached answer. `changed()` reads the
// store at most once per `checkMs` (callers at the same moment share the read), so a cache hit
// stays free and another node's write shows within about `checkMs`.
import type { Collection, Connection } from "mongoose";

export const SIGNALS_COLLECTION = "arca_signals";

interface SignalRecord {
  _id: string;
  version: number;
}

export interface ChangeSignalOptions {
  /** Read the store at most this often. Default 1000 ms. */
  checkMs?: number;
  now?: () => number;
}

const DEFAULT_CHECK_MS = 1000;

export class ChangeSignal {
  private readonly collection: Collection<SignalRecord>;
  private readonly checkMs: number;
  private readonly now: () => number;
  private known: number | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<boolean> | undefined;

  constructor(
    connection: Connection,
    private readonly name: string,
    options: ChangeSignalOptions = {},
  ) {
    this.collection = connection.collection<SignalRecord>(SIGNALS_COLLECTION);
    this.checkMs = options.checkMs ?? DEFAULT_CHECK_MS;
    this.now = options.now ?? Date.now;
  }

  /** Tells every process (this one included, at its next check) that what the signal covers changed. */
  async raise(): Promise<void> {
    await this.collection.updateOne({ _id: this.name }, { $inc: { version: 1 } }, { upsert: true });
  }

  /**
   * Whether the signal was raised since the last check, by any process. The first check answers
   * true (nothing is known of what came before it), and so does a check the store could not
   * answer: dropping a cache is always safe, keeping a stale one is not.
   */
  changed(): Promise<boolean> {
    if (this.now() - this.checkedAt < this.checkMs) return Promise.resolve(false);
    this.reading ??= this.read().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async read(): Promise<boolean> {
    let version: number;
    try {
      version = (await this.collection.findOne({ _id: this.name }))?.version ?? 0;
    } catch {
      return true;
    }
    this.checkedAt = this.now();
    const changed = version !== this.known;
    this.known = version;
    return changed;
  }
}
