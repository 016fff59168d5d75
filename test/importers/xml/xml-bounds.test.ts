// What an XML file may make the reader hold is bounded (nesting depth, the length
// of a text node, attribute, name or comment, the attributes of one element, what one record
// holds), each refusing the file with an ImportError located at its line and column; text is
// extracted without recursion, however deep the elements nest.
import { describe, expect, test } from "@jest/globals";
import { Readable } from "node:stream";
import { markup, plain } from "../../../src/importers/ead/text.js";
import { ImportError, type ImportInput } from "../../../src/importers/pending.js";
import { ElementBuilder, MAX_HELD_ELEMENTS } from "../../../src/importers/xml/element-builder.js";
import { descendants, rawText } from "../../../src/importers/xml/xml-element.js";
import { DEFAULT_XML_LIMITS, type XmlLimits } from "../../../src/importers/xml/xml-limits.js";
import { xmlEvents, xmlSubtrees, type XmlElement } from "../../../src/importers/xml/xml-reader.js";

function input(content: string, chunk = 64 * 1024): ImportInput {
  const bytes = Buffer.from(content, "utf8");
  return {
    name: "bounds.xml",
    open: () => {
      const parts: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += chunk) parts.push(bytes.subarray(i, i + chunk));
      return Readable.from(parts);
    },
  };
}

async function failure(content: string, limits?: XmlLimits, chunk?: number): Promise<ImportError> {
  try {
    for await (const event of xmlEvents(input(content, chunk), { roots: ["ead"], limits })) void event;
  } catch (error) {
    if (error instanceof ImportError) return error;
    throw error;
  }
  throw new Error("expected an ImportError");
}

const small: XmlLimits = { maxDepth: 10, maxTextChars: 1000 };

