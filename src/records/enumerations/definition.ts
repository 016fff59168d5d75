// What an enumeration is, before any administrator's edit: a stock ArchivesSpace install's list
// (stock.ts: its id, values, value ids, positions, read-only values, default) merged with what the
// schemas declare (x-enumeration: seed values, read-only values, editable, the fields using it).
// Stock wins where both say something: its values come first, in its order and with its ids; a
// schema's seed values that stock lacks follow (the record types rely on them). `editable` is
// the schema's when a schema declares the enumeration, because the schema is what Arca's rules
// follow; stock's otherwise.
import type { EnumerationSeed } from "../../registry/enumerations.js";
import type { StockEnumeration, StockEnumerations } from "./stock.js";

export interface DefinedValue {
  readonly value: string;
  /** Its stock value id and position, when stock has it. */
  readonly stockId?: number;
  readonly stockPosition?: number;
}

export interface EnumerationDefinition {
  readonly name: string;
  /** Its stock id, when stock has it. */
  readonly stockId?: number;
  readonly editable: boolean;
  readonly defaultValue?: string;
  /** What a new store starts with, in order: stock's values, then the schema's seed values stock lacks. */
  readonly values: readonly DefinedValue[];
  /** Values that can never be removed: stock's read-only ones and those the schemas rely on. */
  readonly readonlyValues: ReadonlySet<string>;
  /** Where records hold its values (`<type>/<path>`); empty when no schema uses it. */
  readonly usedBy: readonly string[];
}

function define(name: string, seed: EnumerationSeed | undefined, stock: StockEnumeration | undefined) {
  const stockValues = stock?.values ?? [];
  const inStock = new Set(stockValues.map((value) => value.value));
  const values: DefinedValue[] = [
    ...stockValues.map((value) => ({ value: value.value, stockId: value.id, stockPosition: value.position })),
    ...(seed?.values ?? []).filter((value) => !inStock.has(value)).map((value) => ({ value })),
  ];
  return {
    name,
    ...(stock === undefined ? {} : { stockId: stock.id }),
    editable: seed?.editable ?? stock?.editable ?? true,
    ...(stock?.default_value === undefined ? {} : { defaultValue: stock.default_value }),
    values,
    readonlyValues: new Set([
      ...stockValues.filter((value) => value.readonly).map((value) => value.value),
      ...(seed?.readonlyValues ?? []),
    ]),
    usedBy: seed?.usedBy ?? [],
  };
}

/**
 * Every enumeration a store holds from the start: each stock one (in stock id order), then each
 * one only the schemas declare (in name order).
 */
export function defineEnumerations(
  seeds: Iterable<EnumerationSeed>,
  stock: StockEnumerations,
): Map<string, EnumerationDefinition> {
  const bySeed = new Map([...seeds].map((seed) => [seed.name, seed]));
  const definitions = new Map<string, EnumerationDefinition>();
  const stockFirst = [...stock.byName.values()].sort((a, b) => a.id - b.id);
  for (const entry of stockFirst) definitions.set(entry.name, define(entry.name, bySeed.get(entry.name), entry));
  const schemaOnly = [...bySeed.keys()].filter((name) => !stock.byName.has(name)).sort();
  for (const name of schemaOnly) definitions.set(name, define(name, bySeed.get(name), undefined));
  return definitions;
}
