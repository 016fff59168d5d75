import { describe, expect, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdtempSync, openSync, closeSync, writeFileSync, constants as fsConstants } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { ImportError, type ImportInput } from "../../../src/importers/pending.js";
import { childElement, childElements, descendants, textOf } from "../../../src/importers/xml/xml-element.js";
import { xmlEvents, xmlSubtrees, type XmlElement, type XmlEvent } from "../../../src/importers/xml/xml-reader.js";

/** An input that yields the bytes in chunks of `chunk` bytes (to cross every boundary). */
function input(content: string | Buffer, chunk = 64 * 1024): ImportInput {
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  return {
    name: "test.xml",
    open: () => {
      const parts: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += chunk) parts.push(bytes.subarray(i, i + chunk));
      return Readable.from(parts);
    },
  };
}

async function events(content: string | Buffer, roots = ["ead"], chunk?: number): Promise<XmlEvent[]> {
  const all: XmlEvent[] = [];
  for await (const event of xmlEvents(input(content, chunk), { roots })) all.push(event);
  return all;
}

async function failure(content: string | Buffer, roots = ["ead"]): Promise<ImportError> {
  try {
    await events(content, roots);
  } catch (error) {
    if (error instanceof ImportError) return error;
    throw error;
  }
  throw new Error("expected an ImportError");
}

const text = (all: XmlEvent[]): string => all.map((event) => (event.kind === "text" ? event.text : "")).join("");

describe("xmlEvents", () => {
  test("elements, attributes, text, paths and locations; namespace prefixes stripped", async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<ead xmlns="urn:isbn:1-931666-22-9" xmlns:xlink="http://www.w3.org/1999/xlink">\n  <c01 id="a"><dao xlink:href="http://x/1" xlink:title="t"/></c01><c01>A &amp; B <![CDATA[<raw>]]></c01>\n</ead>`;
    const all = await events(xml);
    const opens = all.filter((event) => event.kind === "open");
    expect(opens.map((event) => [event.name, event.path, event.line, event.column])).toEqual([
      ["ead", "/ead", 2, 1],
      ["c01", "/ead/c01", 3, 3],
      ["dao", "/ead/c01/dao", 3, 15],
      ["c01", "/ead/c01[2]", 3, 67],
    ]);
    expect(opens[0]).toMatchObject({ namespace: "urn:isbn:1-931666-22-9", attributes: {} });
    expect(opens[2]).toMatchObject({ attributes: { href: "http://x/1", title: "t" }, names: ["ead", "c01", "dao"] });
    expect(text(all)).toContain("A & B <raw>");
    expect(all.filter((event) => event.kind === "close").map((event) => event.name)).toEqual([
      "dao",
      "c01",
      "c01",
      "ead",
    ]);
  });

  test("a prefixed root (marc:record) and an unbound prefix (EAD 2002 DTD files' xlink:) are read", async () => {
    const marc = `<marc:record xmlns:marc="http://www.loc.gov/MARC21/slim"><marc:leader>x</marc:leader></marc:record>`;
    const opens = (await events(marc, ["collection", "record"])).filter((event) => event.kind === "open");
    expect(opens.map((event) => event.name)).toEqual(["record", "leader"]);
    const dtd = `<ead><dao xlink:href="h" href="plain"/></ead>`;
    const dao = (await events(dtd)).find((event) => event.kind === "open" && event.name === "dao");
    expect(dao).toMatchObject({ attributes: { href: "plain" } });
  });

  test("the same events whatever the chunk size (multi-byte characters split across chunks)", async () => {
    const xml = `<ead><a>café — 日本語 ✓</a><b x="é"/></ead>`;
    const whole = await events(xml);
    for (const chunk of [1, 2, 3, 7]) {
      const split = await events(xml, ["ead"], chunk);
      expect(text(split)).toBe(text(whole));
      expect(split.filter((event) => event.kind !== "text")).toEqual(whole.filter((event) => event.kind !== "text"));
    }
  });

  test("a latin-1 file is decoded as its declaration says", async () => {
    const xml = Buffer.concat([
      Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?>\n<ead><p>Caf`),
      Buffer.from([0xe9, 0x20, 0xc7, 0xe0]),
      Buffer.from(`</p></ead>`),
    ]);
    expect(text(await events(xml))).toBe("Café Çà");
  });

  test("UTF-16 with a byte order mark, both byte orders", async () => {
    const xml = `<?xml version="1.0" encoding="UTF-16"?>\n<ead><p>Ünïcödé 日本</p></ead>`;
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, "utf16le")]);
    const be = Buffer.from(le);
    be.swap16();
    expect(text(await events(le, ["ead"], 5))).toBe("Ünïcödé 日本");
    expect(text(await events(be, ["ead"], 5))).toBe("Ünïcödé 日本");
    const open = (await events(le)).find((event) => event.kind === "open");
    expect(open).toMatchObject({ name: "ead", line: 2, column: 1 });
  });

  test("a UTF-8 byte order mark is skipped", async () => {
    const xml = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`<?xml version="1.0"?><ead>é</ead>`)]);
    expect(text(await events(xml))).toBe("é");
  });

  test("a DOCTYPE with an external DTD (as real EAD files have) is accepted and ignored", async () => {
    const xml = `<?xml version="1.0"?>\n<!DOCTYPE ead PUBLIC "+//ISBN 1-931666-00-8//DTD ead.dtd (Encoded Archival Description (EAD) Version 2002)//EN" "ead.dtd">\n<ead><p>x</p></ead>`;
    expect(text(await events(xml))).toBe("x");
  });
});

