// Exports: records as files in the archival standards, streamed (see formats.ts for the formats
// and export-controller.ts for the routes the schemas' x-exports give them).
export { DEFAULT_EXPORT_OPTIONS, EadExporter, type EadExportOptions, type PreparedEadExport } from "./ead-export.js";
export { EAD_EXPORT_PARAMETERS, EAD_FORMAT } from "./ead-format.js";
export { exportController, type ExportControllerDeps } from "./export-controller.js";
export type { ExportFormat, ExportParameter, ExportRequest, PreparedExport } from "./export-format.js";
export { EXPORT_FORMATS } from "./formats.js";
export { EXPORT_BATCH_SIZE } from "./tree-batches.js";
export { SinkClosedError, XmlWriter, type XmlSink } from "./xml-writer.js";
