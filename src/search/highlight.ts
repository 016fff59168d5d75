// hl=true: per result, per search field, snippets of the record's own text with the words that matched the query
// in <em>, as Solr's highlighting answers them (`{"<uri>": {"title": ["The <em>Papers</em> of ..."]}}`). A word
// matches when it analyses to one of the query's terms, so `papers` is marked for a search for `paper`.
import { analyze } from "../records/search/analysis.js";
import { textAt } from "../records/search/entries.js";
import { dictionary, type JsonObject, type Registry } from "../registry/index.js";

const SNIPPETS = 3;
/** Characters of context on each side of the first match of a text. */
const CONTEXT = 80;
const MARKUP = /<[^<>]{0,500}>/g;
/** A word as analysis splits them: letters, digits and the apostrophes inside a word. */
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

export type Highlighting = Record<string, Record<string, string[]>>;

/** The text with each word analysing to one of `terms` in <em>, cut around the first; undefined without one. */
function snippet(text: string, terms: ReadonlySet<string>): string | undefined {
  const plain = text.replace(MARKUP, " ");
  let first = -1;
  const marked = plain.replace(WORD, (word, offset: number) => {
    const [term] = analyze(word).terms;
    if (term === undefined || !terms.has(term)) return word;
    if (first < 0) first = offset;
    return `<em>${word}</em>`;
  });
  if (first < 0) return undefined;
  // The cut is made on the marked text: find the first mark again there.
  const at = marked.indexOf("<em>");
  const start = Math.max(0, at - CONTEXT);
  const end = Math.min(marked.length, marked.indexOf("</em>", at) + 5 + CONTEXT);
  return `${start > 0 ? "…" : ""}${marked.slice(start, end)}${end < marked.length ? "…" : ""}`;
}

/** Snippets for each result whose record's title or search fields hold a query term. */
export function highlighting(
  registry: Registry,
  results: ReadonlyArray<{ uri: string; type: string; title: string; record: JsonObject }>,
  terms: ReadonlySet<string>,
): Highlighting {
  const out = dictionary<Record<string, string[]>>();
  if (terms.size === 0) return out;
  for (const { uri, type, title, record } of results) {
    const fields = dictionary<string[]>();
    const titleSnippet = snippet(title, terms);
    if (titleSnippet !== undefined) fields.title = [titleSnippet];
    for (const field of registry.get(type).search?.fields ?? []) {
      const found = field.paths
        .flatMap((path) => textAt(record, path))
        .flatMap((text) => snippet(text, terms) ?? [])
        .slice(0, SNIPPETS);
      if (found.length > 0) fields[field.name] = found;
    }
    out[uri] = fields;
  }
  return out;
}
