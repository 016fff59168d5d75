// Source values for enumerated fields (extent types, acquisition types, name rules, ...) matched
// against the enumeration's list. Files spell values as people read them ("Linear Feet",
// "Gift"); the lists hold codes (linear_feet, gift). A value that matches no code is the
// parser's to report: it is never passed on to fail validation, nor dropped unsaid.
// Shared by the CSV, MARCXML and EAC-CPF parsers.
import { registry } from "../../registry/index.js";
import type { EnumerationValues } from "../../registry/enumerations.js";

/** The schemas' seed values: what a parser matches against when the import gives it no stored lists. */
export const seedEnumerations: EnumerationValues = { valuesOf: (name) => registry.enumerations.get(name)?.values };

/** Case, spaces, hyphens and slashes do not tell values apart: "Linear Feet", "linear-feet", "linear_feet". */
const comparable = (value: string): string =>
  value
    .trim()
    .toLowerCase()
    .replace(/[\s\-/]+/g, "_");

export class EnumeratedValues {
  constructor(private readonly source: EnumerationValues = seedEnumerations) {}

  /** The enumeration's values, in order (empty for a name no schema declares). */
  values(name: string): readonly string[] {
    return this.source.valuesOf(name) ?? [];
  }

  /** The value of the list `raw` stands for, or undefined when it stands for none. */
  match(name: string, raw: string): string | undefined {
    const wanted = comparable(raw);
    if (wanted === "") return undefined;
    return this.values(name).find((value) => comparable(value) === wanted);
  }

  /** The list's values for a message: "one of cassettes, cubic_feet, ...". */
  describe(name: string): string {
    return `one of ${this.values(name).join(", ")}`;
  }
}
