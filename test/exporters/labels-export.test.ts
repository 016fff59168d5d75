// Container labels (TSV) through the service: a resource whose own instance and whose archival
// objects at several levels use top containers (some more than once), with a profile, a current
// location, sub containers, values a spreadsheet would run as formulas and values holding tabs
// and line breaks. One row per container, in tree order, with ArchivesSpace's columns. Also the
// metadata route, who may export, the 404s, and a tree of 450 containers streamed in a bounded
// number of store queries.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { trusted } from "../../src/auth/actor.js";
import { idOf, startExportService, type ExportService } from "./harness.js";

const HEADER = [
  "Repository Name",
  "Resource Title",
  "Resource Identifier",
  "Series Archival Object Title",
  "Archival Object Title",
  "Container Profile",
  "Top Container",
  "Top Container Barcode",
  "SubContainer 1",
  "SubContainer 2",
  "Current Location",
];

let service: ExportService;
let repo: string;
let resource: string;

const labelsPath = (uri: string) => `${uri.replace("/resources/", "/resource_labels/")}.tsv`;

/** The file's rows, each split into its cells (every row ends in CRLF). */
function rowsOf(text: string): string[][] {
  expect(text.endsWith("\r\n")).toBe(true);
  return text
    .slice(0, -2)
    .split("\r\n")
    .map((row) => row.split("\t"));
}

const RESOURCE_FIELDS = {
  level: "collection",
  finding_aid_language: "eng",
  finding_aid_script: "Latn",
  dates: [{ label: "creation", date_type: "single", begin: "1950" }],
  extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
  lang_materials: [{ language_and_script: { language: "eng" } }],
};

beforeAll(async () => {
  service = await startExportService("labels_export");
  const { create } = service;
  repo = await create("/repositories", { repo_code: "lbl", name: "Label Repository" });
  const profile = await create("/container_profiles", {
    name: "Hollinger",
    depth: "15",
    height: "10",
    width: "5",
    dimension_units: "inches",
    extent_dimension: "width",
  });
  const location = await create("/locations", { building: "Main", floor: "2", room: "201" });
  const old = await create("/locations", { building: "Annex" });
  const box = (indicator: string, extra: Record<string, unknown> = {}) =>
    create(`${repo}/top_containers`, { type: "box", indicator, ...extra });
  const own = await box("5");
  const box1 = await box("1", {
    barcode: "111",
    container_profile: { ref: profile },
    container_locations: [
      { ref: old, status: "previous", start_date: "2001-01-01", end_date: "2019-12-31" },
      { ref: location, status: "current", start_date: "2020-01-01" },
    ],
  });
  const box2 = await box("2");
  const formula = await box("=SUM(A1)", { barcode: "+123" });
  const untyped = await create(`${repo}/top_containers`, { indicator: "4", barcode: "@x" });
  const reel = await create(`${repo}/top_containers`, { type: "reel", indicator: "-5" });
  const hidden = await box("6");
  const instance = (top: string, levels: Record<string, string> = {}) => ({
    instance_type: "mixed_materials",
    sub_container: { top_container: { ref: top }, ...levels },
  });
  resource = await create(`${repo}/resources`, {
    ...RESOURCE_FIELDS,
    title: "Papers\twith a tab\nand a line break",
    id_0: "MSS",
    id_1: "60",
    instances: [instance(own)],
  });
  const node = (title: string, level: string, instances: unknown[], parent?: string, extra = {}) =>
    create(`${repo}/archival_objects`, {
      title,
      level,
      resource: { ref: resource },
      instances,
      ...(parent === undefined ? {} : { parent: { ref: parent } }),
      ...extra,
    });
  const series1 = await node(
    "Correspondence",
    "series",
    [instance(box1, { type_2: "folder", indicator_2: "1" })],
    undefined,
    {
      dates: [{ label: "creation", date_type: "single", begin: "1940", expression: "1940" }],
    },
  );
  const fileA = await node(
    "File A",
    "file",
    [
      instance(box1, { type_2: "folder", indicator_2: "2" }),
      instance(box2, { type_2: "folder", indicator_2: "3", type_3: "object", indicator_3: "7" }),
    ],
    series1,
  );
  await node("Item a", "item", [instance(formula)], fileA);
  await node("File B", "file", [instance(box2)], series1);
  const series2 = await node("=Formula series", "series", [], undefined);
  await node("File C", "file", [instance(untyped)], series2);
  await node("-File D", "file", [instance(reel)]);
  const hiddenNode = await node("Hidden", "file", [instance(hidden)]);
  expect(
    (await service.call("POST", `${hiddenNode}/suppressed?suppressed=true`, { token: service.admin })).status,
  ).toBe(200);
}, 60_000);
afterAll(() => service.stop());

