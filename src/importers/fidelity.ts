// The fidelity report of an import: per category of archival description, how many the source
// held and how many the import created or reused. A migrating archivist reads it to see at a
// glance what came through; a test reads it to prove nothing was dropped.
//
// The two sides are counted apart on purpose. The parser counts the source from its elements
// (a census that does not go through the mapping), and tells the import (ParseContext.found).
// What was imported is counted by the committer from the records it actually created or linked
// (PendingRecord.brings): a record that is never written brings nothing.

/** The categories, in the order the report lists them. */
export const FIDELITY_CATEGORIES = [
  "components",
  "agents",
  "subjects",
  "notes",
  "dates",
  "extents",
  "containers",
  "digital_objects",
] as const;

export type FidelityCategory = (typeof FIDELITY_CATEGORIES)[number];

/** Counts by category; a category left out is 0. */
export type FidelityCounts = Partial<Record<FidelityCategory, number>>;

export interface FidelityLine {
  /** Found in the source. */
  source: number;
  /** Created or reused by the import (for a dry run: that would be). */
  imported: number;
}

export type FidelityReport = Partial<Record<FidelityCategory, FidelityLine>>;

/** Sums both sides while a file is read and written. */
export class FidelityTally {
  private readonly source = new Map<FidelityCategory, number>();
  private readonly imported = new Map<FidelityCategory, number>();

  found(counts: FidelityCounts): void {
    add(this.source, counts);
  }

  brought(counts: FidelityCounts | undefined): void {
    if (counts !== undefined) add(this.imported, counts);
  }

  /** Every category either side counted, in the report's order; undefined when the format counts nothing. */
  report(): FidelityReport | undefined {
    if (this.source.size === 0) return undefined;
    const report: FidelityReport = {};
    for (const category of FIDELITY_CATEGORIES) {
      const source = this.source.get(category) ?? 0;
      const imported = this.imported.get(category) ?? 0;
      if (source > 0 || imported > 0) report[category] = { source, imported };
    }
    return report;
  }
}

function add(into: Map<FidelityCategory, number>, counts: FidelityCounts): void {
  for (const category of FIDELITY_CATEGORIES) {
    const n = counts[category] ?? 0;
    if (n > 0) into.set(category, (into.get(category) ?? 0) + n);
  }
}

/** The categories whose imported count falls short of the source's, as "notes 3 of 5": for messages. */
export function shortfalls(report: FidelityReport | undefined): string[] {
  if (report === undefined) return [];
  return FIDELITY_CATEGORIES.flatMap((category) => {
    const line = report[category];
    return line !== undefined && line.imported < line.source
      ? [`${category.replace("_", " ")} ${line.imported} of ${line.source}`]
      : [];
  });
}
