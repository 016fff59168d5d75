// ArchivesSpace JSON batches (its batch_imports format): records that link to each other by
// temporary uris (`/subjects/import_1`, `/agents/people/import_5`). They are yielded in
// dependency order (a record after everything it links to), whatever order the batch has.
// A batch may be split over several files given together: their records are one batch.
// Batches are read whole (they are records, not documents: even big ones are a few MB), up to
// IMPORT_MAX_JSON_BATCH_BYTES, and nested at most IMPORT_MAX_XML_DEPTH deep (a record is a few
// levels; the code that checks records walks them, so the nesting a file may have is bounded).
import type { Readable } from "node:stream";
import { isJsonObject, type JsonObject, type JsonValue } from "../registry/json.js";
import { linksAt, type Registry } from "../registry/index.js";
import { deriveFields } from "../records/computed/derived-fields.js";
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from "./limits.js";
import { ImportError, type FormatParser, type ImportInput, type PendingRecord } from "./pending.js";

/** Types a batch may not hold: accounts and repositories have their own routes and rules. */
const NOT_IMPORTABLE = new Set(["repository", "user", "group"]);

async function readText(stream: Readable, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of stream) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      bytes += buffer.length;
      if (bytes > maxBytes)
        throw new ImportError(
          `the batch is larger than ${maxBytes} bytes, the most an import reads whole (IMPORT_MAX_JSON_BATCH_BYTES): split it into several batches`,
          { line: 1 },
        );
      chunks.push(buffer);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
}

/** One or more JSON values one after another (files given together): each parsed alone. */
function jsonValues(text: string, maxDepth: number): JsonValue[] {
  const values: JsonValue[] = [];
  const open: string[] = [];
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "[" || c === "{") {
      if (open.length === 0) start = i;
      if (open.length >= maxDepth)
        throw new ImportError(
          `arrays and objects nested more than ${maxDepth} deep (IMPORT_MAX_XML_DEPTH)`,
          lineOf(text, i),
        );
      open.push(c === "[" ? "]" : "}");
    } else if (c === "]" || c === "}") {
      const expected = open.pop();
      if (expected !== c)
        throw new ImportError(
          `malformed JSON: "${c}" where ${expected === undefined ? "no bracket is open" : `"${expected}" closes what is open`}`,
          lineOf(text, i),
        );
      if (open.length === 0) values.push(parseJson(text.slice(start, i + 1), start, text));
    } else if (open.length === 0 && !/\s/.test(c)) {
      throw new ImportError(`expected an array or object of records, found "${c}"`, lineOf(text, i));
    }
  }
  if (open.length > 0 || inString)
    throw new ImportError(
      "the JSON ends before its last value is complete (truncated file?)",
      lineOf(text, text.length),
    );
  return values;
}

function lineOf(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  const line = before.split("\n").length;
  return { line, column: index - before.lastIndexOf("\n") };
}

function parseJson(slice: string, offset: number, text: string): JsonValue {
  try {
    return JSON.parse(slice) as JsonValue;
  } catch (error) {
    const position = /position (\d+)/.exec(error instanceof Error ? error.message : "")?.[1];
    throw new ImportError(
      `malformed JSON: ${error instanceof Error ? error.message : String(error)}`,
      lineOf(text, offset + Number(position ?? 0)),
    );
  }
}

/**
 * How to recognise a record imported before (see PendingRecord.match), from its schema: a
 * record with an identity of its own (a unique field such as ead_id or digital_object_id, or
 * its 4-part identifier) that exists means, in a repository, that the batch was imported
 * before (the file is skipped), and for a global record that it is shared (reused).
 * Subjects and agents are also reused when their authority id (or, for agents, their sorted
 * name) matches.
 */
function matchOf(registry: Registry, type: string, record: JsonObject): Pick<PendingRecord, "match" | "onMatch"> {
  const text = (value: JsonValue | undefined): value is string => typeof value === "string" && value !== "";
  const settings = registry.get(type);
  // Global records (subjects, agents, locations...) are shared by every batch that names them.
  const onMatch = settings.scope === "global" ? "reuse" : "skip-file";
  for (const rule of settings.unique) {
    if (rule.within.length === 0 && rule.fields.every((field) => text(record[field]))) {
      return { match: Object.fromEntries(rule.fields.map((field) => [field, record[field] as string])), onMatch };
    }
  }
  const ids = (settings.identifiers?.fields ?? []).filter((field) => text(record[field]));
  if (ids.length > 0)
    return { match: Object.fromEntries(ids.map((field) => [field, record[field] as string])), onMatch };
  if (type === "subject" && text(record.authority_id))
    return { match: { authority_id: record.authority_id }, onMatch: "reuse" };
  const names = Array.isArray(record.names) ? record.names.filter(isJsonObject) : [];
  const name = names[0];
  if (type.startsWith("agent_") && name !== undefined) {
    if (text(name.authority_id)) return { match: { "names.authority_id": name.authority_id }, onMatch: "reuse" };
    if (text(name.sort_name)) return { match: { "names.sort_name": name.sort_name }, onMatch: "reuse" };
  }
  return {};
}

