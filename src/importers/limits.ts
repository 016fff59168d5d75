// The bounds every import runs within, whoever starts it (the HTTP routes or `npm run import`):
// the config's `imports` settings, with their defaults for callers that pass none (tests, tools).
import { loadConfig, type ImportConfig } from "../config.js";

export type ImportLimits = ImportConfig;

/**
 * IMPORT_MAX_XML_DEPTH, IMPORT_MAX_XML_TEXT_BYTES, ... at their defaults (read from an empty environment, not
 * process.env).
 */
export const DEFAULT_IMPORT_LIMITS: ImportLimits = loadConfig({}).imports;
