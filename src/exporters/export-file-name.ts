// The file name an export's metadata route gives (ArchivesSpace's exports.rb): the record's
// fields the schema names in x-exports (those with a value, joined by its separator), then
// `_<suffix>.<extension>`, every run of whitespace turned into `_`, e.g. `MSS.060_marc21.xml` or
// `n79022305_Twain,_Mark_eac.xml`.
import type { ExportSettings, JsonObject, JsonValue } from "../registry/index.js";
import { isJsonObject } from "../registry/json.js";
import type { ExportFormat } from "./export-format.js";

/** The value at a dotted path (`names.0.primary_name`): list items by index, object fields by name. */
function valueAt(record: JsonObject, path: string): JsonValue | undefined {
  let value: JsonValue | undefined = record;
  for (const segment of path.split(".")) {
    if (Array.isArray(value)) value = /^[0-9]+$/.test(segment) ? value[Number(segment)] : undefined;
    else if (isJsonObject(value) && Object.hasOwn(value, segment)) value = value[segment];
    else return undefined;
  }
  return value;
}

export function exportFileName(
  record: JsonObject,
  settings: ExportSettings,
  format: Pick<ExportFormat, "fileSuffix" | "extension">,
): string {
  const parts = settings.filename.fields
    .map((field) => valueAt(record, field))
    .filter(
      (value): value is string | number => (typeof value === "string" && value !== "") || typeof value === "number",
    );
  return `${parts.join(settings.filename.separator)}_${format.fileSuffix}.${format.extension}`.replace(/\s+/g, "_");
}
