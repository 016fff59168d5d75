// The Lucene query syntax ArchivesSpace clients send as `q`, parsed into a tree the search runs.
// Clauses combine as Lucene's classic parser combines them (AND makes its neighbours required, NOT
// the next clause prohibited), since clients write queries against that behaviour. Terms are kept
// as typed: analysis (folding, stemming) is the search's business, not the parser's. Size, clause
// count and nesting are bounded, and any input ends in a tree or a QueryParseError, in linear time.
import { lookupTable } from "../../registry/index.js";
import { QueryParseError, shown, tokenize, type Token } from "./lexer.js";

export { QueryParseError };

export type QueryNode =
  | { kind: "all" }
  | { kind: "term"; field: string | null; text: string }
  | { kind: "phrase"; field: string | null; text: string }
  | { kind: "prefix"; field: string | null; prefix: string }
  | { kind: "exists"; field: string }
  | {
      kind: "range";
      field: string | null;
      from: string | null;
      to: string | null;
      includeFrom: boolean;
      includeTo: boolean;
    }
  | { kind: "bool"; must: QueryNode[]; should: QueryNode[]; mustNot: QueryNode[] };

/** The longest query accepted, in UTF-16 units. */
export const QUERY_MAX_LENGTH = 4096;
/** The most leaf clauses (terms, phrases, prefixes, ranges, `*`) in one query. */
export const QUERY_MAX_CLAUSES = 1024;
/** The deepest nesting of parentheses. */
export const QUERY_MAX_DEPTH = 32;

export interface ParseOptions {
  /** How clauses with no operator between them combine; Lucene's default is OR. */
  defaultOperator?: "OR" | "AND";
}

type Occur = "must" | "should" | "mustNot";
type Conjunction = "none" | "and" | "or";
type Modifier = "none" | "required" | "prohibited";

const CLAUSE_START = new Set<Token["type"]>([
  "field",
  "term",
  "phrase",
  "prefix",
  "star",
  "alldocs",
  "range",
  "lparen",
]);
const MODIFIERS: Readonly<Partial<Record<Token["type"], Modifier>>> = lookupTable({
  plus: "required",
  minus: "prohibited",
  not: "prohibited",
});

export function parseQuery(q: string, options: ParseOptions = {}): QueryNode {
  if (q.length > QUERY_MAX_LENGTH) {
    throw new QueryParseError(`The query is longer than ${QUERY_MAX_LENGTH} characters`, QUERY_MAX_LENGTH);
  }
  const tokens = tokenize(q);
  if (tokens.length === 0) return { kind: "all" };
  return new Parser(tokens, q.length, options.defaultOperator === "AND").parse();
}

