// The fidelity report over every finding aid in ../shared/data and the fixtures: each imports, and for every
// category the records created or reused equal what the source holds (the parser's census,
// counted apart from the mapping), and the EAD export of what was imported, imported again, brings
// as many of each. Each file goes into a repository of its own, so that agents,
// subjects and digital objects reused across files are counted as the file's own.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { readdirSync } from "node:fs";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import type { FidelityReport } from "../../src/importers/fidelity.js";
import { EadExporter } from "../../src/exporters/ead-export.js";
import { actor, startEadServer, textInput, walkTree, type EadTestServer, type Json } from "./ead-server.js";

const DATA = "/work/shared/data";
const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
const FILES = [
  ...readdirSync(`${DATA}/ead2002`).map((file) => ({ path: `${DATA}/ead2002/${file}`, format: "ead" as const })),
  ...readdirSync(`${DATA}/ead3`).map((file) => ({ path: `${DATA}/ead3/${file}`, format: "ead3" as const })),
  // Written from the tag libraries: what university EAD3 and Archon/AT EAD 2002 exports do that the shared ones do not.
  { path: `${FIXTURES}ead3-holdings.xml`, format: "ead3" as const },
  { path: `${FIXTURES}ead2002-legacy.xml`, format: "ead" as const },
];

let t: EadTestServer;

beforeAll(async () => {
  t = await startEadServer();
}, 60_000);
afterAll(() => t.stop());

/** The resource's EAD export, as GET …/resource_descriptions/:id.xml writes it, unpublished parts and daos included. */
async function exportEad(uri: string, ead3: boolean): Promise<string> {
  const [repoId, id] = [Number(uri.split("/")[2]), Number(uri.split("/").at(-1))];
  const options = { ead3, includeUnpublished: true, includeDaos: true, includeUris: false, numberedCs: false };
  const prepared = await new EadExporter(t.server.ops).prepare(repoId, id, options, actor);
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on("data", (chunk: Buffer) => chunks.push(chunk));
  await prepared.writeTo(sink);
  sink.end();
  return Buffer.concat(chunks).toString("utf8");
}

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

    // The way out and back in: the EAD export (in the file's own version), imported into an empty repository, brings
    // as many of each as the first import did.
    const resource = summary.uris.find((uri) => uri.includes("/resources/")) as string;
    const exported = await exportEad(resource, format === "ead3");
    const again = await t.importEad(textInput("export.xml", exported), {
      format,
      repoId: await t.newRepository(`again-${path.split("/").at(-1) as string}`),
    });
    expect([again.outcome, again.errors]).toEqual(["imported", []]);
    // Containers the export can tell apart: EAD names a container by type, indicator and barcode, so two stored
    // ones alike in those (mc00019's "cassettebox 1" and "halfbox 1", both boxes in the type list) come back as one.
    const distinct = new Set(
      await Promise.all(
        (await t.get<number[]>(`/repositories/${repoId}/top_containers?all_ids=true`)).map(async (id) => {
          const container = await t.get(`/repositories/${repoId}/top_containers/${id}`);
          return JSON.stringify([container.type ?? null, container.indicator, container.barcode ?? null]);
        }),
      ),
    );
    expect(lines(again.fidelity).map(([category, , imported]) => [category, imported])).toEqual(
      report.map(([category, , imported]) => [category, category === "containers" ? distinct.size : imported]),
    );
  });
});

