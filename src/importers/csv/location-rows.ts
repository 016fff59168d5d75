// A row of ArchivesSpace's location import template (aspace_location_import_template.csv) as
// a location. A location has no identifier of its own, so it is matched on everything that
// places it (building, floor, room, area, barcode, classification, coordinates): importing the
// file again links the stored locations instead of creating them twice.
import type { Location } from "../../../generated/types/index.js";
import type { PendingRecord } from "../pending.js";
import { put, untyped, type Draft, type KeysOfType } from "../record-draft.js";
import type { TemplateRow } from "./template-row.js";

export const LOCATION_TEMPLATE_MARKERS = ["location_building"];

const PLACE_FIELDS: ReadonlyArray<KeysOfType<Location, string>> = [
  "building",
  "floor",
  "room",
  "area",
  "barcode",
  "classification",
  "coordinate_1_label",
  "coordinate_1_indicator",
  "coordinate_2_label",
  "coordinate_2_indicator",
  "coordinate_3_label",
  "coordinate_3_indicator",
];

export class LocationRows {
  /** A location's place -> the line that first named it. */
  private readonly places = new Map<string, number>();

  map(row: TemplateRow): PendingRecord | undefined {
    const cells: Array<[field: KeysOfType<Location, string>, value: string | null]> = PLACE_FIELDS.map((field) => [
      field,
      row.text(`location_${field}`) ?? null,
    ]);
    const match: Record<string, string | null> = Object.fromEntries(cells);
    const place: Draft<Location> = {};
    for (const [field, value] of cells) put(place, field, value ?? undefined);
    const { building, ...rest } = place;
    if (building === undefined) row.fail("location_building is empty: every location needs a building");
    const location: Location = { ...rest, building };
    const temporary = row.text("location_temporary");
    if (temporary !== undefined) {
      // The column holds the kind of temporary location (loan, exhibit, ...); a bare yes/no only says whether it is
      // one.
      if (/^(1|true|yes)$/i.test(temporary)) location.temporary_question = true;
      else if (/^(0|false|no)$/i.test(temporary)) location.temporary_question = false;
      else {
        const kind = row.enumerated("location_temporary", "location_temporary");
        if (kind !== undefined) {
          location.temporary = kind;
          location.temporary_question = true;
        }
      }
    }
    const unread = row.unread();
    if (unread.length > 0) row.warn(`not imported, no field takes them: ${unread.join(", ")}`);

    const identity = JSON.stringify(match);
    const earlier = this.places.get(identity);
    if (earlier !== undefined) {
      row.warn(`the same location as line ${earlier}: not created twice`);
      return undefined;
    }
    this.places.set(identity, row.line);
    return untyped({
      key: `csv:location:${row.line}`,
      type: "location",
      record: location,
      source: row.source,
      match,
      onMatch: "reuse",
    });
  }
}