describe("hostile input: an ImportError with a location", () => {
  test("malformed XML: mismatched end tag, with line and column", async () => {
    const error = await failure(`<ead>\n  <archdesc>\n    <did></archdesc>\n</ead>`);
    expect(error.message).toMatch(/^malformed XML: an end tag does not match the open element <did>/);
    expect(error.source).toEqual({ line: 3, column: 20, path: "/ead/archdesc/did" });
  });

  test("malformed XML: a bad attribute, an unescaped ampersand", async () => {
    expect((await failure(`<ead>\n<p a=1/></ead>`)).source.line).toBe(2);
    const amp = await failure(`<ead>\n\n<p>Smith & Sons</p></ead>`);
    expect(amp.message).toMatch(/^malformed XML/);
    expect(amp.source).toMatchObject({ line: 3, path: "/ead/p" });
  });

  test("a truncated file names the element it ends inside", async () => {
    const error = await failure(`<?xml version="1.0"?>\n<ead>\n<archdesc><did><unittitle>Papers`);
    expect(error.message).toBe("malformed XML: the file ends inside <unittitle> (truncated?)");
    expect(error.source).toMatchObject({ line: 3, path: "/ead/archdesc/did/unittitle" });
  });

  test("a file truncated inside a multi-byte character", async () => {
    const bytes = Buffer.from(`<ead>é`).subarray(0, -1);
    expect((await failure(bytes)).message).toMatch(/ends inside a character/);
  });

  test("an empty file, text that is not XML", async () => {
    expect((await failure(``)).message).toMatch(/no root element/);
    expect(await failure(`\n  hello <ead/>`)).toMatchObject({
      message: `not XML: the file starts with "hello <ead/>", not with '<'`,
      source: { line: 1, column: 1 },
    });
  });

  test("a wrong root element names the expected and the found", async () => {
    const error = await failure(`<?xml version="1.0"?>\n<html><body/></html>`, ["ead"]);
    expect(error.message).toBe("wrong root element: expected <ead>, found <html>");
    expect(error.source).toEqual({ line: 2, column: 1, path: "/html" });
    expect((await failure(`<foo/>`, ["collection", "record"])).message).toBe(
      "wrong root element: expected <collection> or <record>, found <foo>",
    );
  });

  test("an unknown encoding is named", async () => {
    const error = await failure(`<?xml version="1.0" encoding="X-KLINGON"?><ead/>`);
    expect(error.message).toBe("unknown or unsupported encoding 'X-KLINGON' in the XML declaration");
  });

  test("bytes that are not valid UTF-8 are an error, not replacement characters", async () => {
    const error = await failure(
      Buffer.concat([Buffer.from(`<ead>\n<p>caf`), Buffer.from([0xe9]), Buffer.from(`</p></ead>`)]),
    );
    expect(error.message).toMatch(/not valid utf-8/);
  });

  test("a billion-laughs bomb is refused before any expansion", async () => {
    const lol = [`<!ENTITY lol "lol">`];
    for (let i = 1; i <= 9; i++) lol.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? "" : i - 1};`.repeat(10)}">`);
    const xml = `<?xml version="1.0"?>\n<!DOCTYPE ead [\n${lol.join("\n")}\n]>\n<ead>&lol9;</ead>`;
    const error = await failure(xml);
    // Refused at the declarations (line 13 is where the DOCTYPE ends), before &lol9; is met.
    expect(error.message).toMatch(/DOCTYPE declares entities, which are refused/);
    expect(error.source.line).toBe(13);
  });

  test("an entity nobody defined is refused (no DTD is read to define it)", async () => {
    const error = await failure(`<!DOCTYPE ead SYSTEM "ead.dtd">\n<ead><p>a&nbsp;b</p></ead>`);
    expect(error.message).toMatch(/undefined entity/);
    expect(error.source).toMatchObject({ line: 2, path: "/ead/p" });
  });

  test("an external DTD or entity is never fetched: not from the file system, not over the network", async () => {
    const dir = mkdtempSync(join(tmpdir(), "arca-xxe-"));
    const secret = "SECRET-CONTENT-7f3a9";
    const secretFile = join(dir, "secret.txt");
    writeFileSync(secretFile, secret);
    writeFileSync(
      join(dir, "evil.dtd"),
      `<!ENTITY secret SYSTEM "file://${secretFile}"><!ATTLIST p leak CDATA "${secret}">`,
    );
    // A FIFO as the DTD: opening it to read would block until a writer comes, so a reader that
    // tried would hang the test; afterwards, no reader holds it open.
    const fifo = join(dir, "fifo.dtd");
    execFileSync("mkfifo", [fifo]);
    let requests = 0;
    const http = createServer((_request, response) => {
      requests += 1;
      response.end(`<!ENTITY secret "${secret}">`);
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/evil.dtd`;
    try {
      for (const system of [join(dir, "evil.dtd"), `file://${join(dir, "evil.dtd")}`, fifo, url]) {
        const all = await events(`<?xml version="1.0"?>\n<!DOCTYPE ead SYSTEM "${system}">\n<ead><p>ok</p></ead>`);
        expect(JSON.stringify(all)).not.toContain(secret);
        expect(text(all)).toBe("ok");
        const error = await failure(`<!DOCTYPE ead SYSTEM "${system}">\n<ead><p>&secret;</p></ead>`);
        expect(error.message).toMatch(/undefined entity/);
        expect(error.message).not.toContain(secret);
      }
      // An external entity declared in the internal subset: refused, not read.
      const declared = await failure(
        `<!DOCTYPE ead [<!ENTITY secret SYSTEM "file://${secretFile}">]>\n<ead><p>&secret;</p></ead>`,
      );
      expect(declared.message).toMatch(/declares entities/);
      expect(declared.message).not.toContain(secret);
      expect(requests).toBe(0);
      // No reader has the FIFO open: opening its write end without blocking fails with ENXIO.
      expect(() => closeSync(openSync(fifo, fsConstants.O_WRONLY | fsConstants.O_NONBLOCK))).toThrow(/ENXIO/);
    } finally {
      http.close();
    }
  });

  test("the stream is released when the reader stops early", async () => {
    let destroyed = false;
    const stream = Readable.from([Buffer.from("<ead><a/>"), Buffer.from("<b/></ead>")]);
    stream.on("close", () => (destroyed = true));
    for await (const event of xmlEvents(stream, { roots: ["ead"] })) if (event.kind === "open") break;
    await new Promise((resolve) => setImmediate(resolve));
    expect(destroyed).toBe(true);
  });
});

