// Relevance: the order of `sort=score desc` (ArchivesSpace's default). A BM25 score with binary term frequency:
// each query term counts its inverse document frequency (rare terms weigh more), and a match in the title (more so
// in a short title) or the identifier counts TITLE_WEIGHT or IDENTIFIER_WEIGHT times a match elsewhere, as
// ArchivesSpace's Solr weighs title^2 and identifier^3 above the full text. Only the small `boosted` part of each
// entry is read: a match outside title and identifier is what every candidate of a query's required terms shares.
// Bounded: at most RANK_MAX_CANDIDATES entries are scored. Past that, the entries matching in title or identifier
// come first (scored when they fit, else in the index's order) and the others after them in the index's order.
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

export const RANK_MAX_CANDIDATES = 5_000;

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
  const boosted = new Set(candidate.boosted ?? []);
  const norm = K1 * (1 - B + (B * (candidate.title_length ?? 0)) / AVERAGE_TITLE_LENGTH);
  let score = 0;
  for (const [term, weight] of idf) {
    const inTitle = boosted.has(`${TITLE}:${term}`) ? (TITLE_WEIGHT * (K1 + 1)) / (1 + norm) : 0;
    const inIdentifier = boosted.has(`${IDENTIFIER}:${term}`) ? IDENTIFIER_WEIGHT : 0;
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

/**
 * How many entries match `filter`, and the uris of one page of them by relevance to `terms` (no terms: in the
 * index's order, as Solr's equal scores fall in document order). Counted first, by the store (by rank when the
 * query is one term, or its rarest term alone decides), then: up to RANK_MAX_CANDIDATES matches, one read of their
 * small parts ranks them; past that, those matching in title or identifier come first (scored when they fit, else
 * in the index's order), then the rest in the index's order, each page read with its skip and limit alone.
 */
export async function rankedPage(
  index: Collection<SearchEntry>,
  filter: Filter,
  terms: ReadonlySet<string>,
  counts: TermCounts,
  skip: number,
  limit: number,
): Promise<{ total: number; uris: string[] }> {
  const inIndexOrder = async (where: Filter, from: number, count: number) =>
    count <= 0
      ? []
      : (
          await index
            .find(where, { projection: { _id: 1 } })
            .skip(from)
            .limit(count)
            .toArray()
        ).map((one) => one._id);
  const total = await index.countDocuments(filter);
  if (terms.size === 0 || total === 0) return { total, uris: await inIndexOrder(filter, skip, limit) };
  const idf = new Map<string, number>();
  for (const term of terms) {
    const having = counts.of(`${KEYWORD}:${term}`);
    idf.set(term, Math.log(1 + (counts.entries - having + 0.5) / (having + 0.5)));
  }
  const candidates = (where: Filter) =>
    index
      .find(where, { projection: { _id: 1, title_sort: 1, boosted: 1, title_length: 1 } })
      .limit(RANK_MAX_CANDIDATES)
      .toArray() as Promise<Candidate[]>;
  if (total <= RANK_MAX_CANDIDATES)
    return { total, uris: byScore(await candidates(filter), idf).slice(skip, skip + limit) };
  // Too many to score: those matching in title or identifier first, then the rest.
  const boostedKeys = [...terms].flatMap((term) => [`${TITLE}:${term}`, `${IDENTIFIER}:${term}`]);
  const inBoosted: Filter = { $and: [{ boosted: { $in: boostedKeys } }, filter] };
  // Counted up to one past the bound: whether they can be scored.
  const boostedFew = (await index.countDocuments(inBoosted, { limit: RANK_MAX_CANDIDATES + 1 })) <= RANK_MAX_CANDIDATES;
  const scored = boostedFew ? byScore(await candidates(inBoosted), idf) : undefined;
  const head = scored?.slice(skip, skip + limit) ?? (await inIndexOrder(inBoosted, skip, limit));
  if (head.length === limit) return { total, uris: head };
  const boostedCount = scored?.length ?? (await index.countDocuments(inBoosted));
  const rest = { $and: [filter, { boosted: { $nin: boostedKeys } }] };
  const tail = await inIndexOrder(rest, Math.max(0, skip - boostedCount), limit - head.length);
  return { total, uris: [...head, ...tail] };
}
