// How many entries within a search's scope hold each word key (`keyword:paper`): what picks the rarest required
// term to walk (compile.ts) and weighs terms by rarity (ranking.ts). Each is one count over the words index, whose
// keys carry the scope's fields after the word, so the store answers it by rank without reading an entry. Counted
// once per request, for at most MAX_COUNTED keys (a longer query's other keys are taken as common).
import type { Collection } from "mongodb";
import type { SearchEntry } from "../records/search/entries.js";
import type { Filter } from "./compile.js";

export const MAX_COUNTED = 32;

export class TermCounts {
  private constructor(
    private readonly counts: ReadonlyMap<string, number>,
    /** Entries in the index, the count of a key not counted. */
    readonly entries: number,
  ) {}

  /**
   * The counts of `keys` (the first MAX_COUNTED of them) within `scope`, the repository and suppression a search is
   * limited to ({} for every repository's), asked together with the index's size.
   */
  static async of(index: Collection<SearchEntry>, scope: Filter, keys: Iterable<string>): Promise<TermCounts> {
    const wanted = [...new Set(keys)].slice(0, MAX_COUNTED);
    // One key (a one-word query) or none: nothing is chosen by rarity, and one term's weight scales every score
    // alike, so no order depends on a count and the round trip is saved.
    if (wanted.length <= 1) return new TermCounts(new Map(), 1);
    const [entries, counted] = await Promise.all([
      index.estimatedDocumentCount(),
      Promise.all(wanted.map(async (key) => [key, await index.countDocuments({ words: key, ...scope })] as const)),
    ]);
    return new TermCounts(new Map(counted), entries);
  }

  /** Entries holding `key`: counted, or (not counted) every entry. */
  of(key: string): number {
    return this.counts.get(key) ?? this.entries;
  }
}
