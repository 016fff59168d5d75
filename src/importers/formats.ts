// Which parser reads which format, and telling the format of a file from its name and first
// bytes when the caller does not say.
import { open } from "node:fs/promises";
import type { OperationDeps } from "../records/deps.js";
import { lookupTable } from "../registry/dictionary.js";
import { AspaceJsonParser } from "./aspace-json.js";
import { CsvParser } from "./csv.js";
import { EacParser } from "./eac.js";
import { ead3Parser, eadParser } from "./ead.js";
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from "./limits.js";
import { MarcXmlParser } from "./marcxml.js";
import { xmlLimits } from "./xml/xml-limits.js";
import { IMPORT_FORMATS, type FormatParser, type ImportFormat } from "./pending.js";

export function isImportFormat(value: string): value is ImportFormat {
  return (IMPORT_FORMATS as readonly string[]).includes(value);
}

type ParserFactory = (deps: OperationDeps, limits: ImportLimits) => FormatParser;

/**
 * Components an EAD import writes per batch (one transaction, one journal sync each): large
 * enough that the store's per-batch cost is spread thin, small enough that memory stays flat.
 * Matches the committer's default batch size.
 */
const EAD_WINDOW = 1000;

const PARSERS: Partial<Record<ImportFormat, ParserFactory>> = lookupTable({
  "aspace-json": (deps, limits) => new AspaceJsonParser(deps.registry, limits),
  ead: (deps, limits) => eadParser({ enumerations: deps.enumerations, window: EAD_WINDOW, limits: xmlLimits(limits) }),
  ead3: (deps, limits) =>
    ead3Parser({ enumerations: deps.enumerations, window: EAD_WINDOW, limits: xmlLimits(limits) }),
  csv: (deps, limits) => new CsvParser({ enumerations: deps.enumerations, maxRecordChars: limits.maxXmlTextBytes }),
  marcxml: (deps, limits) => new MarcXmlParser({ enumerations: deps.enumerations, limits: xmlLimits(limits) }),
  eac: (deps, limits) => new EacParser({ enumerations: deps.enumerations, limits: xmlLimits(limits) }),
});

/** The formats this build can read. */
export function supportedFormats(): ImportFormat[] {
  return IMPORT_FORMATS.filter((format) => PARSERS[format] !== undefined);
}

/**
 * The format's parser, within the limits (the config's `imports`; default their defaults).
 * @throws Error for a format this build cannot read (callers check supportedFormats first).
 */
export function parserFor(
  format: ImportFormat,
  deps: OperationDeps,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
): FormatParser {
  const factory = PARSERS[format];
  if (factory === undefined) throw new Error(`no parser for ${format}`);
  return factory(deps, limits);
}

/**
 * The format of a file from its first bytes (and name): JSON is an ArchivesSpace batch, XML is
 * told apart by its root element and namespace, anything else with a .csv name is CSV.
 * Undefined when it cannot tell.
 */
export function detectFormat(name: string, head: Buffer): ImportFormat | undefined {
  const text = head.toString("utf8").replace(/^\uFEFF/, "");
  const start = text.trimStart();
  if (start.startsWith("[") || start.startsWith("{")) return "aspace-json";
  if (start.startsWith("<")) {
    // The root is the first element that is not a declaration, comment or doctype.
    const root = /<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s>/]/.exec(
      text.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<![\s\S]*?>/g, ""),
    );
    const local = root?.[2];
    if (local === "ead") return /ead3\.archivists\.org|<control[\s>]/.test(text) ? "ead3" : "ead";
    // MARCXML may go without its namespace: its leader and fields tell it.
    if (local === "collection" || local === "record")
      return /marc/i.test(text) || /<(?:\w+:)?(?:controlfield|datafield)[\s>]/.test(text) ? "marcxml" : undefined;
    if (local === "eac-cpf") return "eac";
    return undefined;
  }
  return /\.csv$/i.test(name) ? "csv" : undefined;
}

/** detectFormat on a file's first 4 KiB; `name` (default: the path) for the .csv rule. */
export async function detectFileFormat(path: string, name = path): Promise<ImportFormat | undefined> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return detectFormat(name, buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