describe("xmlSubtrees", () => {
  const collection = `<?xml version="1.0"?>
<collection xmlns="http://www.loc.gov/MARC21/slim">
  <record>
    <leader>00000npc a2200000 u 4500</leader>
    <datafield tag="245" ind1="1" ind2="0"><subfield code="a">Papers,</subfield>
      <subfield code="f">1900-1950</subfield></datafield>
  </record>
  <record><leader>x</leader><datafield tag="100"><subfield code="a">Morse, Samuel</subfield></datafield></record>
</collection>`;

  test("yields each selected element whole, with text helpers", async () => {
    const records: XmlElement[] = [];
    for await (const record of xmlSubtrees(input(collection, 16), {
      roots: ["collection", "record"],
      isRecord: (names) => names.length === 2 && names[1] === "record",
    })) {
      records.push(record);
    }
    expect(records.map((record) => [record.name, record.path, record.line, record.column])).toEqual([
      ["record", "/collection/record", 3, 3],
      ["record", "/collection/record[2]", 8, 3],
    ]);
    const field = childElement(records[0], "datafield") as XmlElement;
    expect(field.attributes).toEqual({ tag: "245", ind1: "1", ind2: "0" });
    expect(childElements(field, "subfield").map(textOf)).toEqual(["Papers,", "1900-1950"]);
    expect(textOf(field)).toBe("Papers, 1900-1950");
    expect(descendants(records[1], "subfield").map(textOf)).toEqual(["Morse, Samuel"]);
    expect(childElements(records[0]).map((child) => child.name)).toEqual(["leader", "datafield"]);
  });

  test("a single record as the root", async () => {
    const xml = `<marc:record xmlns:marc="http://www.loc.gov/MARC21/slim"><marc:leader>z</marc:leader></marc:record>`;
    const records: XmlElement[] = [];
    for await (const record of xmlSubtrees(input(xml), {
      roots: ["collection", "record"],
      isRecord: (names) => names.at(-1) === "record",
    }))
      records.push(record);
    expect(records).toHaveLength(1);
    expect(textOf(childElement(records[0], "leader") as XmlElement)).toBe("z");
  });

  test("errors after some records still throw (the caller decides what the earlier ones mean)", async () => {
    const seen: string[] = [];
    const truncated = collection.slice(0, collection.indexOf("Morse"));
    await expect(
      (async () => {
        for await (const record of xmlSubtrees(input(truncated), {
          roots: ["collection"],
          isRecord: (names) => names.at(-1) === "record",
        }))
          seen.push(record.path);
      })(),
    ).rejects.toThrow(/ends inside <subfield>/);
    expect(seen).toEqual(["/collection/record"]);
  });
});