export class AspaceJsonParser implements FormatParser {
  readonly format = "aspace-json" as const;

  constructor(
    private readonly registry: Registry,
    private readonly limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
  ) {}

  async *parse(input: ImportInput): AsyncIterable<PendingRecord> {
    const values = jsonValues(await readText(input.open(), this.limits.maxJsonBatchBytes), this.limits.maxXmlDepth);
    const records = values.flatMap((value) => (Array.isArray(value) ? value : [value]));
    const pending = records.map((value, i) => this.pending(value, i));
    yield* this.inDependencyOrder(this.withResources(pending));
  }

  private pending(value: JsonValue, index: number): PendingRecord {
    const source = { path: `[${index}]` };
    if (!isJsonObject(value)) throw new ImportError("a batch holds record objects", source);
    const type = value.jsonmodel_type;
    if (typeof type !== "string" || !this.registry.has(type))
      throw new ImportError(`unknown jsonmodel_type ${JSON.stringify(type ?? null)}`, source);
    if (NOT_IMPORTABLE.has(type)) throw new ImportError(`${type} records cannot be imported in a batch`, source);
    const key = typeof value.uri === "string" ? value.uri : `import:[${index}]`;
    // Matched by what the record will be stored with: an agent by its names' sort_name as derived on write.
    return {
      key,
      type,
      record: value,
      source,
      ...matchOf(this.registry, type, deriveFields(this.registry, type, value)),
    };
  }

  /**
   * A tree node without its root (ArchivesSpace exports archival objects so): the batch's one root record, if it has
   * exactly one.
   */
  private withResources(records: PendingRecord[]): PendingRecord[] {
    // Records by type, counted once (not a pass over the batch per tree node).
    const byType = new Map<string, PendingRecord[]>();
    for (const pending of records) {
      const same = byType.get(pending.type);
      if (same === undefined) byType.set(pending.type, [pending]);
      else same.push(pending);
    }
    return records.map((pending) => {
      const tree = this.registry.get(pending.type).tree;
      if (tree === null || pending.record[tree.root] !== undefined) return pending;
      const roots = byType.get(tree.rootType) ?? [];
      if (roots.length !== 1)
        throw new ImportError(
          `${pending.type} without its ${tree.root}, and the batch has ${roots.length} ${tree.rootType} records to supply it`,
          pending.source,
        );
      return { ...pending, record: { ...pending.record, [tree.root]: { ref: (roots[0] as PendingRecord).key } } };
    });
  }

  /** Every record after the records of the batch it links to; a cycle cannot be written. */
  private inDependencyOrder(records: PendingRecord[]): PendingRecord[] {
    const byKey = new Map<string, PendingRecord>();
    for (const pending of records) {
      if (byKey.has(pending.key)) throw new ImportError(`two records have the uri ${pending.key}`, pending.source);
      byKey.set(pending.key, pending);
    }
    const ordered: PendingRecord[] = [];
    const state = new Map<string, "visiting" | "done">();
    // Depth first with a stack of its own: a chain of records each linking the next (a deep tree
    // of components) is as long as the batch, and must not be limited by the call stack.
    interface Visit {
      pending: PendingRecord;
      targets: PendingRecord[];
      next: number;
    }
    const targetsOf = (pending: PendingRecord): PendingRecord[] => {
      const targets: PendingRecord[] = [];
      for (const refPath of this.registry.refPaths(pending.type)) {
        for (const link of linksAt(pending.record, refPath)) {
          const target = byKey.get(link.uri);
          if (target !== undefined) targets.push(target);
        }
      }
      return targets;
    };
    const enter = (pending: PendingRecord, stack: Visit[]): void => {
      const seen = state.get(pending.key);
      if (seen === "done") return;
      if (seen === "visiting") throw new ImportError(`${pending.key} is part of a cycle of links`, pending.source);
      state.set(pending.key, "visiting");
      stack.push({ pending, targets: targetsOf(pending), next: 0 });
    };
    for (const start of records) {
      const stack: Visit[] = [];
      enter(start, stack);
      while (stack.length > 0) {
        const top = stack[stack.length - 1] as Visit;
        const target = top.targets[top.next];
        if (target !== undefined) {
          top.next += 1;
          enter(target, stack);
          continue;
        }
        stack.pop();
        state.set(top.pending.key, "done");
        ordered.push(top.pending);
      }
    }
    return ordered;
  }
}
