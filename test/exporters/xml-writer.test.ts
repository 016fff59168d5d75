// The streaming XML writer: escaping, characters XML cannot carry, indentation that never
// touches text, and backpressure (it waits for a slow sink instead of buffering everything).
import { describe, expect, it } from "@jest/globals";
import { Writable } from "node:stream";
import { SinkClosedError, XmlWriter } from "../../src/exporters/xml-writer.js";
import { at, parseXml, textOf } from "./xml-tree.js";

/** A sink that keeps what it is given, taking `delayMs` per chunk, with a small buffer. */
function collector(delayMs = 0): { sink: Writable; text: () => string; chunks: number[]; maxQueued: () => number } {
  const parts: string[] = [];
  const chunks: number[] = [];
  let maxQueued = 0;
  const sink = new Writable({
    highWaterMark: 1024,
    decodeStrings: false,
    write(chunk: string, _encoding, done) {
      setTimeout(() => {
        parts.push(chunk);
        chunks.push(chunk.length);
        done();
      }, delayMs);
    },
  });
  const write = sink.write.bind(sink) as (chunk: string) => boolean;
  sink.write = ((chunk: string) => {
    const ok = write(chunk);
    maxQueued = Math.max(maxQueued, sink.writableLength);
    return ok;
  }) as typeof sink.write;
  return { sink, text: () => parts.join(""), chunks, maxQueued: () => maxQueued };
}

const ended = (sink: Writable) => new Promise((resolve) => sink.end(resolve));

describe("XmlWriter", () => {
  it("escapes text and attributes and drops characters XML 1.0 cannot hold", async () => {
    const { sink, text } = collector();
    const xml = new XmlWriter(sink);
    xml.declaration();
    xml.open("root", { a: `x < "y" & 'z'\nnext\tcol`, skipped: undefined, empty: "" });
    xml.element("t", {}, "a & b < c > d \u0001\u0008\uFFFE\uD800 e \u{1F600} é");
    xml.element("empty");
    xml.close("root");
    await xml.finish();
    await ended(sink);
    const root = parseXml(text());
    expect(root.attributes).toEqual({ a: `x < "y" & 'z'\nnext\tcol` });
    expect(textOf(at(root, "t"))).toBe("a & b < c > d e \u{1F600} é");
    expect(text()).toContain("<empty/>");
    expect(Buffer.from(text(), "utf8").toString("utf8")).toBe(text());
  });

  it("indents element-only content and leaves mixed content as written", async () => {
    const { sink, text } = collector();
    const xml = new XmlWriter(sink);
    xml.open("a");
    xml.open("b");
    xml.text("one ");
    xml.element("i", {}, "two");
    xml.text(" three");
    xml.close("b");
    xml.close("a");
    await xml.finish();
    await ended(sink);
    expect(text()).toBe("<a>\n  <b>one <i>two</i> three</b>\n</a>\n");
  });

  it("refuses bad names and unbalanced closes", () => {
    const { sink } = collector();
    const xml = new XmlWriter(sink);
    expect(() => xml.open("bad name")).toThrow();
    expect(() => xml.open("ok", { "bad attr": "x" })).toThrow();
    xml.open("a");
    expect(() => xml.close("b")).toThrow();
  });

  it("writes in chunks as the buffer fills, waiting for a slow sink", async () => {
    const { sink, text, chunks, maxQueued } = collector(2);
    const xml = new XmlWriter(sink, { flushAt: 4096 });
    xml.open("list");
    for (let i = 0; i < 5000; i += 1) {
      xml.element("item", { n: i }, `value ${i}`);
      await xml.yieldIfFull();
    }
    xml.close("list");
    await xml.finish();
    await ended(sink);
    expect(chunks.length).toBeGreaterThan(20);
    expect(Math.max(...chunks)).toBeLessThan(4096 + 100);
    // It waited for the sink (write() said full) instead of piling the document up in it.
    expect(maxQueued()).toBeLessThan(1024 + 4096 + 100);
    expect(parseXml(text()).children.filter((child) => typeof child !== "string")).toHaveLength(5000);
  });

  it("stops with SinkClosedError once the sink is gone", async () => {
    const { sink } = collector();
    const xml = new XmlWriter(sink);
    xml.open("a");
    sink.destroy();
    await expect(xml.flush()).rejects.toBeInstanceOf(SinkClosedError);
  });
});
