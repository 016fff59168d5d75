// Relevance: the order of `sort=score desc` (ArchivesSpace's default). A BM25 score with binary term frequency:
// each query term counts its inverse document frequency (rare terms weigh more), and a match in the title (more so
// in a short title) or the identifier counts TITLE_WEIGHT or IDENTIFIER_WEIGHT times a match elsewhere, as
// ArchivesSpace's Solr weighs title^2 and identifier^3 above the full text. Only the small `boosted` part of the
// entries matching in title or identifier is read: a match elsewhere is what every match shares. Bounded: at most
// RANK_MAX_CANDIDATES entries are scored, or sorted by title among equals; past that, the index's order.
import type { Collection } from "mongodb";
import { analyze } from "../records/search/analysis.js";
import { IDENTIFIER, KEYWORD, TITLE, type SearchEntry } from "../records/search/entries.js";
import type { Filter } from "./compile.js";
import type { QueryNode } from "./query/parser.js";
import type { TermCounts } from "./term-counts.js";

const TITLE_WEIGHT = 3;
const IDENTIFIER_WEIGHT = 6;
/** BM25's length normalisation, applied to the title. */
const B = 0.75;
const K1 = 1.2;
const AVERAGE_TITLE_LENGTH = 6;

/** The most matches ranked by score, or sorted by title among equals; past it, the index's order. */
export const RANK_MAX_CANDIDATES = 2_000;

/** The analysed terms a query asks for (not those it excludes) in the fields relevance weighs. */
export function rankedTerms(node: QueryNode, out = new Set<string>()): Set<string> {
  switch (node.kind) {
    case "bool":
      for (const child of [...node.must, ...node.should]) rankedTerms(child, out);
      break;
    case "term":
    case "phrase":
      if (node.field === null || node.field === KEYWORD || node.field === TITLE || node.field === IDENTIFIER) {
        const { terms, whole } = analyze(node.text);
        for (const term of [...terms, ...whole]) out.add(term);
      }
      break;
    default:
      break;
  }
  return out;
}

interface Candidate {
  _id: string;
  title_sort: string;
  boosted?: string[];
  title_length?: number;
}

function scoreOf(candidate: Candidate, idf: ReadonlyMap<string, number>): number {
  const boosted = candidate.boosted ?? [];
  const norm = K1 * (1 - B + (B * (candidate.title_length ?? 0)) / AVERAGE_TITLE_LENGTH);
  let score = 0;
  for (const [term, weight] of idf) {
    const inTitle = boosted.includes(`${TITLE}:${term}`) ? (TITLE_WEIGHT * (K1 + 1)) / (1 + norm) : 0;
    const inIdentifier = boosted.includes(`${IDENTIFIER}:${term}`) ? IDENTIFIER_WEIGHT : 0;
    score += weight * (1 + inTitle + inIdentifier);
  }
  return score;
}

