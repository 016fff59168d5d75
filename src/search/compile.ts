// A parsed query (query/parser.ts) as a MongoDB filter over the search index's entries
// (records/search/entries.ts). Text fields are matched through `words`, one multikey index: a term is one key
// (`title:paper`), a prefix a range of keys (one key within both bounds: $elemMatch), a phrase its terms' keys
// plus their order in the field's `text`.
// The entry's own fields (type, repository, publish, dates, ...) are matched as stored. Every field a query
// names is checked against the fields that exist, so a user's string reaches the store only as a value, or as a
// field name the registry declared.
import { IDENTIFIER, KEYWORD, TITLE } from "../records/search/entries.js";
import { analyze, fold } from "../records/search/analysis.js";
import { dictionary, type Registry } from "../registry/index.js";
import type { QueryNode } from "./query/parser.js";

export type Filter = Record<string, unknown>;

/** A query naming a field that does not exist, or giving one a value of the wrong kind (a 400 for the caller). */
export class QueryFieldError extends Error {}

/** Matches no entry. */
export const NONE: Filter = { _id: { $in: [] } };

type Kind = "text" | "string" | "boolean" | "date";

/** The entry's own fields a query may name, and how each is matched. */
const ENTRY_FIELDS = new Map<string, { path: string; kind: Kind }>([
  ["primary_type", { path: "primary_type", kind: "string" }],
  ["types", { path: "types", kind: "string" }],
  ["repository", { path: "repository", kind: "string" }],
  ["uri", { path: "_id", kind: "string" }],
  ["id", { path: "_id", kind: "string" }],
  ["publish", { path: "publish", kind: "boolean" }],
  ["suppressed", { path: "suppressed", kind: "boolean" }],
  ["created_by", { path: "created_by", kind: "string" }],
  ["last_modified_by", { path: "last_modified_by", kind: "string" }],
  ["create_time", { path: "create_time", kind: "date" }],
  ["system_mtime", { path: "system_mtime", kind: "date" }],
  ["user_mtime", { path: "user_mtime", kind: "date" }],
  ["title_sort", { path: "title_sort", kind: "string" }],
]);

