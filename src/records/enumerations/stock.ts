// A stock ArchivesSpace install's enumerations (record-types/enumerations/stock.json): the ids,
// names, values, positions and flags its database holds after every migration. Clients hard-code
// these ids (Archivematica's client reads /config/enumerations/32 as the levels of description),
// so every enumeration Arca creates takes its stock id, and each stock value its stock value id;
// the rest get ids after the stock range. The data is checked as it is loaded, so a bad edit of
// the file stops start-up instead of seeding wrong ids.
import data from "../../../record-types/enumerations/stock.json" with { type: "json" };

export interface StockValue {
  readonly id: number;
  readonly value: string;
  readonly position: number;
  readonly readonly: boolean;
}

export interface StockEnumeration {
  readonly id: number;
  readonly name: string;
  readonly editable: boolean;
  readonly default_value?: string;
  /** In position order. */
  readonly values: readonly StockValue[];
}

export interface StockEnumerations {
  readonly byName: ReadonlyMap<string, StockEnumeration>;
  /** The highest stock enumeration id: ids above it are Arca's own. */
  readonly maxEnumerationId: number;
  /** The highest stock value id: value ids above it are Arca's own. */
  readonly maxValueId: number;
}

interface RawValue {
  id: number;
  value: string;
  position: number;
  readonly?: boolean;
}

interface RawEnumeration {
  id: number;
  name: string;
  editable: boolean;
  default_value?: string;
  values: RawValue[];
}

class StockDataError extends Error {}

/**
 * The stock data as a lookup, after checking what the engine relies on: unique ids and names, a
 * default among the values.
 */
export function stockEnumerations(raw: readonly RawEnumeration[]): StockEnumerations {
  const byName = new Map<string, StockEnumeration>();
  const enumerationIds = new Set<number>();
  const valueIds = new Set<number>();
  for (const entry of raw) {
    if (!Number.isSafeInteger(entry.id) || entry.id < 1 || enumerationIds.has(entry.id) || byName.has(entry.name))
      throw new StockDataError(`stock enumeration ${entry.name} (${entry.id}): id or name repeated or not positive`);
    enumerationIds.add(entry.id);
    const texts = new Set<string>();
    const values = entry.values.map((value): StockValue => {
      if (!Number.isSafeInteger(value.id) || value.id < 1 || valueIds.has(value.id) || texts.has(value.value))
        throw new StockDataError(`stock enumeration ${entry.name}: value ${value.value} (${value.id}) repeated`);
      valueIds.add(value.id);
      texts.add(value.value);
      return { id: value.id, value: value.value, position: value.position, readonly: value.readonly === true };
    });
    if (entry.default_value !== undefined && !texts.has(entry.default_value))
      throw new StockDataError(`stock enumeration ${entry.name}: default ${entry.default_value} is not a value`);
    values.sort((a, b) => a.position - b.position);
    byName.set(entry.name, {
      id: entry.id,
      name: entry.name,
      editable: entry.editable,
      ...(entry.default_value === undefined ? {} : { default_value: entry.default_value }),
      values,
    });
  }
  return { byName, maxEnumerationId: Math.max(0, ...enumerationIds), maxValueId: Math.max(0, ...valueIds) };
}

/** A stock install's enumerations (record-types/enumerations/stock.json). */
export const STOCK_ENUMERATIONS: StockEnumerations = stockEnumerations(data.enumerations);

/** No stock data: what a store gets when it is to number everything itself (tests of the engine's own rules). */
export const NO_STOCK: StockEnumerations = { byName: new Map(), maxEnumerationId: 0, maxValueId: 0 };
