// Read-only input is ignored, not rejected (docs/api.md §3); schema defaults are filled in.
import { describe, expect, it } from "@jest/globals";
import { isJsonObject, type JsonValue } from "../../src/registry/json.js";
import { recordValidator, stripReadOnly, validate } from "../../src/registry/validation.js";
import { minimalResource, recordedResource, sampleAccession, sampleUser } from "./samples.js";

const SERVER_FIELDS = [
  "uri",
  "jsonmodel_type",
  "lock_version",
  "created_by",
  "last_modified_by",
  "create_time",
  "system_mtime",
  "user_mtime",
  "repository",
];

/** Every key anywhere inside a JSON value. */
function keysDeep(value: JsonValue): Set<string> {
  const keys = new Set<string>();
  const walk = (node: JsonValue): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (isJsonObject(node)) {
      for (const [key, child] of Object.entries(node)) {
        keys.add(key);
        walk(child);
      }
    }
  };
  walk(value);
  return keys;
}

describe("stripReadOnly", () => {
  it("removes the server fields of a record", () => {
    const doc = {
      ...sampleAccession(),
      uri: "/repositories/2/accessions/1",
      jsonmodel_type: "accession",
      lock_version: 3,
      created_by: "admin",
      last_modified_by: "admin",
      create_time: "2020-03-09T16:25:14Z",
      system_mtime: "2020-03-19T13:07:13Z",
      user_mtime: "2020-03-19T13:07:13Z",
      repository: { ref: "/repositories/2" },
      suppressed: false,
      display_string: "WCDFR",
    };
    const stripped = stripReadOnly("accession", doc);
    for (const field of [...SERVER_FIELDS, "suppressed", "display_string"]) expect(stripped).not.toHaveProperty(field);
    expect(stripped).toEqual(sampleAccession());
  });

  it("removes them at any depth: a real ArchivesSpace GET response's subrecords", () => {
    const recorded = recordedResource();
    expect(keysDeep(recorded.extents ?? null).has("lock_version")).toBe(true);
    const stripped = stripReadOnly("resource", recorded);
    for (const field of ["extents", "dates", "instances", "notes"]) {
      const keys = keysDeep(stripped[field] ?? null);
      for (const serverField of [
        "lock_version",
        "created_by",
        "last_modified_by",
        "create_time",
        "system_mtime",
        "user_mtime",
      ]) {
        expect({ field, serverField, present: keys.has(serverField) }).toEqual({ field, serverField, present: false });
      }
    }
    expect(stripped).not.toHaveProperty("tree");
    expect(stripped).not.toHaveProperty("uri");
    // The subrecord's own data survives, and so do the writable fields (rights_statements) around them.
    expect(stripped.extents).toEqual([
      { number: "1", portion: "whole", extent_type: "Cubic Feet", jsonmodel_type: "extent" },
    ]);
    expect(stripped).toHaveProperty("rights_statements");
  });

  it("picks the note shape by jsonmodel_type and strips inside it", () => {
    const doc = minimalResource();
    doc.notes = [
      {
        jsonmodel_type: "note_multipart",
        type: "odd",
        lock_version: 1,
        subnotes: [{ jsonmodel_type: "note_text", content: "x", created_by: "admin" }],
      },
      { jsonmodel_type: "note_singlepart", type: "abstract", content: ["y"], system_mtime: "2020-01-01T00:00:00Z" },
    ];
    expect(stripReadOnly("resource", doc).notes).toEqual([
      { jsonmodel_type: "note_multipart", type: "odd", subnotes: [{ jsonmodel_type: "note_text", content: "x" }] },
      { jsonmodel_type: "note_singlepart", type: "abstract", content: ["y"] },
    ]);
  });

  it("drops _resolved from links and computed user fields", () => {
    const doc = {
      ...minimalResource(),
      related_accessions: [{ ref: "/repositories/2/accessions/1", _resolved: { title: "x" } }],
    };
    expect(stripReadOnly("resource", doc).related_accessions).toEqual([{ ref: "/repositories/2/accessions/1" }]);
    const user = { ...sampleUser(), permissions: { "/repositories/2": ["view_repository"] }, is_system_user: false };
    expect(stripReadOnly("user", user)).toEqual(sampleUser());
  });

  it("copies: the input is untouched", () => {
    const doc: Record<string, JsonValue> = { ...sampleAccession(), uri: "/repositories/2/accessions/1" };
    const stripped = stripReadOnly("accession", doc);
    expect(doc.uri).toBe("/repositories/2/accessions/1");
    expect(stripped.dates).not.toBe(doc.dates);
  });
});

