// What every part of an EAD export works with: the writer, the options, the linked records
// loaded for the current batch, and document-wide counters.
import type { LinkedRecords } from "./linked-records.js";
import { writeMixed } from "./mixed-content.js";
import type { XmlWriter } from "./xml-writer.js";

export interface EadExportOptions {
  /** EAD3 (`http://ead3.archivists.org/schema/`) instead of EAD 2002. */
  ead3: boolean;
  /** Also records, notes, agents, ... marked `publish: false` (with `audience="internal"`). */
  includeUnpublished: boolean;
  /** Digital object instances as `<dao>`/`<daogrp>` (ArchivesSpace leaves them out unless asked). */
  includeDaos: boolean;
  /** A `<unitid type="aspace_uri">` with each record's uri. */
  includeUris: boolean;
  /** `<c01>`..`<c12>` (deeper: `<c13>`...) instead of `<c>`. */
  numberedCs: boolean;
}

export const DEFAULT_EXPORT_OPTIONS: EadExportOptions = {
  ead3: false,
  includeUnpublished: false,
  includeDaos: false,
  includeUris: false,
  numberedCs: false,
};

/** Anything an export may leave out: a record, a note, a link, a file version. */
export interface Publishable {
  publish?: boolean;
  suppressed?: boolean;
}

export class EadContext {
  private containerCount = 0;

  constructor(
    readonly xml: XmlWriter,
    readonly options: EadExportOptions,
    readonly linked: LinkedRecords,
  ) {}

  get ead3(): boolean {
    return this.options.ead3;
  }

  /** Whether a record, note or link is exported: `publish: false` ones only when unpublished ones are asked for. */
  shown<T extends Publishable>(item: T | undefined): item is T {
    return (
      item !== undefined && item.suppressed !== true && (item.publish !== false || this.options.includeUnpublished)
    );
  }

  /** `audience="internal"` for an unpublished item (shown only with include_unpublished). */
  audience(item: Publishable): string | undefined {
    return item.publish === false ? "internal" : undefined;
  }

  /** A fresh @id for a container element (containers have no stored identity of their own). */
  containerId(): string {
    this.containerCount += 1;
    return `aspace_container_${this.containerCount}`;
  }

  /** Prose into the open element: its inline EAD markup as elements, the rest as text (mixed-content.ts). */
  content(value: string): void {
    writeMixed(this.xml, value, this.ead3);
  }

  /** `<name>` holding prose; nothing when there is no text. */
  // keys: attribute names written in code
  prose(name: string, value: string | undefined, attributes: Record<string, string | undefined> = {}): void {
    if (value === undefined || value.trim() === "") return;
    this.xml.open(name, attributes);
    this.content(value);
    this.xml.close(name);
  }

  /** `<name>` holding prose, written even when empty (an element the schema requires). */
  // keys: attribute names written in code
  proseElement(name: string, value: string | undefined, attributes: Record<string, string | undefined> = {}): void {
    this.xml.open(name, attributes);
    if (value !== undefined) this.content(value);
    this.xml.close(name);
  }

  /** Block text: one `<p>` per paragraph (paragraphs are separated by blank lines). */
  // keys: attribute names written in code
  paragraphs(value: string | undefined, attributes: Record<string, string | undefined> = {}): void {
    if (value === undefined) return;
    for (const paragraph of value.split(/\r?\n\s*\r?\n/)) this.prose("p", paragraph.trim(), attributes);
  }

  /**
   * Several strings, or paragraphs, in one mixed-content element (a singlepart note's content
   * items): separated by `<lb/>`, which EAD importers (ArchivesSpace's too) read back as a
   * paragraph break.
   */
  lines(values: readonly string[]): void {
    const paragraphs = values
      .flatMap((value) => value.split(/\r?\n\s*\r?\n/))
      .map((value) => value.trim())
      .filter((value) => value !== "");
    paragraphs.forEach((value, index) => {
      if (index > 0) {
        this.xml.mixed();
        this.xml.element("lb");
      }
      this.content(value);
    });
  }

  /**
   * An access term element (persname, subject, ...): its text as it is in EAD 2002, in `<part>`s
   * in EAD3 (one per given part, with its @localtype).
   */
  accessTerm(
    name: string,
    attributes: Record<string, string | undefined>,
    parts: ReadonlyArray<{ text: string; localtype?: string }>,
  ): void {
    this.xml.open(name, attributes);
    if (this.ead3) for (const part of parts) this.xml.element("part", { localtype: part.localtype }, part.text);
    else this.xml.text(parts.map((part) => part.text).join(" -- "));
    this.xml.close(name);
  }
}
