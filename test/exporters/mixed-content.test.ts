// Stored text with EAD inline markup (as EAD importers keep it) written back as elements, and
// anything that is not safe markup written as text: the output is well-formed either way.
import { describe, expect, it } from "@jest/globals";
import { written } from "./mixed-output.js";
import { children, textOf } from "./xml-tree.js";

describe("writeMixed", () => {
  it("writes known, balanced inline markup as elements, text around it escaped", async () => {
    const { root, text } = await written('Resource--<title render="italic">Title</title>-AT & co');
    expect(text).toContain('<unittitle>Resource--<title render="italic">Title</title>-AT &amp; co</unittitle>');
    expect(children(root, "title")[0]?.attributes).toEqual({ render: "italic" });
  });

  it("gives EAD 2002's link attributes their xlink prefix, decodes and re-escapes attribute values", async () => {
    for (const stored of [
      '<extref xlink:href="http://example.org/?a=1&amp;b=2" xlink:show="new" title="Site">the site</extref>',
      '<extref href="http://example.org/?a=1&amp;b=2" show="new" title="Site">the site</extref>',
    ]) {
      const { root } = await written(`See ${stored}.`);
      expect(children(root, "extref")[0]?.attributes).toEqual({
        "xlink:href": "http://example.org/?a=1&b=2",
        "xlink:show": "new",
        "xlink:title": "Site",
      });
    }
  });

  it("in EAD3, writes ref for extref, drops prefixes and puts access terms' text in <part>", async () => {
    const { root } = await written(
      'See <extref xlink:href="http://example.org" show="New" title="Site">it</extref> by <persname>Ada</persname>',
      true,
    );
    expect(children(root, "ref")[0]?.attributes).toEqual({
      href: "http://example.org",
      show: "new",
      linktitle: "Site",
    });
    expect(textOf(children(children(root, "persname")[0], "part")[0])).toBe("Ada");
  });

  it("writes everything as text when the markup is not safe", async () => {
    for (const value of [
      "a < b",
      "use <emph> for emphasis",
      "<script>alert(1)</script>",
      "<emph>open <title>x</emph></title>",
      "x</emph>",
      '<emph x="1"/',
    ]) {
      const { root } = await written(value);
      expect([value, children(root).length, textOf(root)]).toEqual([value, 0, value.replace(/\s+/g, " ").trim()]);
    }
  });

  it("unwraps an EAD3 <part> in EAD 2002 output, keeping its text", async () => {
    const { root } = await written("<persname><part>Dahlstein</part>, <part>Anna</part></persname>");
    expect(textOf(children(root, "persname")[0])).toBe("Dahlstein, Anna");
    expect(children(children(root, "persname")[0], "part")).toHaveLength(0);
  });
});