class Parser {
  private next = 0;
  private leaves = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly end: number,
    private readonly defaultAnd: boolean,
  ) {}

  parse(): QueryNode {
    const node = this.query(null, 0);
    const stray = this.peek();
    if (stray !== undefined) {
      // query() stops only at the end or at a ")": here, one that closes nothing.
      throw new QueryParseError(`Unbalanced parentheses: the ')' at position ${stray.pos} has no '('`, stray.pos);
    }
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.next];
  }

  private take(): Token {
    const token = this.tokens[this.next];
    if (token === undefined) throw new QueryParseError("Unexpected end of the query", this.end);
    this.next++;
    return token;
  }

  /** Clauses up to the end or a ")", under `field` (the default field when null). */
  private query(field: string | null, depth: number): QueryNode {
    const clauses: { occur: Occur; node: QueryNode }[] = [];
    for (;;) {
      let token = this.peek();
      if (token === undefined || token.type === "rparen") {
        if (clauses.length > 0) break;
        if (token === undefined) throw new QueryParseError("Unexpected end of the query", this.end);
        throw new QueryParseError(`Unexpected ')' at position ${token.pos}`, token.pos);
      }
      let operator: Token | undefined;
      let conjunction: Conjunction = "none";
      if (token.type === "and" || token.type === "or") {
        if (clauses.length === 0) {
          throw new QueryParseError(`'${token.image}' at position ${token.pos} has no clause before it`, token.pos);
        }
        conjunction = token.type;
        operator = this.take();
        token = this.peek();
      }
      let modifier: Modifier = "none";
      const mod = token === undefined ? undefined : MODIFIERS[token.type];
      if (mod !== undefined) {
        modifier = mod;
        operator = this.take();
        token = this.peek();
      }
      if (token === undefined || !CLAUSE_START.has(token.type)) {
        const found = token === undefined ? "the end of the query" : `'${shown(token.image)}'`;
        if (operator === undefined) {
          throw new QueryParseError(
            `Unexpected ${found} at position ${token?.pos ?? this.end}`,
            token?.pos ?? this.end,
          );
        }
        const at = token?.pos ?? this.end;
        throw new QueryParseError(
          `Expected a clause after '${operator.image}' at position ${operator.pos}, found ${found}`,
          at,
        );
      }
      this.addClause(clauses, conjunction, modifier, this.clause(field, depth));
    }
    return combine(clauses);
  }

  // Lucene's classic QueryParser.addClause: AND makes the clause before it required (unless it is
  // prohibited); with AND as the default, OR makes it optional again, and a clause introduced by OR
  // is optional even with a "+" (Lucene's reading, kept so a query means what it means to Solr).
  private addClause(
    clauses: { occur: Occur; node: QueryNode }[],
    conjunction: Conjunction,
    modifier: Modifier,
    node: QueryNode,
  ): void {
    const previous = clauses[clauses.length - 1];
    if (previous !== undefined && previous.occur !== "mustNot") {
      if (conjunction === "and") previous.occur = "must";
      else if (conjunction === "or" && this.defaultAnd) previous.occur = "should";
    }
    let occur: Occur;
    if (modifier === "prohibited") occur = "mustNot";
    else if (this.defaultAnd) occur = conjunction === "or" ? "should" : "must";
    else occur = modifier === "required" || conjunction === "and" ? "must" : "should";
    clauses.push({ occur, node });
  }

  /** One clause: an optional `field:` and a value, with any boost or slop after it (ignored). */
  private clause(defaultField: string | null, depth: number): QueryNode {
    let token = this.take();
    let field = defaultField;
    if (token.type === "field") {
      field = token.name;
      const value = this.peek();
      if (value === undefined || !CLAUSE_START.has(value.type) || value.type === "field") {
        const at = value?.pos ?? this.end;
        throw new QueryParseError(`Expected a value for the field '${token.name}' at position ${at}`, at);
      }
      token = this.take();
    }
    switch (token.type) {
      case "lparen":
        return this.group(token, field, depth);
      case "term":
        return this.leaf(token, { kind: "term", field, text: token.text }, true);
      case "phrase":
        return this.leaf(token, { kind: "phrase", field, text: token.text }, true);
      case "prefix":
        return this.leaf(token, { kind: "prefix", field, prefix: token.prefix }, true);
      case "star":
        return this.leaf(token, field === null ? { kind: "all" } : { kind: "exists", field }, true);
      case "alldocs":
        return this.leaf(token, { kind: "all" }, true);
      case "range": {
        const { from, to, includeFrom, includeTo } = token;
        return this.leaf(token, { kind: "range", field, from, to, includeFrom, includeTo }, false);
      }
      default:
        throw new QueryParseError(`Unexpected '${shown(token.image)}' at position ${token.pos}`, token.pos);
    }
  }

  private group(open: Token, field: string | null, depth: number): QueryNode {
    if (depth + 1 > QUERY_MAX_DEPTH) {
      throw new QueryParseError(
        `Parentheses are nested more than ${QUERY_MAX_DEPTH} deep at position ${open.pos}`,
        open.pos,
      );
    }
    const first = this.peek();
    if (first === undefined) {
      throw new QueryParseError(`Unbalanced parentheses: the '(' at position ${open.pos} is never closed`, open.pos);
    }
    if (first.type === "rparen") throw new QueryParseError(`Empty parentheses at position ${open.pos}`, open.pos);
    const node = this.query(field, depth + 1);
    if (this.peek()?.type !== "rparen") {
      throw new QueryParseError(`Unbalanced parentheses: the '(' at position ${open.pos} is never closed`, open.pos);
    }
    this.next++;
    this.skipAdjustments(false);
    return node;
  }

  private leaf(token: Token, node: QueryNode, slopAllowed: boolean): QueryNode {
    this.leaves++;
    if (this.leaves > QUERY_MAX_CLAUSES) {
      throw new QueryParseError(
        `The query has more than ${QUERY_MAX_CLAUSES} clauses (at position ${token.pos})`,
        token.pos,
      );
    }
    this.skipAdjustments(slopAllowed);
    return node;
  }

  /** Boosts (`^2`) and proximity or fuzziness (`~2`) are accepted and ignored: results are not ranked by them. */
  private skipAdjustments(slopAllowed: boolean): void {
    for (let token = this.peek(); token !== undefined; token = this.peek()) {
      if (token.type === "slop" && !slopAllowed) {
        throw new QueryParseError(`'~' at position ${token.pos} applies only to a term or a phrase`, token.pos);
      }
      if (token.type !== "boost" && token.type !== "slop") return;
      this.next++;
    }
  }
}

function combine(clauses: { occur: Occur; node: QueryNode }[]): QueryNode {
  const bool = {
    kind: "bool" as const,
    must: [] as QueryNode[],
    should: [] as QueryNode[],
    mustNot: [] as QueryNode[],
  };
  for (const { occur, node } of clauses) bool[occur].push(node);
  const [only] = bool.should;
  if (only !== undefined && bool.should.length === 1 && bool.must.length === 0 && bool.mustNot.length === 0)
    return only;
  // Only prohibited clauses mean "everything except these", not "nothing".
  if (bool.must.length === 0 && bool.should.length === 0) bool.must.push({ kind: "all" });
  return bool;
}
