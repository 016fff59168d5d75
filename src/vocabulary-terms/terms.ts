// ArchivesSpace's terms, read from where Arca keeps them. ArchivesSpace stores each (vocabulary, term, term_type)
// once, as a record of its own that subjects link; Arca embeds terms in the subjects that use them
// (record-types/subject.schema.json), so a vocabulary's terms are the distinct terms of its subjects, grouped by
// the store. Both reads are bounded: a vocabulary's list by VOCABULARY_TERMS_MAX (past it a 400 saying so, rather
// than an answer that grows with the archive), a prefix lookup by ArchivesSpace's own page of 20.
import { ApiError } from "../errors/api-error.js";
import type { OperationDeps } from "../records/operations/index.js";

/** The subject type whose embedded terms these are, and where in it they sit. */
const SUBJECT = "subject";
const TERMS = "terms";

/** GET /terms answers ArchivesSpace's one page of this many. */
export const TERM_PAGE_SIZE = 20;
/** The longest prefix GET /terms takes (a term is at most 255 characters). */
export const TERM_PREFIX_MAX = 255;

export interface Term {
  jsonmodel_type: "term";
  term: string;
  term_type: string;
  vocabulary: string;
}

/** ArchivesSpace's answer to GET /terms: its paged listing of one page. */
export interface TermPage {
  first_page: 1;
  last_page: 1;
  this_page: 1;
  total: number;
  results: Term[];
}

interface TermKey {
  term: string;
  term_type: string;
  vocabulary: string;
}

/** The pipeline grouping the distinct terms of the subjects `match` selects, each term also matching `match`. */
function distinctTerms(match: Record<string, unknown>): Record<string, unknown>[] {
  return [
    { $match: match },
    { $unwind: `$${TERMS}` },
    { $match: match },
    {
      $group: {
        _id: { term: `$${TERMS}.term`, term_type: `$${TERMS}.term_type`, vocabulary: `$${TERMS}.vocabulary` },
      },
    },
  ];
}

function termOf(row: Record<string, unknown>): Term {
  const key = row._id as TermKey;
  return { jsonmodel_type: "term", term: key.term, term_type: key.term_type, vocabulary: key.vocabulary };
}

const BY_TERM = { $sort: { "_id.term": 1, "_id.term_type": 1, "_id.vocabulary": 1 } };

/** Every distinct term of the vocabulary at `vocabularyUri`, by term then type. @throws ApiError 400 past `max` */
export async function vocabularyTerms(deps: OperationDeps, vocabularyUri: string, max: number): Promise<Term[]> {
  const rows = await deps.store
    .collection(SUBJECT)
    .aggregate([...distinctTerms({ [`${TERMS}.vocabulary`]: vocabularyUri }), BY_TERM, { $limit: max + 1 }])
    .toArray();
  if (rows.length > max)
    throw new ApiError(
      400,
      `The vocabulary has more than ${max} terms (VOCABULARY_TERMS_MAX); look them up by prefix with GET /terms?q=`,
    );
  return rows.map(termOf);
}

/** A regular expression matching exactly `text` at the start, every metacharacter escaped (no pattern from input). */
function literalPrefix(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")}`, "i");
}

/**
 * The first TERM_PAGE_SIZE distinct terms starting with `prefix`, in any case, as ArchivesSpace's GET /terms (which
 * drops `%` from the prefix: its LIKE wildcard). Terms carry no index fit for a case-folded prefix, so this reads
 * the subjects; issue 15's search index is where such lookups will be served from an index.
 */
export async function termsWithPrefix(deps: OperationDeps, prefix: string): Promise<TermPage> {
  const match = { [`${TERMS}.term`]: literalPrefix(prefix.replaceAll("%", "")) };
  const subjects = deps.store.collection(SUBJECT);
  const [rows, counted] = await Promise.all([
    subjects.aggregate([...distinctTerms(match), BY_TERM, { $limit: TERM_PAGE_SIZE }]).toArray(),
    subjects.aggregate([...distinctTerms(match), { $count: "total" }]).toArray(),
  ]);
  const total = typeof counted[0]?.total === "number" ? counted[0].total : 0;
  return { first_page: 1, last_page: 1, this_page: 1, total, results: rows.map(termOf) };
}
