// jsonChunks writes exactly the bytes of what JSON.stringify writes, serializes an object shown in many
// places once, and yields to the event loop while it builds a large body.
import { describe, expect, it } from "@jest/globals";
import fc from "fast-check";
import { jsonChunks } from "../../src/http/json-slices.js";

const jsonInSlices = async (value: unknown): Promise<string> => Buffer.concat(await jsonChunks(value)).toString("utf8");

describe("jsonChunks", () => {
  it("is JSON.stringify for any JSON value, deep or not", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 9 }), async (value) => {
        expect(await jsonInSlices(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
  });

  it("is JSON.stringify for what records hold besides JSON: undefined, dates, shared and built-in-named keys", async () => {
    const shared = { uri: "/repositories/2/resources/1", notes: ["n".repeat(1000)], when: new Date(0) };
    const body = JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    Object.assign(body, {
      title: 'a \u2028 "quoted" title',
      gone: undefined,
      related_resources: [{ ref: shared.uri, _resolved: shared }, { ref: shared.uri, _resolved: shared }, undefined],
      deep: { a: { b: { c: { d: { e: { f: shared, g: [shared, null] } } } } } },
      constructor: "a field",
    });
    expect(await jsonInSlices(body)).toBe(JSON.stringify(body));
    expect(await jsonInSlices([shared, shared, 1, "x"])).toBe(JSON.stringify([shared, shared, 1, "x"]));
    for (const scalar of [null, 0, "text", true]) expect(await jsonInSlices(scalar)).toBe(JSON.stringify(scalar));
  });

  it("lets other work run while it builds a large body", async () => {
    const target = { notes: ["x".repeat(64 * 1024)] };
    const body = {
      related_resources: Array.from({ length: 256 }, (_, i) => ({ ref: `/r/${i}`, _resolved: { ...target } })),
    };
    let ranBetween = 0;
    const ticker = setInterval(() => ranBetween++, 0);
    const text = await jsonInSlices(body);
    clearInterval(ticker);
    expect(text).toBe(JSON.stringify(body));
    expect(ranBetween).toBeGreaterThan(0);
  });
});
