// Stored text with inline markup written through writeMixed inside a <unittitle>, and read back:
// the text written and the parsed element, for tests of the exporter's mixed content.
import { Writable } from "node:stream";
import { writeMixed } from "../../src/exporters/mixed-content.js";
import { XmlWriter } from "../../src/exporters/xml-writer.js";
import { children, parseXml, type XmlElement } from "./xml-tree.js";

export async function written(value: string, ead3 = false): Promise<{ text: string; root: XmlElement }> {
  const parts: string[] = [];
  const sink = new Writable({
    decodeStrings: false,
    write(chunk: string, _encoding, done) {
      parts.push(chunk);
      done();
    },
  });
  const xml = new XmlWriter(sink);
  xml.open("root", { "xmlns:xlink": "http://www.w3.org/1999/xlink" });
  xml.open("unittitle");
  writeMixed(xml, value, ead3);
  xml.close("unittitle");
  xml.close("root");
  await xml.finish();
  const text = parts.join("");
  const [unittitle] = children(parseXml(text), "unittitle");
  return { text, root: unittitle as XmlElement };
}
