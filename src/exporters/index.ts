// Exports: a resource and its tree as EAD 2002 or EAD3, streamed.
export {
  DEFAULT_EXPORT_OPTIONS,
  EadExporter,
  EXPORT_BATCH_SIZE,
  type EadExportOptions,
  type PreparedEadExport,
} from "./ead-export.js";
export {
  EAD_CONTENT_TYPE,
  EAD_EXPORT_PARAMETERS,
  EAD_EXPORT_PATH,
  exportController,
  type ExportControllerDeps,
} from "./export-controller.js";
export { SinkClosedError, XmlWriter, type XmlSink } from "./xml-writer.js";