describe("nesting depth (IMPORT_MAX_XML_DEPTH)", () => {
  test("the default allows 256 levels and refuses the 257th, at its line and column", async () => {
    const ok = `<ead>${"<c>".repeat(255)}${"</c>".repeat(255)}</ead>`;
    let opens = 0;
    for await (const event of xmlEvents(input(ok), { roots: ["ead"] })) if (event.kind === "open") opens += 1;
    expect(opens).toBe(256);
    const deep = `<ead>\n${"<c>".repeat(256)}`;
    const error = await failure(deep);
    expect(error.message).toBe(
      "elements nested too deep: <c> would be 257 levels down, and at most 256 are read (IMPORT_MAX_XML_DEPTH)",
    );
    // The 256th <c> is the 257th level: its `<` is 255 tags in.
    expect(error.source).toMatchObject({ line: 2, column: 255 * 3 + 1 });
    expect(error.source.path).toMatch(/^\/ead\/c\/c\//);
  });

  test("20,000 nested <emph> in a title and 200,000 nested <c> fail at the limit, without reading on", async () => {
    const emph = `<ead><archdesc><did><unittitle>${"<emph>".repeat(20_000)}x${"</emph>".repeat(20_000)}</unittitle></did></archdesc></ead>`;
    expect((await failure(emph)).message).toMatch(/^elements nested too deep: <emph> would be 257 levels down/);
    const components = `<ead>${"<c>".repeat(200_000)}`;
    expect((await failure(components)).source).toMatchObject({ line: 1, column: 5 + 255 * 3 + 1 });
  });

  test("a smaller limit is honoured", async () => {
    expect((await failure(`<ead>${"<p>".repeat(10)}</ead>`, small)).message).toMatch(
      /<p> would be 11 levels down, and at most 10 are read/,
    );
  });
});

describe("text, names and attributes (IMPORT_MAX_XML_TEXT_BYTES)", () => {
  test("a text node longer than the limit, whole or spread over many chunks of the file", async () => {
    const long = `<ead>\n<p>${"a".repeat(5000)}</p></ead>`;
    for (const chunk of [64 * 1024, 700, 3]) {
      const error = await failure(long, small, chunk);
      // Caught when its end is read, or while it is still being read (then the reader cannot yet tell text from an
      // attribute value).
      expect([chunk, error.message]).toEqual([
        chunk,
        expect.stringMatching(
          /^a text node(, CDATA section, comment or attribute value)? is longer than 1000 characters, the most an import reads \(IMPORT_MAX_XML_TEXT_BYTES\)$/,
        ),
      ]);
      expect(error.source.line).toBe(2);
    }
  });

  test("a text node without an end (the file is one long text) is refused once past the limit, not read whole", async () => {
    // 3 MB with a 1,000-character limit: refused within the first slice the reader feeds the parser.
    const error = await failure(`<ead><p>${"b".repeat(3_000_000)}`, small, 64 * 1024);
    expect(error.message).toMatch(
      /^a text node, CDATA section, comment or attribute value is longer than 1000 characters/,
    );
    expect(error.source.column).toBeLessThan(70_000);
  });

  test("element names, attribute names and values, comments, CDATA, entity references and processing instructions", async () => {
    const long = "n".repeat(1500);
    const cases: Array<[string, RegExp]> = [
      [`<ead><${long}/></ead>`, /^an element or attribute name is longer than 1000 characters/],
      [`<ead><${long}>x</${long}></ead>`, /^an element or attribute name is longer than 1000 characters/],
      [`<ead ${long}="1"/>`, /^an element or attribute name is longer than 1000 characters/],
      [
        `<ead a="${long}"/>`,
        /^a text node, CDATA section, comment or attribute value is longer than 1000 characters|^an attribute value is longer/,
      ],
      [
        `<ead><!--${long}--></ead>`,
        /^(a comment|a text node, CDATA section, comment or attribute value) is longer than 1000 characters/,
      ],
      [
        `<ead><![CDATA[${long}]]></ead>`,
        /^(a CDATA section|a text node, CDATA section, comment or attribute value) is longer than 1000 characters/,
      ],
      [`<ead>&${long};</ead>`, /^an entity reference is longer than 1000 characters/],
      [`<ead><?${long} x?></ead>`, /^a processing instruction's name is longer than 1000 characters/],
    ];
    for (const [xml, message] of cases) {
      const error = await failure(xml, small, 256);
      expect([xml.slice(0, 20), error.message]).toEqual([xml.slice(0, 20), expect.stringMatching(message)]);
      expect(error.source.line).toBe(1);
    }
  });

  test("a 20 MB element name is refused at the default limit, and the message does not echo it", async () => {
    const error = await failure(`<ead><${"x".repeat(20 * 1024 * 1024)}/></ead>`);
    expect(error.message).toBe(
      `an element or attribute name is longer than ${DEFAULT_XML_LIMITS.maxTextChars} characters, the most an import reads (IMPORT_MAX_XML_TEXT_BYTES)`,
    );
  });

  test("an element with thousands of attributes, and one with thousands of differently named children", async () => {
    const attributes = Array.from({ length: 2000 }, (_, i) => ` a${i}="1"`).join("");
    expect((await failure(`<ead${attributes}/>`)).message).toBe("an element with more than 1024 attributes");
    const children = Array.from({ length: 10_001 }, (_, i) => `<e${i}/>`).join("");
    const error = await failure(`<ead>${children}</ead>`);
    expect(error.message).toBe("more than 10000 differently named child elements in one element");
    expect(error.source).toMatchObject({ line: 1, path: "/ead" });
  });

  test("attributes named like Object.prototype's members are attributes like any other", async () => {
    const opens = [];
    for await (const event of xmlEvents(
      input('<ead constructor="c" __proto__="p" toString="t" xmlns:x="urn:x" x:hasOwnProperty="h"/>'),
      { roots: ["ead"] },
    ))
      if (event.kind === "open") opens.push(event);
    expect(Object.entries(opens[0]?.attributes ?? {})).toEqual([
      ["constructor", "c"],
      ["__proto__", "p"],
      ["toString", "t"],
      ["hasOwnProperty", "h"],
    ]);
    expect(Object.getPrototypeOf(opens[0]?.attributes)).toBeNull();
  });
});

describe("what one record holds", () => {
  test("a record (a MARC record, an EAD description) over the held-text bound fails, located", async () => {
    const limits: XmlLimits = { maxDepth: 256, maxTextChars: 1000 };
    const paragraphs = Array.from({ length: 5 }, () => `<p>${"w".repeat(900)}</p>`).join("\n");
    const records = async (): Promise<void> => {
      for await (const record of xmlSubtrees(input(`<collection>\n<record>\n${paragraphs}</record></collection>`), {
        roots: ["collection"],
        isRecord: (names) => names.length === 2,
        limits,
      }))
        void record;
    };
    await expect(records()).rejects.toThrow(
      /^one record holds more than 4000 characters of text, more than an import reads for one record \(4 × IMPORT_MAX_XML_TEXT_BYTES\)$/,
    );
    // Many records each under the bound are fine: what a record holds is let go once it is handed on.
    const many = Array.from({ length: 20 }, () => `<record><p>${"w".repeat(900)}</p></record>`).join("");
    let count = 0;
    for await (const record of xmlSubtrees(input(`<collection>${many}</collection>`), {
      roots: ["collection"],
      isRecord: (names) => names.length === 2,
      limits,
    }))
      count += record.children.length;
    expect(count).toBe(20);
  });

  test("a record of more elements than MAX_HELD_ELEMENTS fails", () => {
    const builder = new ElementBuilder();
    const open = {
      kind: "open" as const,
      name: "e",
      namespace: "",
      attributes: {},
      line: 7,
      column: 3,
      path: "/r/e",
      names: ["r", "e"],
    };
    builder.start({ ...open, name: "r", path: "/r", names: ["r"] });
    expect(() => {
      for (let i = 0; i < MAX_HELD_ELEMENTS; i++) {
        builder.start(open);
        builder.end();
      }
    }).toThrow(
      new ImportError(
        `one record holds more than ${MAX_HELD_ELEMENTS} elements, more than an import reads for one record`,
      ),
    );
  });
});

describe("text extraction without recursion", () => {
  /** An element nested `depth` deep, built directly (deeper than any reader limit). */
  function nested(depth: number, name = "emph"): XmlElement {
    const root: XmlElement = {
      name: "unittitle",
      namespace: "",
      attributes: {},
      children: ["Papers of "],
      line: 1,
      column: 1,
      path: "/unittitle",
    };
    let holder = root;
    for (let i = 0; i < depth; i++) {
      const child: XmlElement = { name, namespace: "", attributes: {}, children: [], line: 1, column: 1, path: "" };
      holder.children.push(child);
      holder = child;
    }
    holder.children.push("Ada");
    root.children.push(" and more");
    return root;
  }

  test("markup, plain, rawText and descendants over 200,000 nested elements", () => {
    const deep = nested(200_000);
    expect(plain(deep)).toBe("Papers of Ada and more");
    expect(rawText(deep)).toBe("Papers of Ada and more");
    const written = markup(deep);
    expect(written.startsWith("Papers of <emph><emph>")).toBe(true);
    expect(written.endsWith("</emph></emph> and more")).toBe(true);
    expect(written.length).toBe("Papers of Ada and more".length + 200_000 * "<emph></emph>".length);
    expect(descendants(deep, "emph")).toHaveLength(200_000);
  });

  test("the same output as before for mixed content: breaks, skips, unwrapping, empty elements, attributes", () => {
    const p = (children: XmlElement["children"]): XmlElement => ({
      name: "p",
      namespace: "",
      attributes: {},
      children,
      line: 1,
      column: 1,
      path: "",
    });
    const el = (
      name: string,
      children: XmlElement["children"],
      attributes: Record<string, string> = {},
    ): XmlElement => ({ name, namespace: "", attributes, children, line: 1, column: 1, path: "" });
    const note = el("scopecontent", [
      el("head", ["Scope"]),
      p(["One ", el("emph", ["two"], { render: 'it"al' }), el("lb", []), "three"]),
      p([el("ptr", [], { target: "a&b" }), " four ", el("language", ["Eng"])]),
    ]);
    expect(
      markup(note, {
        breaks: true,
        skip: (child) => child.name === "head",
        unwrap: (child) => child.name === "language",
      }),
    ).toBe('One <emph render="it&quot;al">two</emph>\n\nthree\n\n<ptr target="a&amp;b"/> four Eng');
    expect(plain(note)).toBe("ScopeOne two three four Eng");
  });
});