/** The text fields of every searchable type: keyword, title, identifier and those x-search declares. */
export function textFields(registry: Registry): Set<string> {
  const fields = new Set([KEYWORD, TITLE, IDENTIFIER]);
  for (const type of registry.types) for (const field of type.search?.fields ?? []) fields.add(field.name);
  return fields;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** The first key after every key starting with `prefix`. */
function after(prefix: string): string {
  const last = prefix.codePointAt(prefix.length - 1) ?? 0;
  return `${prefix.slice(0, -1)}${String.fromCodePoint(last + 1)}`;
}

export class QueryCompiler {
  constructor(private readonly fields: ReadonlySet<string>) {}

  /**
   * The filter of a query. When every match must hold one of a few word keys (its anchor), the filter also says
   * so at its top level, `{words: {$in: anchor}}`: the store then reads candidates from the words index (it plans
   * top-level predicates only), whatever the query's ORs and phrases, and re-checks them with the rest.
   * `frequency`: how many entries hold a key (term-counts.ts), so that the anchor is the rarest choice; without
   * it, the one of fewest keys.
   */
  compile(node: QueryNode, frequency: (key: string) => number = () => 1): Filter {
    const filter = this.node(node) ?? NONE;
    const anchor = this.anchor(node, frequency);
    // A filter that is its anchor already (one term) needs no second copy of it.
    if (anchor === undefined || filter === NONE || (anchor.length === 1 && filter.words === anchor[0])) return filter;
    return { $and: [{ words: anchor.length === 1 ? anchor[0] : { $in: anchor } }, filter] };
  }

  /** The word keys an anchor of `node` may be made of: what to count before compiling it. */
  anchorKeys(node: QueryNode): string[] {
    switch (node.kind) {
      case "term":
      case "phrase": {
        const field = this.anchorField(node.field);
        if (field === undefined) return [];
        const { terms, whole } = analyze(node.text);
        return [...terms, ...(node.kind === "term" ? whole : [])].map((term) => `${field}:${term}`);
      }
      case "bool":
        return [...node.must, ...node.should].flatMap((child) => this.anchorKeys(child));
      default:
        return [];
    }
  }

  private anchorField(field: string | null): string | undefined {
    return field === null ? KEYWORD : this.fields.has(field) ? field : undefined;
  }

  /** Word keys of which every entry matching `node` holds at least one; undefined when there are none such. */
  private anchor(node: QueryNode, frequency: (key: string) => number): string[] | undefined {
    const weight = (keys: readonly string[]) => keys.reduce((sum, key) => sum + frequency(key), 0);
    switch (node.kind) {
      case "term":
      case "phrase": {
        const field = this.anchorField(node.field);
        if (field === undefined) return undefined;
        const { terms, whole } = analyze(node.text);
        // Each word of a phrase is in every match, so its rarest is an anchor; a term of several words matches
        // them as a phrase, or a whole token (an identifier).
        const rarest = terms
          .map((term) => `${field}:${term}`)
          .reduce<string | undefined>((a, b) => (a === undefined || frequency(b) < frequency(a) ? b : a), undefined);
        if (rarest === undefined) return undefined;
        return [...new Set([rarest, ...(node.kind === "term" ? whole.map((t) => `${field}:${t}`) : [])])];
      }
      case "bool": {
        const required = node.must.map((child) => this.anchor(child, frequency)).filter((keys) => keys !== undefined);
        if (required.length > 0) return required.reduce((a, b) => (weight(b) < weight(a) ? b : a));
        if (node.must.length > 0 || node.should.length === 0) return undefined;
        const optional = node.should.map((child) => this.anchor(child, frequency));
        if (optional.some((keys) => keys === undefined)) return undefined;
        return [...new Set(optional.flatMap((keys) => keys ?? []))];
      }
      default:
        return undefined;
    }
  }

  /** The filter of one clause; undefined when it holds no term once analysed (Lucene drops such clauses). */
  private node(node: QueryNode): Filter | undefined {
    switch (node.kind) {
      case "all":
        return {};
      case "bool":
        return this.bool(node);
      case "exists":
        return this.exists(node.field);
      case "term":
        return this.term(node.field, node.text);
      case "phrase": {
        const field = this.textField(node.field);
        if (field === undefined) return this.entryValue(node.field ?? "", node.text);
        return this.phrase(field, analyze(node.text).terms);
      }
      case "prefix":
        return this.prefix(node.field, node.prefix);
      case "range":
        return this.range(node);
    }
  }

  private bool(node: Extract<QueryNode, { kind: "bool" }>): Filter | undefined {
    const present = (nodes: QueryNode[]) => nodes.map((one) => this.node(one)).filter((one) => one !== undefined);
    const must = present(node.must);
    const should = present(node.should);
    const mustNot = present(node.mustNot);
    const clauses: Filter[] = [...must];
    // Optional clauses narrow only when nothing is required (Lucene: then at least one must match).
    if (must.length === 0 && should.length > 0)
      clauses.push(should.length === 1 ? (should[0] as Filter) : { $or: should });
    if (mustNot.length > 0) clauses.push({ $nor: mustNot });
    if (clauses.length === 0) return node.must.length + node.should.length > 0 ? undefined : {};
    return clauses.length === 1 ? clauses[0] : { $and: clauses };
  }

  /** A text field by its name in a query (none: keyword), or undefined when it is one of the entry's own. */
  private textField(field: string | null): string | undefined {
    if (field === null) return KEYWORD;
    if (this.fields.has(field)) return field;
    if (ENTRY_FIELDS.has(field)) return undefined;
    throw new QueryFieldError(`Unknown search field "${field.slice(0, 100)}"`);
  }

  private term(name: string | null, text: string): Filter | undefined {
    const field = this.textField(name);
    if (field === undefined) return this.entryValue(name ?? "", text);
    const { terms, whole } = analyze(text);
    if (terms.length === 0 && whole.length === 0) return undefined;
    if (terms.length === 1 && whole.length === 0) return { words: `${field}:${terms[0] ?? ""}` };
    // Several words in one term (an escaped space, an identifier such as MSS-060): the identifier whole, or the
    // words in that order, as Solr's analysed term becomes a phrase.
    const alternatives: Filter[] = whole.map((token) => ({ words: `${field}:${token}` }));
    const asPhrase = this.phrase(field, terms);
    if (asPhrase !== undefined) alternatives.push(asPhrase);
    return alternatives.length === 1 ? alternatives[0] : { $or: alternatives };
  }

  private phrase(field: string, terms: readonly string[]): Filter | undefined {
    if (terms.length === 0) return undefined;
    const keys = { words: { $all: [...new Set(terms)].map((term) => `${field}:${term}`) } };
    if (terms.length === 1) return keys;
    const inOrder = { $regex: escapeRegex(` ${terms.join(" ")} `) };
    if (field !== KEYWORD) return { $and: [keys, { [`text.${field}`]: inOrder }] };
    // Entries keep no keyword text (it would be a second copy of every field's): the phrase in any one field.
    const fields = [...this.fields].filter((one) => one !== KEYWORD);
    return { $and: [keys, { $or: fields.map((one) => ({ [`text.${one}`]: inOrder })) }] };
  }

  private prefix(name: string | null, prefix: string): Filter | undefined {
    const field = this.textField(name);
    if (field === undefined) {
      const own = ENTRY_FIELDS.get(name ?? "");
      if (own?.kind !== "string") throw new QueryFieldError(`"${name ?? ""}" takes no wildcard`);
      return { [own.path]: { $regex: `^${escapeRegex(prefix)}` } };
    }
    // As Solr: a wildcard term is folded but not stemmed, and matched against the indexed (stemmed) terms.
    const folded = fold(prefix);
    if (folded === "") return this.exists(field);
    const key = `${field}:${folded}`;
    return { words: { $elemMatch: { $gte: key, $lt: after(key) } } };
  }

  private exists(name: string): Filter {
    const field = this.textField(name);
    if (field === undefined) return { [ENTRY_FIELDS.get(name)?.path ?? name]: { $exists: true, $ne: null } };
    return { words: { $elemMatch: { $gte: `${field}:`, $lt: after(`${field}:`) } } };
  }

  private entryValue(name: string, text: string): Filter {
    const own = ENTRY_FIELDS.get(name);
    if (own === undefined) throw new QueryFieldError(`Unknown search field "${name.slice(0, 100)}"`);
    switch (own.kind) {
      case "boolean":
        if (text !== "true" && text !== "false") throw new QueryFieldError(`${name} is true or false, not "${text}"`);
        return { [own.path]: text === "true" };
      case "date":
        return { [own.path]: this.date(name, text) };
      default:
        return { [own.path]: text };
    }
  }

  private date(name: string, text: string): Date {
    const date = new Date(text);
    if (Number.isNaN(date.getTime())) throw new QueryFieldError(`${name} takes a date, not "${text.slice(0, 100)}"`);
    return date;
  }

  private range(node: Extract<QueryNode, { kind: "range" }>): Filter {
    const name = node.field ?? KEYWORD;
    const field = this.textField(node.field);
    const own = ENTRY_FIELDS.get(name);
    const bound = (text: string): unknown => {
      if (field !== undefined) return `${field}:${fold(text)}`;
      if (own?.kind === "date") return this.date(name, text);
      return text;
    };
    const condition = dictionary<unknown>();
    if (node.from !== null) condition[node.includeFrom ? "$gte" : "$gt"] = bound(node.from);
    else if (field !== undefined) condition.$gte = `${field}:`;
    if (node.to !== null) condition[node.includeTo ? "$lte" : "$lt"] = bound(node.to);
    else if (field !== undefined) condition.$lt = after(`${field}:`);
    // On the multikey words one key must meet both bounds ($elemMatch), not each bound some key.
    return field === undefined ? { [own?.path ?? name]: condition } : { words: { $elemMatch: condition } };
  }
}
