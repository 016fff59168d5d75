// Every export format, by the name a schema's x-exports gives it.
import { DUBLIN_CORE_FORMAT } from "./dublin-core-format.js";
import { EAC_CPF_FORMAT } from "./eac-format.js";
import { EAD_FORMAT } from "./ead-format.js";
import type { ExportFormat } from "./export-format.js";
import { LABELS_FORMAT } from "./labels-format.js";
import { MARC21_FORMAT } from "./marc21-format.js";
import { METS_FORMAT } from "./mets-format.js";
import { MODS_FORMAT } from "./mods-format.js";

export const EXPORT_FORMATS: ReadonlyMap<string, ExportFormat> = new Map(
  [EAD_FORMAT, EAC_CPF_FORMAT, MARC21_FORMAT, LABELS_FORMAT, MODS_FORMAT, METS_FORMAT, DUBLIN_CORE_FORMAT].map(
    (format) => [format.name, format],
  ),
);
