// What every part of the EAD mapping shares while one file is read: where to report, the
// enumeration lists source values are matched against, the vocabulary subjects go in, and the
// keys of the records the file has already handed on (one agent, subject, top container per
// distinct one).
import { lookupTable } from "../../registry/dictionary.js";
import type { EnumerationValues } from "../../registry/enumerations.js";
import type { FidelityCategory, FidelityCounts } from "../fidelity.js";
import type { ParseContext, PendingRecord, SourceLocation } from "../pending.js";
import { untyped, type RecordTypeName, type TypedPendingRecord } from "../record-draft.js";
import type { XmlElement } from "../xml/xml-reader.js";

/** Where an element is, for messages. */
export const at = (element: XmlElement): SourceLocation => ({
  line: element.line,
  column: element.column,
  path: element.path,
});

/**
 * Case, spaces, hyphens, underscores and slashes do not tell values apart: "Linear Feet", "linear-feet", "linear_feet".
 */
export const comparable = (value: string): string =>
  value
    .trim()
    .toLowerCase()
    .replace(/[\s\-_/]+/g, "_");

/** The fidelity category each record a unit links to counts in. */
const NEEDED_CATEGORY: Readonly<Record<string, FidelityCategory>> = lookupTable({
  agent_person: "agents",
  agent_family: "agents",
  agent_corporate_entity: "agents",
  subject: "subjects",
  top_container: "containers",
  digital_object: "digital_objects",
});

export class EadContext {
  /** Records the file needs before the record being built (agents, subjects, containers, digital objects). */
  private readonly needed: PendingRecord[] = [];
  private readonly warned = new Set<string>();
  private readonly counters = new Map<string, number>();
  /** Keys of records already handed on, by an identity each kind defines. */
  readonly known = new Map<string, string>();
  /** Sub-records the import made up to fill a gap (a collection's missing date): not counted as imported. */
  private readonly placeholders = new WeakSet<object>();

  constructor(
    private readonly parse: ParseContext,
    private readonly lists: EnumerationValues,
    /** The uri of the vocabulary subjects and their terms go in. */
    readonly vocabulary: string,
    /** Identifies the file's resource in generated identifiers (ead_id, else the unitid). */
    public fileIdentity = "ead",
  ) {}

  warn(message: string, source: SourceLocation): void {
    this.parse.warn(message, source);
  }

  /** Warns once per `once` key in the file (a value repeated a thousand times is one message). */
  warnOnce(once: string, message: string, source: SourceLocation): void {
    if (this.warned.has(once)) return;
    this.warned.add(once);
    this.parse.warn(`${message} (said once per file)`, source);
  }

  /** A key no other record of the file has: `ead:<kind>:<n>`. */
  nextKey(kind: string): string {
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    return `ead:${kind}:${n}`;
  }

  /** Marks a sub-record as made up to fill a gap. */
  placeholder<T extends object>(subrecord: T): T {
    this.placeholders.add(subrecord);
    return subrecord;
  }

  /** How many of `subrecords` come from the source (are not placeholders). */
  fromSource(subrecords: readonly object[] | undefined): number {
    return (subrecords ?? []).filter((subrecord) => !this.placeholders.has(subrecord)).length;
  }

  /** Tells the import what the source holds (the census of a unit). */
  found(counts: FidelityCounts): void {
    this.parse.found?.(counts);
  }

  /** Hands on a record the one being built links to: it goes out before that one. */
  need<K extends RecordTypeName>(record: TypedPendingRecord<K>): void {
    const category = NEEDED_CATEGORY[record.type];
    this.needed.push(untyped(category === undefined ? record : { ...record, brings: { [category]: 1 } }));
  }

  /** The records needed since the last call. */
  takeNeeded(): PendingRecord[] {
    return this.needed.splice(0);
  }

  values(list: string): readonly string[] {
    return this.lists.valuesOf(list) ?? [];
  }

  /** The list's value `raw` stands for (spelling aside, or through `synonyms`), if any. */
  match(list: string, raw: string, synonyms?: ReadonlyMap<string, string>): string | undefined {
    const wanted = comparable(raw);
    if (wanted === "") return undefined;
    const values = this.values(list);
    const direct = values.find((value) => comparable(value) === wanted);
    if (direct !== undefined) return direct;
    const synonym = synonyms?.get(wanted);
    return synonym !== undefined && values.includes(synonym) ? synonym : undefined;
  }

  /**
   * The list's value for `raw`, or (warning once per value, with the place) `fallback`: what
   * the record gets instead, described in the message; undefined leaves the field out.
   */
  pick(
    list: string,
    raw: string,
    what: string,
    where: SourceLocation,
    options: { synonyms?: ReadonlyMap<string, string>; fallback?: string } = {},
  ): string | undefined {
    const found = this.match(list, raw, options.synonyms);
    if (found !== undefined) return found;
    const fallback =
      options.fallback !== undefined && this.values(list).includes(options.fallback) ? options.fallback : undefined;
    const outcome = fallback === undefined ? "left out" : `recorded as '${fallback}'`;
    this.warnOnce(
      `${list}\u0000${raw}`,
      `${what} '${raw}' is not in the ${list} list (${this.values(list).join(", ")}): ${outcome}`,
      where,
    );
    return fallback;
  }
}

/** `publish` from @audience: internal is unpublished, external published, none says nothing. */
export function publishOf(element: XmlElement): boolean | undefined {
  const audience = element.attributes.audience?.trim().toLowerCase();
  if (audience === "internal") return false;
  if (audience === "external") return true;
  return undefined;
}
