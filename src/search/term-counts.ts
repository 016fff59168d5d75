// How many entries within a search's scope hold each word key (`keyword:paper`): what picks the rarest required
// term to walk (compile.ts) and weighs terms by rarity (ranking.ts). Each is one count over the words index, whose
// keys carry the scope's fields after the word, so the store answers it by rank without reading an entry. Counted
// once per request, for at most MAX_COUNTED keys (a longer query's other keys are taken as common).
import type { Collection } from "mongodb";
import type { SearchEntry } from "../records/search/entries.js";
import type { Filter } from "./compile.js";

export const MAX_COUNTED = 32;

export class TermCounts {
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly index: Collection<SearchEntry>,
    /** The repository and suppression a search is limited to ({} for every repository's). */
    private readonly scope: Filter,
    /** Entries in the index, the count of a key not counted. */
    readonly entries: number,
  ) {}

  static async of(index: Collection<SearchEntry>, scope: Filter): Promise<TermCounts> {
    return new TermCounts(index, scope, await index.estimatedDocumentCount());
  }

  /** Counts the keys not counted yet (up to MAX_COUNTED in all). */
  async load(keys: Iterable<string>): Promise<void> {
    const wanted = [...new Set(keys)].filter((key) => !this.counts.has(key));
    const room = Math.max(0, MAX_COUNTED - this.counts.size);
    await Promise.all(
      wanted.slice(0, room).map(async (key) => {
        this.counts.set(key, await this.index.countDocuments({ words: key, ...this.scope }));
      }),
    );
  }

  /** Entries holding `key`: counted, or (not counted) every entry. */
  of(key: string): number {
    return this.counts.get(key) ?? this.entries;
  }
}