function byScore(candidates: Candidate[], idf: ReadonlyMap<string, number>): string[] {
  return candidates
    .map((candidate) => ({ candidate, score: scoreOf(candidate, idf) }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        (a.candidate.title_sort < b.candidate.title_sort
          ? -1
          : a.candidate.title_sort > b.candidate.title_sort
            ? 1
            : 0) ||
        (a.candidate._id < b.candidate._id ? -1 : 1),
    )
    .map(({ candidate }) => candidate._id);
}

/** One query term, and where its matches are that relevance tells apart. */
interface OneTerm {
  term: string;
  inIdentifier: Filter;
  inTitleOnly: Filter;
}

/** What a page's entries are read with (a projection of SearchEntry). */
export type Projection = Record<string, 0 | 1>;

/**
 * How many entries match `filter`, and one page of them (read with `projection`) by relevance to `terms`. Every
 * match holds every term's weight once; what tells matches apart is a term in their title or identifier
 * (`boosted`), so those come first, scored (up to RANK_MAX_CANDIDATES of them, else in the index's order), then the
 * others, tied, by title (up to RANK_MAX_CANDIDATES of them, else in the index's order, as Solr's equal scores fall
 * in document order). Each part is read a page at a time by the store, never all of the matches; the scored part's
 * entries are read by uri while the rest of the page is read.
 */
export async function rankedPage(
  index: Collection<SearchEntry>,
  filter: Filter,
  terms: ReadonlySet<string>,
  counts: TermCounts,
  skip: number,
  limit: number,
  projection: Projection,
): Promise<{ total: number; entries: SearchEntry[] }> {
  const boostedKeys = [...terms].flatMap((term) => [`${TITLE}:${term}`, `${IDENTIFIER}:${term}`]);
  const [only, ...more] = terms;
  const single = only !== undefined && more.length === 0 ? oneTerm(only) : undefined;
  const inBoosted = within({ boosted: { $in: boostedKeys } }, single?.term);
  // Counted together, the title matches up to one past the bound (whether they can be scored), and for one term
  // where it is (oneTermPage) read beside them, bounded as they are: a round trip less.
  const [total, boostedUpTo, placed] = await Promise.all([
    index.countDocuments(filter),
    boostedKeys.length === 0 ? 0 : index.countDocuments(inBoosted, { limit: RANK_MAX_CANDIDATES + 1 }),
    single === undefined ? undefined : placesOf(single),
  ]);
  if (boostedKeys.length === 0 || total === 0)
    return { total, entries: await unscored(index, filter, total, skip, limit, projection) };
  if (boostedUpTo > RANK_MAX_CANDIDATES) {
    const head = await unscored(index, inBoosted, Infinity, skip, limit, projection);
    if (head.length === limit) return { total, entries: head };
    const boostedCount = await index.countDocuments(inBoosted);
    return { total, entries: [...head, ...(await rest(boostedCount, head.length))] };
  }
  if (single !== undefined && placed !== undefined) return { total, entries: await oneTermPage(single, placed) };
  const idf = new Map<string, number>();
  for (const term of terms) {
    const having = counts.of(`${KEYWORD}:${term}`);
    idf.set(term, Math.log(1 + (counts.entries - having + 0.5) / (having + 0.5)));
  }
  const scored = byScore(
    (await index
      // In one batch: past the driver's default first batch (101), the rest would be a second round trip.
      .find(inBoosted, {
        projection: { _id: 1, title_sort: 1, boosted: 1, title_length: 1 },
        batchSize: RANK_MAX_CANDIDATES,
      })
      .toArray()) as Candidate[],
    idf,
  );
  const headUris = scored.slice(skip, skip + limit);
  const [head, tail] = await Promise.all([
    byUri(index, headUris, projection),
    headUris.length === limit ? [] : rest(scored.length, headUris.length),
  ]);
  return { total, entries: [...head, ...tail] };

  /**
   * One term's page without reading its title matches whole. With one term, a match's score depends only on where
   * the term is (the identifier outweighs any title: 7 against at most 1 + 4.6) and on the title's length, so the
   * identifier matches (few) are scored here and the title-only matches come sorted by the store, a page of them:
   * the order byScore gives.
   */
  async function oneTermPage(
    { term, inTitleOnly }: OneTerm,
    { identified, titled }: { identified: Candidate[]; titled: number },
  ): Promise<SearchEntry[]> {
    const headUris = byScore(identified, new Map([[term, 1]])).slice(skip, skip + limit);
    const titleSkip = Math.max(0, skip - identified.length);
    const titleLimit = Math.max(0, Math.min(limit - headUris.length, titled - titleSkip));
    const [head, titles, others] = await Promise.all([
      byUri(index, headUris, projection),
      titleLimit === 0
        ? []
        : index
            .find(inTitleOnly, { projection })
            .sort({ title_length: 1, title_sort: 1, _id: 1 })
            .skip(titleSkip)
            .limit(titleLimit)
            .toArray(),
      headUris.length + titleLimit >= limit ? [] : rest(identified.length + titled, headUris.length + titleLimit),
    ]);
    return [...head, ...titles, ...others];
  }

  function oneTerm(term: string): OneTerm {
    return {
      term,
      inIdentifier: within({ boosted: `${IDENTIFIER}:${term}` }, term),
      inTitleOnly: within({ boosted: `${TITLE}:${term}`, $nor: [{ boosted: `${IDENTIFIER}:${term}` }] }, term),
    };
  }

  /**
   * `filter` narrowed to `boosted`, its clauses at the top level beside it (the store plans top-level predicates).
   * With `term` (every boosted key of that one term) less the clause matching the term itself, which every entry
   * holding one of its boosted keys has: the store then walks the boosted index alone, and counts by its ranks.
   */
  function within(boosted: Filter, term?: string): Filter {
    const clauses =
      Object.keys(filter).length === 1 && Array.isArray(filter.$and) ? (filter.$and as Filter[]) : [filter];
    const implied = (clause: Filter) => Object.keys(clause).length === 1 && clause.words === `${KEYWORD}:${term}`;
    return { $and: [boosted, ...clauses.filter((clause) => term === undefined || !implied(clause))] };
  }

  /** One term's matches in the identifier, and how many have it in the title only: each up to one past the bound. */
  async function placesOf({ inIdentifier, inTitleOnly }: OneTerm) {
    const [identified, titled] = await Promise.all([
      index
        .find(inIdentifier, {
          projection: { _id: 1, title_sort: 1, boosted: 1, title_length: 1 },
          batchSize: RANK_MAX_CANDIDATES + 1,
          limit: RANK_MAX_CANDIDATES + 1,
        })
        .toArray() as Promise<Candidate[]>,
      index.countDocuments(inTitleOnly, { limit: RANK_MAX_CANDIDATES + 1 }),
    ]);
    return { identified, titled };
  }

  /** The matches without a term in title or identifier, after `boostedCount` that have one; `taken` on the page. */
  function rest(boostedCount: number, taken: number): Promise<SearchEntry[]> {
    const others = { $and: [filter, { boosted: { $nin: boostedKeys } }] };
    return unscored(index, others, total - boostedCount, Math.max(0, skip - boostedCount), limit - taken, projection);
  }
}

/** The entries at `uris`, in that order. */
async function byUri(index: Collection<SearchEntry>, uris: readonly string[], projection: Projection) {
  if (uris.length === 0) return [];
  const found = await index.find({ _id: { $in: [...uris] } }, { projection }).toArray();
  const entries = new Map(found.map((entry) => [entry._id, entry]));
  return uris.flatMap((uri) => entries.get(uri) ?? []);
}

/** A page of `count` matches of equal score: by title when few enough to sort, else in the index's order. */
async function unscored(
  index: Collection<SearchEntry>,
  where: Filter,
  count: number,
  skip: number,
  limit: number,
  projection: Projection,
): Promise<SearchEntry[]> {
  if (limit <= 0 || skip >= count) return [];
  const cursor = index.find(where, { projection });
  if (count <= RANK_MAX_CANDIDATES) cursor.sort({ title_sort: 1, _id: 1 });
  return cursor.skip(skip).limit(limit).toArray();
}
