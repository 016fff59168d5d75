// Relevance over more matches than are scored: entries written to the store as the index holds them (with its
// indexes), then paged with rankedPage. Every page's part of one order: no match twice, none missed, those
// matching in title or identifier first; and at the bound's other side, by score then title.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Collection } from "mongodb";
import { openTarget, type Target } from "../embedded-mongo/target.js";
import { SEARCH_INDEXES } from "../../src/records/search/index-writer.js";
import type { SearchEntry } from "../../src/records/search/entries.js";
import { RANK_MAX_CANDIDATES, rankedPage } from "../../src/search/ranking.js";
import { TermCounts } from "../../src/search/term-counts.js";

const REPO = "/repositories/2";
const scope = { repository: { $in: [REPO, "global"] }, suppressed: false };
let t: Target;
let index: Collection<SearchEntry>;

/**
 * `n` entries holding "letter" and "common"; every 7th has "letter" in its title, every 50th in a short title;
 * three in four have "common" in theirs; every 9th is suppressed.
 */
function entries(n: number): Partial<SearchEntry>[] {
  return Array.from({ length: n }, (_, i) => {
    const inTitle = i % 7 === 0;
    return {
      _id: `${REPO}/archival_objects/${i + 1}`,
      repository: i % 5 === 0 ? "global" : REPO,
      suppressed: i % 9 === 0,
      title_sort: `title ${String(n - i).padStart(5, "0")}`,
      words: ["keyword:letter", "keyword:common", `keyword:w${i % 3}`],
      boosted: [...(inTitle ? ["title:letter"] : []), ...(i % 4 !== 0 ? ["title:common"] : [])],
      title_length: i % 50 === 0 ? 1 : 8,
    };
  });
}

beforeAll(async () => {
  t = await openTarget();
  index = t.db.collection<SearchEntry>("arca_search");
  for (const { name, key } of SEARCH_INDEXES) await index.createIndex(key, { name });
  await index.insertMany(entries(RANK_MAX_CANDIDATES * 2 + 300) as SearchEntry[]);
});
afterAll(() => t.stop());

async function pages(
  filter: Record<string, unknown>,
  size: number,
  term = "letter",
): Promise<{ total: number; uris: string[] }> {
  const counts = await TermCounts.of(index, scope, [`keyword:${term}`]);
  const page = (skip: number) => rankedPage(index, filter, new Set([term]), counts, skip, size, { _id: 1 });
  const first = await page(0);
  const uris = first.entries.map((entry) => entry._id);
  for (let skip = size; skip < first.total; skip += size)
    uris.push(...(await page(skip)).entries.map((entry) => entry._id));
  return { total: first.total, uris };
}

const titled = async (uris: string[], term = "letter") => {
  const found = await index.find({ _id: { $in: uris } }).toArray();
  const byUri = new Map(found.map((entry) => [entry._id, entry]));
  return uris.map((uri) => byUri.get(uri)?.boosted.includes(`title:${term}`) === true);
};

