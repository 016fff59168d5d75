// How much of an XML file the reader takes on: the config's import settings, as the reader uses them.
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from "../limits.js";

export interface XmlLimits {
  /** Elements nested deeper than this refuse the file (IMPORT_MAX_XML_DEPTH). */
  maxDepth: number;
  /**
   * The longest text node, CDATA section, comment, attribute value or name, in characters (IMPORT_MAX_XML_TEXT_BYTES).
   */
  maxTextChars: number;
}

/** The config's import settings as the reader's limits. */
export const xmlLimits = (limits: ImportLimits): XmlLimits => ({
  maxDepth: limits.maxXmlDepth,
  maxTextChars: limits.maxXmlTextBytes,
});

export const DEFAULT_XML_LIMITS: XmlLimits = xmlLimits(DEFAULT_IMPORT_LIMITS);
