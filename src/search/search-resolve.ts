// resolve[] on a search, ArchivesSpace's search-style form `source:target` (search_resolver.rb): each result
// holding a value in `source` gets `_resolved_<source>`: `{value: [the document whose target is that value]}`
// (null when none is found). Arca's documents are found by uri, so the target is `id` or `uri`, and the sources
// are the fields holding uris; custom resolvers (`@compact_resource`) are not served.
import type { Actor } from "../auth/actor.js";
import type { SearchEntry } from "../records/search/entries.js";
import type { Collection } from "mongodb";
import { dictionary, type JsonValue } from "../registry/index.js";
import { resultDocument, type ResultDocument, type SearchResults } from "./results.js";

const SOURCES = ["repository", "uri", "id"];
const TARGETS = ["id", "uri"];
export const MAX_RESOLVE = 5;

/** What is wrong with the resolve[] values, if anything. */
export function resolveProblem(values: readonly string[]): string | undefined {
  if (values.length > MAX_RESOLVE) return `At most ${MAX_RESOLVE}, not ${values.length}`;
  const bad = values.find((value) => {
    const [source = "", target = "", ...rest] = value.split(":");
    return rest.length > 0 || !SOURCES.includes(source) || !TARGETS.includes(target);
  });
  if (bad === undefined) return undefined;
  return (
    `Must be source:target with a source of ${SOURCES.join(", ")} and a target of ${TARGETS.join(", ")}, not ` +
    `"${bad.slice(0, 100)}"`
  );
}

/** The source fields of resolve[] values (checked with resolveProblem). */
export function resolveSources(values: readonly string[]): string[] {
  return values.map((value) => value.split(":")[0] ?? "");
}

/** Adds `_resolved_<source>` to each result holding a value in a source field. */
export async function resolveResults(
  index: Collection<SearchEntry>,
  results: SearchResults,
  documents: ResultDocument[],
  sources: readonly string[],
  actor: Actor,
): Promise<void> {
  for (const source of new Set(sources)) {
    const valueOf = (document: ResultDocument): string[] => {
      const value = Object.hasOwn(document, source) ? document[source] : undefined;
      return (Array.isArray(value) ? value : [value]).filter((one): one is string => typeof one === "string");
    };
    const wanted = [...new Set(documents.flatMap(valueOf))];
    if (wanted.length === 0) continue;
    const entries = await index.find({ _id: { $in: wanted } }, { projection: { words: 0, text: 0 } }).toArray();
    const found = new Map<string, ResultDocument>();
    for (const { entry, record } of await results.read(entries, actor))
      found.set(entry._id, resultDocument(entry, record, undefined));
    for (const document of documents) {
      const values = valueOf(document);
      if (values.length === 0) continue;
      const resolved = dictionary<JsonValue>();
      for (const value of values) {
        const target = found.get(value);
        if (target !== undefined) resolved[value] = [target];
      }
      document[`_resolved_${source}`] = Object.keys(resolved).length === 0 ? null : resolved;
    }
  }
}