describe("container labels of a resource", () => {
  let rows: string[][];

  beforeAll(async () => {
    const reply = await service.call("GET", labelsPath(resource), { token: service.admin });
    expect([reply.status, reply.headers.get("content-type")]).toEqual([200, "text/tab-separated-values"]);
    rows = rowsOf(reply.text);
  });

  it("starts with ArchivesSpace's header row, every row with its 11 cells", () => {
    expect(rows[0]).toEqual(HEADER);
    expect(rows.every((row) => row.length === HEADER.length)).toBe(true);
  });

  it("has one row per top container, each once, in tree order, the resource's own first", () => {
    const lead = ["Label Repository", "Papers with a tab and a line break", "MSS-60"];
    expect(rows.slice(1)).toEqual([
      [...lead, "", "", "", "box: 5", "", "", "", ""],
      [
        ...lead,
        "Correspondence, 1940",
        "Correspondence, 1940",
        "Hollinger [15d, 10h, 5w inches] extent measured by width",
        "box: 1",
        "111",
        "folder:1",
        "",
        "Main, 2, 201",
      ],
      [...lead, "Correspondence, 1940", "File A", "", "box: 2", "", "folder:3", "object:7", ""],
      [...lead, "Correspondence, 1940", "Item a", "", "box: =SUM(A1)", "'+123", "", "", ""],
      [...lead, "'=Formula series", "File C", "", "4", "'@x", "", "", ""],
      [...lead, "", "'-File D", "", "reel: -5", "", "", "", ""],
    ]);
  });

  it("leaves out suppressed records' containers", () => {
    expect(rows.flat()).not.toContain("box: 6");
  });
});

describe("the metadata route, who may export, and what is not there", () => {
  it("names the file after the identifier", async () => {
    const reply = await service.call("GET", `${labelsPath(resource)}/metadata`, { token: service.admin });
    expect([reply.status, reply.body]).toEqual([
      200,
      { filename: "MSS.60_labels.tsv", mimetype: "text/tab-separated-values" },
    ]);
  });

  it("needs a session and view_repository (403), and answers 404 for a missing resource or repository", async () => {
    expect(await service.call("GET", labelsPath(resource))).toMatchObject({
      status: 403,
      body: { error: "Access denied" },
    });
    await service.create("/users?password=secret123", { username: "outsider", name: "Outsider" });
    const outsider = await service.login("outsider", "secret123");
    expect(await service.call("GET", labelsPath(resource), { token: outsider })).toMatchObject({ status: 403 });
    expect(await service.call("GET", `${repo}/resource_labels/9999.tsv`, { token: service.admin })).toMatchObject({
      status: 404,
      body: { error: "Resource not found" },
    });
    expect(await service.call("GET", "/repositories/99/resource_labels/1.tsv", { token: service.admin })).toMatchObject(
      { status: 404, body: { error: "Repository not found" } },
    );
  });
});

describe("a large tree, streamed", () => {
  const FILES = 450;
  let big: string;

  beforeAll(async () => {
    big = await service.create(`${repo}/resources`, { ...RESOURCE_FIELDS, title: "Big", id_0: "BIG" });
    const scope = { repoId: idOf(repo) };
    const actor = trusted("admin");
    const firstBox = await service.operations.deps.store.nextIds("top_container", FILES);
    const boxes = Array.from({ length: FILES }, (_, i) => ({
      id: firstBox + i,
      input: { type: "box", indicator: String(i + 1) },
    }));
    await service.operations.createMany("top_container", scope, boxes, actor);
    const firstNode = await service.operations.deps.store.nextIds("archival_object", FILES + 1);
    const series = { id: firstNode, input: { title: "Series", level: "series", resource: { ref: big } } };
    // 450 files under one series: three batches of children, each file with its own box.
    const files = boxes.map((box, i) => ({
      id: firstNode + 1 + i,
      input: {
        title: `File ${String(i).padStart(3, "0")}`,
        level: "file",
        resource: { ref: big },
        parent: { ref: `${repo}/archival_objects/${firstNode}` },
        instances: [
          {
            instance_type: "mixed_materials",
            sub_container: { top_container: { ref: `${repo}/top_containers/${box.id}` } },
          },
        ],
      },
    }));
    await service.operations.createMany("archival_object", scope, [series, ...files], actor);
  }, 60_000);

  it("writes every container's row, in order, chunked, in a bounded number of store queries", async () => {
    service.commands.length = 0;
    const response = await fetch(`${service.base}${labelsPath(big)}`, {
      headers: { "X-ArchivesSpace-Session": service.admin },
    });
    expect(response.headers.get("transfer-encoding")).toBe("chunked");
    const rows = rowsOf(await response.text()).slice(1);
    expect(rows).toHaveLength(FILES);
    expect(rows.map((row) => [row[3], row[4], row[6]])).toEqual(
      Array.from({ length: FILES }, (_, i) => ["Series", `File ${String(i).padStart(3, "0")}`, `box: ${i + 1}`]),
    );
    const finds = (collection: string) =>
      service.commands.filter((event) => event.commandName === "find" && event.command.find === collection).length;
    // Children and their containers a batch of 200 at a time: never a query per record.
    expect(finds("archival_objects")).toBeLessThan(10);
    expect(finds("top_containers")).toBeLessThan(10);
  }, 60_000);
});
