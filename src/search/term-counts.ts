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

  /** The counts of `keys` within `scope` (see load), with the index's size, asked together. */
  static async of(index: Collection<SearchEntry>, scope: Filter, keys: Iterable<string> = []): Promise<TermCounts> {
    const [entries, counted] = await Promise.all([
      index.estimatedDocumentCount(),
      TermCounts.count(index, scope, keys),
    ]);
    const counts = new TermCounts(index, scope, entries);
    for (const [key, n] of counted) counts.counts.set(key, n);
    return counts;
  }

  private static async count(
    index: Collection<SearchEntry>,
    scope: Filter,
    keys: Iterable<string>,
    room = MAX_COUNTED,
  ): Promise<Array<[string, number]>> {
    const wanted = [...new Set(keys)].slice(0, room);
    return Promise.all(wanted.map(async (key) => [key, await index.countDocuments({ words: key, ...scope })] as const));
  }

  /** Counts the keys not counted yet (up to MAX_COUNTED in all). */
  async load(keys: Iterable<string>): Promise<void> {
    const wanted = [...keys].filter((key) => !this.counts.has(key));
    const room = Math.max(0, MAX_COUNTED - this.counts.size);
    for (const [key, n] of await TermCounts.count(this.index, this.scope, wanted, room)) this.counts.set(key, n);
  }

  /** Entries holding `key`: counted, or (not counted) every entry. */
  of(key: string): number {
    return this.counts.get(key) ?? this.entries;
  }
}