describe("what the fixtures' patterns become", () => {
  const resourceOf = async (file: string, format: "ead" | "ead3"): Promise<{ resource: Json; nodes: Json[] }> => {
    const summary = await t.importEad(`${FIXTURES}${file}`, { format, repoId: await t.newRepository(`p-${file}`) });
    expect(summary.outcome).toBe("imported");
    const resource = await t.get(summary.uris.find((uri) => uri.includes("/resources/")) as string);
    const nodes = await Promise.all(
      (await walkTree(t, resource.uri as string)).map((node) => t.get(node.uri as string)),
    );
    return { resource, nodes };
  };
  const byTitle = (nodes: Json[], title: string): Json => nodes.find((node) => node.title === title) as Json;

  it("EAD3: notbefore/notafter, datesets, a physdescset, structured extents, a physical-holdings <dsc>", async () => {
    const { resource, nodes } = await resourceOf("ead3-holdings.xml", "ead3");
    expect(resource.dates).toEqual([
      expect.objectContaining({
        date_type: "inclusive",
        begin: "1898",
        end: "1961-05",
        certainty: "approximate",
        expression: "circa 1898-May 1961",
      }),
      expect.objectContaining({ date_type: "bulk", begin: "1920", end: "1940" }),
    ]);
    expect(resource.extents).toEqual([
      expect.objectContaining({ number: ".40", extent_type: "cubic_feet", container_summary: "1 box" }),
      expect.objectContaining({
        portion: "part",
        number: "1200",
        extent_type: "photographic_prints",
        physical_details: "Gelatin silver prints",
        dimensions: "20 x 25 cm",
      }),
      expect.objectContaining({ portion: "part", number: "2.5", extent_type: "gigabytes" }),
    ]);
    // The nested <bioghist> is a note of its own; the nested bibliography's items join its parent's.
    const notes = resource.notes as Json[];
    expect(notes.filter((note) => note.type === "bioghist").map((note) => note.label)).toEqual([
      "Biographical note",
      "The Wexford Seed Company",
    ]);
    expect(notes.find((note) => note.jsonmodel_type === "note_bibliography")).toMatchObject({
      items: ["Wexford, H. Seeds. 1930.", "Wexford, H. More seeds. 1935."],
    });
    expect(byTitle(nodes, "Correspondence").dates).toEqual([
      expect.objectContaining({ date_type: "single", begin: "1899" }),
      expect.objectContaining({
        date_type: "inclusive",
        begin: "1920",
        end: "1925",
        certainty: "approximate",
        expression: "early 1920s",
      }),
    ]);
    expect(byTitle(nodes, "Letters to Lucy Ames").dates).toEqual([
      expect.objectContaining({ begin: "1930", end: "1935", certainty: "approximate", expression: "about 1932" }),
    ]);
    // The second <dsc> (physical holdings) follows the first, its components titled from what they carry.
    expect(nodes.slice(-3).map((node) => node.title)).toEqual(["Box B-001076", "Box B-001077", "39000001078"]);
    const daoset = await t.get(
      (
        (byTitle(nodes, "Letters to Lucy Ames").instances as Json[]).find(
          (instance) => instance.instance_type === "digital_object",
        )?.digital_object as Json
      ).ref as string,
    );
    expect((daoset.file_versions as Json[]).map((version) => version.file_uri)).toEqual([
      "https://example.org/scans/c3-1.jpg",
      "https://example.org/scans/c3-1-thumb.jpg",
    ]);
  });

  it("EAD 2002: approximate, thousands and fractional extents, nested notes, daogrp, a dao beside a component's <did>", async () => {
    const { resource, nodes } = await resourceOf("ead2002-legacy.xml", "ead");
    expect(resource.extents).toEqual([
      expect.objectContaining({
        number: "3",
        extent_type: "linear_feet",
        container_summary: "ca. 3 linear feet; (6 boxes)",
      }),
      expect.objectContaining({ number: "1200", extent_type: "other_unmapped", container_summary: "1,200 items" }),
      expect.objectContaining({
        number: "1.5",
        extent_type: "linear_feet",
        container_summary: "1 1/2 linear feet and 1 oversize box",
      }),
    ]);
    expect((resource.notes as Json[]).filter((note) => note.type === "arrangement")).toHaveLength(1);
    expect((resource.notes as Json[]).filter((note) => note.type === "bioghist")).toHaveLength(2);
    const diary = byTitle(nodes, "Diary, <unitdate>1915</unitdate>") ?? byTitle(nodes, "Diary,");
    expect(diary).toBeDefined();
    const letters = byTitle(nodes, "Letters");
    expect((letters.instances as Json[]).map((instance) => instance.instance_type)).toEqual(["digital_object"]);
    // A note after the series' child components is the series' own.
    expect((letters.notes as Json[]).map((note) => note.type)).toEqual(["odd"]);
    expect(byTitle(nodes, "Diary").dates).toEqual([
      expect.objectContaining({ begin: "1920-11-03", end: "1921-02", expression: "Nov. 3, 1920-Feb. 1921" }),
    ]);
  });
});
