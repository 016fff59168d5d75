// Note shapes beyond single- and multipart: bibliographies and indexes on archival records,
// ArchivesSpace's own digital object notes on digital objects and components. An index entry
// may link the record it points into; deleting that record removes the entry.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { globalGrants, startRecordServer, type RecordServer } from "../../support/service.js";
import { trusted } from "../../../src/auth/actor.js";

type Json = Record<string, unknown>;

let server: RecordServer;
let token: string;
let repo: number;

beforeAll(async () => {
  server = await startRecordServer();
  repo = (await server.ops.create("repository", {}, { repo_code: "notes", name: "Notes" }, trusted("system"))).id;
  token = await server.login(
    "describer",
    globalGrants([
      "view_repository",
      "update_resource_record",
      "update_digital_object_record",
      "delete_archival_record",
    ]),
  );
});
afterAll(() => server.stop());

const resource = (notes: Json[]): Json => ({
  title: "Papers",
  id_0: `N${Math.random()}`,
  level: "collection",
  finding_aid_language: "eng",
  finding_aid_script: "Latn",
  extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
  dates: [{ label: "creation", date_type: "single", begin: "1900" }],
  lang_materials: [{ language_and_script: { language: "eng", script: "Latn" } }],
  notes,
});

async function post(path: string, body: Json): Promise<{ status: number; body: Json }> {
  const reply = await server.send("POST", path, { token, body });
  return { status: reply.status, body: reply.body as Json };
}

describe("bibliography and index notes", () => {
  it("are stored and read back as sent", async () => {
    const notes = [
      {
        jsonmodel_type: "note_bibliography",
        label: "Works cited",
        content: ["Published sources."],
        items: ["Smith, A. History. 1901."],
      },
      {
        jsonmodel_type: "note_index",
        content: ["Index of correspondents."],
        items: [{ value: "Smith, Ada", type: "person", reference: "box 1" }],
      },
    ];
    const created = await post(`/repositories/${repo}/resources`, resource(notes));
    expect(created.status).toBe(200);
    const read = (await server.send("GET", created.body.uri as string, { token })).body as Json;
    expect(read.notes).toEqual([
      expect.objectContaining({ jsonmodel_type: "note_bibliography", items: ["Smith, A. History. 1901."] }),
      expect.objectContaining({
        jsonmodel_type: "note_index",
        items: [expect.objectContaining({ value: "Smith, Ada", type: "person", jsonmodel_type: "note_index_item" })],
      }),
    ]);
  });

  it("are checked in their own shape", async () => {
    const reply = await post(
      `/repositories/${repo}/resources`,
      resource([
        { jsonmodel_type: "note_bibliography", items: ["x"] },
        { jsonmodel_type: "note_index", content: ["x"], items: [{ value: "x", type: "planet" }] },
      ]),
    );
    expect([reply.status, reply.body]).toEqual([
      400,
      {
        error: {
          "notes/0/content": ["Property is required but was missing"],
          "notes/1/items/0/type": [expect.stringContaining("Invalid value 'planet'")],
        },
      },
    ]);
  });

  it("an index entry's reference_ref is a link: checked on write, removed when its target goes", async () => {
    const target = await post(`/repositories/${repo}/resources`, resource([]));
    const missing = await post(
      `/repositories/${repo}/resources`,
      resource([
        {
          jsonmodel_type: "note_index",
          content: ["x"],
          items: [{ value: "x", type: "subject", reference_ref: { ref: `/repositories/${repo}/resources/999999` } }],
        },
      ]),
    );
    expect([missing.status, missing.body]).toEqual([
      400,
      {
        error: {
          "notes/0/items/0/reference_ref/ref": [`Reference to /repositories/${repo}/resources/999999 does not exist`],
        },
      },
    ]);
    const holder = await post(
      `/repositories/${repo}/resources`,
      resource([
        {
          jsonmodel_type: "note_index",
          content: ["x"],
          items: [
            { value: "kept", type: "subject" },
            { value: "linked", type: "subject", reference_ref: { ref: target.body.uri } },
          ],
        },
      ]),
    );
    expect(holder.status).toBe(200);
    expect((await server.send("DELETE", target.body.uri as string, { token })).status).toBe(200);
    const read = (await server.send("GET", holder.body.uri as string, { token })).body as {
      notes: Array<{ items: Json[] }>;
    };
    expect(read.notes[0]?.items.map((item) => item.value)).toEqual(["kept"]);
  });
});

describe("digital object notes", () => {
  it("take ArchivesSpace's note_digital_object and note_bibliography shapes, and only those", async () => {
    const good = await post(`/repositories/${repo}/digital_objects`, {
      title: "Scan",
      digital_object_id: `scan-${Math.random()}`,
      notes: [
        { jsonmodel_type: "note_digital_object", type: "summary", content: ["A scan of a letter."] },
        { jsonmodel_type: "note_bibliography", content: ["Cited in:"], items: ["Jones 1990"] },
      ],
    });
    expect(good.status).toBe(200);
    const archival = await post(`/repositories/${repo}/digital_objects`, {
      title: "Scan",
      digital_object_id: `scan-${Math.random()}`,
      notes: [{ jsonmodel_type: "note_multipart", type: "scopecontent", subnotes: [] }],
    });
    expect([archival.status, archival.body]).toEqual([
      400,
      {
        error: {
          "notes/0/jsonmodel_type": [
            "Invalid value 'note_multipart'.  Must be one of: note_digital_object, note_bibliography",
          ],
        },
      },
    ]);
    const badType = await post(`/repositories/${repo}/digital_object_components`, {
      title: "Page",
      digital_object: { ref: good.body.uri },
      notes: [{ jsonmodel_type: "note_digital_object", type: "scopecontent", content: ["x"] }],
    });
    expect(badType.status).toBe(400);
    expect(Object.keys(badType.body.error as Json)).toEqual(["notes/0/type"]);
  });
});
