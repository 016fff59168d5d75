// Validates an exported document against a standard's XML Schema (test/fixtures/xsd, see its
// SOURCES.md) with libxml2's validator (xmllint-wasm: libxml2 as WebAssembly, no network, no
// native build). A schema's imports are preloaded under the names its schemaLocations give, so they
// resolve to the local copies.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { validateXML } from "xmllint-wasm";

const XSD_DIR = fileURLToPath(new URL("../fixtures/xsd/", import.meta.url));

/** Each standard's schema and the schemas it imports. */
const IMPORTS = {
  "MARC21slim.xsd": [],
  "mods.xsd": ["xml.xsd", "xlink.xsd"],
  "mets.xsd": ["xlink.xsd"],
  "cpf.xsd": ["xlink.xsd", "xml.xsd"],
  "oai_dc.xsd": ["simpledc20021212.xsd", "xml.xsd"],
} as const;

export type StandardSchema = keyof typeof IMPORTS;

const schemaFile = (fileName: string) => ({ fileName, contents: readFileSync(`${XSD_DIR}${fileName}`, "utf8") });

/** The schema's verdict on `xml`: valid, or the validator's messages (line numbers included). */
export async function validateAgainst(
  schema: StandardSchema,
  xml: string,
): Promise<{ valid: boolean; errors: string[] }> {
  const result = await validateXML({
    xml: [{ fileName: "export.xml", contents: xml }],
    schema: [schemaFile(schema)],
    preload: IMPORTS[schema].map(schemaFile),
  });
  return { valid: result.valid, errors: result.errors.map((error) => error.rawMessage) };
}