describe("sameWithoutReadOnly", () => {
  it("says what comparing stripReadOnly's copy would say, read-only fields at any depth aside", () => {
    const validator = recordValidator();
    const recorded = recordedResource();
    const stripped = stripReadOnly("resource", recorded);
    expect(validator.sameWithoutReadOnly("resource", recorded, stripped)).toBe(true);
    expect(validator.sameWithoutReadOnly("resource", recorded, structuredClone(stripped))).toBe(true);
    // Key order does not matter; every other difference does, however deep.
    expect(
      validator.sameWithoutReadOnly("resource", recorded, Object.fromEntries(Object.entries(stripped).reverse())),
    ).toBe(true);
    const changed = structuredClone(stripped);
    (changed.extents as Array<Record<string, JsonValue>>)[0]!.number = "2";
    expect(validator.sameWithoutReadOnly("resource", recorded, changed)).toBe(false);
    expect(validator.sameWithoutReadOnly("resource", recorded, { ...stripped, publish: !stripped.publish })).toBe(
      false,
    );
    const { title: _title, ...untitled } = stripped;
    expect(validator.sameWithoutReadOnly("resource", recorded, untitled)).toBe(false);
    expect(validator.sameWithoutReadOnly("resource", recorded, { ...stripped, extents: [] })).toBe(false);
    // A read-only field in the other document is a difference: only the first is read as submitted.
    expect(validator.sameWithoutReadOnly("resource", recorded, { ...stripped, uri: recorded.uri ?? "x" })).toBe(false);
  });
});

describe("validate and read-only fields", () => {
  it("read-only fields, even malformed ones, cause no errors and are not returned", () => {
    const result = validate("accession", {
      ...sampleAccession(),
      uri: 5,
      lock_version: "three",
      repository: "x",
      system_mtime: null,
    });
    expect(result).toEqual({ ok: true, doc: expect.not.objectContaining({ uri: 5 }), dropped: [] });
    if (result.ok) for (const field of SERVER_FIELDS) expect(result.doc).not.toHaveProperty(field);
  });
});

describe("defaults", () => {
  it("accession_date defaults to 9999-12-31, and ArchivesSpace's boolean defaults apply", () => {
    const { accession_date: _date, restrictions_apply: _r, use_restrictions: _u, ...input } = sampleAccession();
    const result = validate("accession", input);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.doc.accession_date).toBe("9999-12-31");
    expect(result.doc.restrictions_apply).toBe(false);
    expect(result.doc.use_restrictions).toBe(false);
  });

  it("a given value is kept", () => {
    const result = validate("accession", sampleAccession());
    expect(result.ok && result.doc.accession_date).toBe("1987-01-11");
  });

  it("subrecords get their jsonmodel_type and extent portion", () => {
    const result = validate("resource", minimalResource());
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.doc.dates).toEqual([
      { jsonmodel_type: "date", date_type: "inclusive", label: "creation", begin: "1830", end: "1872" },
    ]);
    const { portion: _portion, ...extent } = { portion: "whole", number: "2", extent_type: "linear_feet" };
    const withoutPortion = validate("resource", { ...minimalResource(), extents: [extent] });
    expect(withoutPortion.ok && withoutPortion.doc.extents).toEqual([
      { jsonmodel_type: "extent", portion: "whole", number: "2", extent_type: "linear_feet" },
    ]);
    expect(result.doc.restrictions).toBe(false);
    const user = validate("user", sampleUser());
    expect(user.ok && user.doc.is_active_user).toBe(true);
  });
});