describe("ranked pages over more matches than are scored", () => {
  it("pages through every match once, title matches first", async () => {
    const filter = { $and: [{ words: "keyword:letter" }, scope] };
    const expected = await index.countDocuments(filter);
    expect(expected).toBeGreaterThan(RANK_MAX_CANDIDATES);
    const { total, uris } = await pages(filter, 97);
    expect(total).toBe(expected);
    expect(new Set(uris).size).toBe(expected);
    const inTitle = await titled(uris);
    const boundary = inTitle.indexOf(false);
    expect(boundary).toBeGreaterThan(0);
    expect(inTitle.slice(boundary).every((one) => !one)).toBe(true);
    // Scored (few enough title matches): the short titles first.
    const shortFirst = await index.find({ _id: { $in: uris.slice(0, 5) } }).toArray();
    expect(shortFirst.every((entry) => entry.title_length === 1)).toBe(true);
  });

  it("pages title matches too many to score in the index's order, then the rest", async () => {
    const filter = { $and: [{ words: "keyword:common" }, scope] };
    const boosted = await index.countDocuments({ $and: [filter, { boosted: "title:common" }] });
    expect(boosted).toBeGreaterThan(RANK_MAX_CANDIDATES);
    const { total, uris } = await pages(filter, 250, "common");
    expect(new Set(uris).size).toBe(total);
    const inTitle = await titled(uris, "common");
    expect(inTitle.indexOf(false)).toBe(boosted);
    expect(inTitle.slice(boosted).every((one) => !one)).toBe(true);
  });

  it("sorts equals by title when few enough, and pages them the same way", async () => {
    const filter = { $and: [{ words: "keyword:w1" }, { words: "keyword:letter" }, scope] };
    const { total, uris } = await pages(filter, 50);
    expect(total).toBeLessThanOrEqual(RANK_MAX_CANDIDATES);
    expect(new Set(uris).size).toBe(total);
    const inTitle = await titled(uris);
    const rest = uris.slice(inTitle.indexOf(false));
    const found = await index.find({ _id: { $in: rest } }).toArray();
    const titles = new Map(found.map((entry) => [entry._id, entry.title_sort]));
    const shown = rest.map((uri) => titles.get(uri) ?? "");
    expect(shown).toEqual([...shown].sort());
  });
});

describe("one term's page", () => {
  /**
   * Entries of their own repository holding "memo" (and "filler", in every entry, never in a title): some with
   * "memo" in the identifier, some in the title (titles of 1 to 6 terms, lengths repeating), some in both.
   */
  const OWN = "/repositories/7";
  const ownScope = { repository: { $in: [OWN] }, suppressed: false };
  beforeAll(async () => {
    await index.insertMany(
      Array.from({ length: 90 }, (_, i) => ({
        _id: `${OWN}/accessions/${i + 1}`,
        repository: OWN,
        suppressed: false,
        title_sort: `memo ${String((i * 37) % 90).padStart(3, "0")}`,
        words: ["keyword:memo", "keyword:filler"],
        boosted: [...(i % 3 === 0 ? ["title:memo"] : []), ...(i % 11 === 0 ? ["identifier:memo"] : [])],
        title_length: 1 + (i % 6),
      })) as unknown as SearchEntry[],
    );
  });

  async function order(terms: string[], size: number): Promise<string[]> {
    const counts = await TermCounts.of(
      index,
      ownScope,
      terms.map((term) => `keyword:${term}`),
    );
    const filter = { $and: [{ words: "keyword:memo" }, ownScope] };
    const uris: string[] = [];
    for (let skip = 0; skip < 90; skip += size) {
      const page = await rankedPage(index, filter, new Set(terms), counts, skip, size, { _id: 1 });
      uris.push(...page.entries.map((entry) => entry._id));
    }
    return uris;
  }

  it("is the order the scoring of several terms gives (a term in every entry and no title adds the same to each)", async () => {
    // Two terms take the general path, which reads and scores every title and identifier match.
    const scored = await order(["memo", "filler"], 90);
    expect(new Set(scored).size).toBe(90);
    for (const size of [1, 4, 7, 30, 90]) expect(await order(["memo"], size)).toEqual(scored);
  });

  it("puts identifier matches first, then title matches by title length, then the rest by title", async () => {
    const uris = await order(["memo"], 13);
    const found = await index.find({ _id: { $in: uris } }).toArray();
    const byUri = new Map(found.map((entry) => [entry._id, entry]));
    const place = (uri: string) => {
      const entry = byUri.get(uri)!;
      return entry.boosted.includes("identifier:memo") ? 0 : entry.boosted.includes("title:memo") ? 1 : 2;
    };
    const places = uris.map(place);
    expect(places).toEqual([...places].sort());
    const titleLengths = uris.filter((uri) => place(uri) === 1).map((uri) => byUri.get(uri)!.title_length);
    expect(titleLengths).toEqual([...titleLengths].sort((a, b) => a - b));
  });
});
