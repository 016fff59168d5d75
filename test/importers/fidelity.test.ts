// The fidelity report over every finding aid in ../shared/data: each imports, and for every
// category the records created or reused equal what the source holds (the parser's census,
// counted apart from the mapping). Each file goes into a repository of its own, so that agents,
// subjects and digital objects reused across files are counted as the file's own.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { readdirSync } from "node:fs";
import type { FidelityReport } from "../../src/importers/fidelity.js";
import { startEadServer, type EadTestServer } from "./ead-server.js";

const DATA = "/work/shared/data";
const FILES = [
  ...readdirSync(`${DATA}/ead2002`).map((file) => ({ path: `${DATA}/ead2002/${file}`, format: "ead" as const })),
  ...readdirSync(`${DATA}/ead3`).map((file) => ({ path: `${DATA}/ead3/${file}`, format: "ead3" as const })),
];

let t: EadTestServer;

beforeAll(async () => {
  t = await startEadServer();
}, 60_000);
afterAll(() => t.stop());

/** Each category as [category, source, imported], for a readable failure. */
const lines = (report: FidelityReport | undefined): Array<[string, number, number]> =>
  Object.entries(report ?? {}).map(([category, line]) => [category, line.source, line.imported]);

describe("every finding aid in ../shared/data imports whole", () => {
  it.each(FILES)("$path", async ({ path, format }) => {
    const repoId = await t.newRepository(path.split("/").at(-1) as string);
    const summary = await t.importEad(path, { format, repoId });
    expect([summary.outcome, summary.errors]).toEqual(["imported", []]);
    const report = lines(summary.fidelity);
    expect(report.length).toBeGreaterThan(3);
    // Listed as [category, source, imported]: none may differ.
    expect(report.filter(([, source, imported]) => source !== imported)).toEqual([]);
  });
});
