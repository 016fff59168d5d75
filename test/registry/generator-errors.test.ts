// A malformed schema stops `npm run generate` with a message naming the file and the problem,
// instead of producing a registry that misbehaves at run time.
import { afterAll, describe, expect, it } from "@jest/globals";
import { generate } from "../../src/registry/build/generate.js";
import { messageOf, SchemaDefinitionError } from "../../src/registry/errors.js";
import { removeTempDirs, schemaDirWith } from "./helpers.js";

afterAll(removeTempDirs);

/** A valid schema-only type to break in one way per test. */
function thing(
  overrides: Record<string, unknown> = {},
  properties: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "Thing",
    type: "object",
    "x-record-type": "thing",
    "x-collection": "things",
    "x-scope": "repository",
    "x-permissions": {
      read: "view_repository",
      create: "update_thing",
      update: "update_thing",
      delete: "delete_thing",
    },
    "x-permission-codes": { update_thing: "repository", delete_thing: "repository" },
    allOf: [{ $ref: "shared/repository_record_base.schema.json" }],
    properties: { name: { type: "string" }, ...properties },
    required: ["name"],
    unevaluatedProperties: false,
    ...overrides,
  };
}

/** The repository-like global type the repository-scoped things live in (x-scope-holder). */
const holder = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "Holder",
  type: "object",
  "x-record-type": "holder",
  "x-collection": "holders",
  "x-scope": "global",
  "x-scope-holder": true,
  "x-permissions": {
    read: null,
    create: "create_repository",
    update: "create_repository",
    delete: "delete_repository",
  },
  allOf: [{ $ref: "shared/record_base.schema.json" }],
  properties: { name: { type: "string" } },
  unevaluatedProperties: false,
};

/** `types`, with the holder of repository-scoped types unless `bare`. */
const withHolder = (types: Record<string, unknown>, bare = false) => (bare ? types : { holder, ...types });

async function generationError(types: Record<string, unknown>, { bare = false } = {}): Promise<string> {
  try {
    await generate(schemaDirWith(withHolder(types, bare)));
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaDefinitionError);
    return messageOf(error);
  }
  throw new Error("generate() accepted the schema");
}

describe("generate() refuses", () => {
  it("nothing when the schema is right", async () => {
    const output = await generate(schemaDirWith(withHolder({ thing: thing() })));
    expect(output.manifest.types.map((type) => type.name).sort()).toEqual(["holder", "thing"]);
  });

  describe("x-scope-holder", () => {
    it("missing while a type is repository-scoped", async () => {
      expect(await generationError({ thing: thing() }, { bare: true })).toMatch(
        /thing: a repository-scoped type needs a type with x-scope-holder/,
      );
    });

    it("on two types, or on a repository-scoped one", async () => {
      expect(
        await generationError({
          other: { ...holder, title: "Other", "x-record-type": "other", "x-collection": "others" },
          thing: thing(),
        }),
      ).toMatch(/x-scope-holder: (holder|other) already holds/);
      expect(await generationError({ thing: thing({ "x-scope-holder": true }) }, { bare: true })).toMatch(
        /thing: x-scope-holder: the holder must itself have x-scope "global"/,
      );
    });

    it("with a value other than true", async () => {
      expect(await generationError({ thing: thing({ "x-scope-holder": false }) })).toMatch(/x-scope-holder/);
    });
  });

  it("a type without x-permissions", async () => {
    const { "x-permissions": _p, ...schema } = thing();
    expect(await generationError({ thing: schema })).toMatch(/thing\.schema\.json: x-permissions is required/);
  });

  it("x-public-read beside a read code, or with a value other than true", async () => {
    expect(await generationError({ thing: thing({ "x-public-read": true }) })).toMatch(
      /thing\.schema\.json: x-public-read needs x-permissions\.read: null/,
    );
    expect(await generationError({ thing: thing({ "x-public-read": false }) })).toMatch(/x-public-read/);
  });

  it("x-list-unpaged other than true, x-hidden-ids other than a list of positive whole numbers", async () => {
    expect(await generationError({ thing: thing({ "x-list-unpaged": false }) })).toMatch(
      /thing\.schema\.json: .*x-list-unpaged/,
    );
    for (const ids of [[0], ["1"], 1, [1.5]])
      expect(await generationError({ thing: thing({ "x-hidden-ids": ids }) })).toMatch(
        /thing\.schema\.json: .*x-hidden-ids/,
      );
  });

  it("x-find-by-id naming no text property, identifier without x-identifiers, or on a global type", async () => {
    expect(await generationError({ thing: thing({ "x-find-by-id": ["nope"] }) })).toMatch(
      /thing\.schema\.json: x-find-by-id: "nope" must be a text property/,
    );
    expect(await generationError({ thing: thing({ "x-find-by-id": ["identifier"] }) })).toMatch(
      /x-find-by-id: "identifier" needs x-identifiers/,
    );
    expect(await generationError({ thing: thing({ "x-find-by-id": ["name"], "x-scope": "global" }) })).toMatch(
      /x-find-by-id is for a repository-scoped type/,
    );
  });

  it("x-exports with a file name field that is no property, a format or path given twice, or a malformed entry", async () => {
    const entry = (format: string, path: string, fields = ["name"]) => ({
      format,
      path,
      filename: { fields, separator: "." },
    });
    expect(await generationError({ thing: thing({ "x-exports": [entry("ead", "things", ["nope.0"])] }) })).toMatch(
      /thing\.schema\.json: x-exports\[0\]\.filename: "nope" is not a property/,
    );
    expect(
      await generationError({ thing: thing({ "x-exports": [entry("ead", "things"), entry("ead", "others")] }) }),
    ).toMatch(/x-exports\[1\]: format ead is exported twice/);
    expect(
      await generationError({ thing: thing({ "x-exports": [entry("ead", "things"), entry("mods", "things")] }) }),
    ).toMatch(/x-exports\[1\]: path things is exported twice/);
    for (const bad of [{ format: "ead", path: "things" }, { ...entry("ead", "/things/") }, { ...entry("EAD", "x") }])
      expect(await generationError({ thing: thing({ "x-exports": [bad] }) })).toMatch(
        /thing\.schema\.json: .*x-exports/,
      );
  });

  it("x-external-id naming no list of items with that text property", async () => {
    const ids = { type: "array", items: { type: "object", properties: { external_id: { type: "string" } } } };
    for (const path of ["name.external_id", "ids.nope", "ids", "ids.external_id.more"])
      expect(await generationError({ thing: thing({ "x-external-id": path }, { ids }) })).toMatch(
        /thing\.schema\.json: .*x-external-id/,
      );
  });

  it("x-search with a path into no property, a built-in field's name, no title or a malformed path", async () => {
    const refusals: Array<[unknown, RegExp]> = [
      [{ title: ["nope"] }, /x-search\.title/],
      [{ title: ["name"], fields: { notes: ["missing/*/content"] } }, /x-search\.fields\.notes/],
      [{ title: ["name"], fields: { primary_type: ["name"] } }, /"primary_type" is a built-in search field/],
      [{ fields: { notes: ["name"] } }, /x-search/],
      [{ title: ["name/**"] }, /x-search/],
    ];
    for (const [value, message] of refusals)
      expect(await generationError({ thing: thing({ "x-search": value }) })).toMatch(message);
  });

  it("x-write-parameters naming a record field, without a description, taken by no write, or with a bad use", async () => {
    const refusals: Array<[unknown, RegExp]> = [
      [{ name: { create: "required", description: "x" } }, /x-write-parameters\.name: "name" is a property/],
      [{ secret: { create: "required" } }, /x-write-parameters/],
      [{ secret: { description: "x" } }, /x-write-parameters\.secret: say which writes take it/],
      [{ secret: { update: "sometimes", description: "x" } }, /x-write-parameters/],
    ];
    for (const [value, message] of refusals)
      expect(await generationError({ thing: thing({ "x-write-parameters": value }) })).toMatch(message);
  });

  it("x-list-filters naming no text property; x-in-hidden-scope on a type no repository holds", async () => {
    expect(await generationError({ thing: thing({ "x-list-filters": ["nope"] }) })).toMatch(
      /x-list-filters: "nope" must be a text property/,
    );
    expect(
      await generationError({ thing: thing({ "x-list-filters": ["count"] }, { count: { type: "integer" } }) }),
    ).toMatch(/x-list-filters: "count" must be a text property/);
    expect(await generationError({ thing: thing({ "x-in-hidden-scope": false }) })).toMatch(/x-in-hidden-scope/);
    expect(await generationError({ thing: thing({ "x-scope": "global", "x-in-hidden-scope": true }) })).toMatch(
      /x-in-hidden-scope is for a repository-scoped type/,
    );
  });

  describe("permission codes", () => {
    it("an x-permissions code that is neither ArchivesSpace's nor declared, naming the schema and the operation", async () => {
      const typo = thing({
        "x-permissions": {
          read: "view_repositry",
          create: "update_thing",
          update: "update_thing",
          delete: "delete_thing",
        },
      });
      expect(await generationError({ thing: typo })).toMatch(
        /^thing: x-permissions\.read: "view_repositry" is not a permission code/,
      );
      const { "x-permission-codes": _codes, ...undeclared } = thing();
      expect(await generationError({ thing: undeclared })).toMatch(
        /^thing: x-permissions\.create: "update_thing" is not a permission code/,
      );
    });

    it("a declared code that is already ArchivesSpace's, or declared by another type at another level", async () => {
      expect(
        await generationError({
          thing: thing({
            "x-permission-codes": { update_thing: "repository", delete_thing: "repository", manage_users: "global" },
          }),
        }),
      ).toMatch(/thing: x-permission-codes: manage_users is already one of ArchivesSpace's/);
      const other = thing({
        title: "Other",
        "x-record-type": "other",
        "x-collection": "others",
        "x-permission-codes": { update_thing: "global" },
      });
      expect(await generationError({ other, thing: thing() })).toMatch(
        /x-permission-codes: update_thing is declared by (thing|other) at the (repository|global) level/,
      );
      // At the same level, two types share it.
      const sharing = thing({ title: "Other", "x-record-type": "other", "x-collection": "others" });
      expect(
        (await generate(schemaDirWith(withHolder({ other: sharing, thing: thing() })))).manifest.types,
      ).toHaveLength(3);
    });

    it("a declared code's level other than repository or global", async () => {
      expect(
        await generationError({
          thing: thing({ "x-permission-codes": { update_thing: "planet", delete_thing: "repository" } }),
        }),
      ).toMatch(/x-permission-codes/);
    });

    it("nothing, and gives each declared code its level", async () => {
      const output = await generate(
        schemaDirWith(
          withHolder({
            thing: thing({ "x-permission-codes": { update_thing: "repository", delete_thing: "global" } }),
          }),
        ),
      );
      const { Registry } = await import("../../src/registry/registry.js");
      const levels = new Registry(output.manifest).permissionLevels;
      expect([
        levels.get("update_thing"),
        levels.get("delete_thing"),
        levels.get("view_repository"),
        levels.get("manage_users"),
      ]).toEqual(["repository", "global", "repository", "global"]);
      expect(levels.get("update_thnig")).toBeUndefined();
    });
  });

  it("an x- value of the wrong shape (checked by the keyword's meta-schema)", async () => {
    expect(await generationError({ thing: thing({ "x-scope": "planet" }) })).toMatch(/thing\.schema\.json: .*x-scope/);
    expect(await generationError({ thing: thing({ "x-unique": [{ fields: ["name"] }] }) })).toMatch(/x-unique/);
  });

  it("an unknown keyword (ajv strict mode), e.g. a misspelt x- keyword", async () => {
    expect(await generationError({ thing: thing({ "x-colection": "things" }) })).toMatch(
      /unknown keyword: "x-colection"/,
    );
  });

  describe("an x-reciprocal that cannot be kept on both sides", () => {
    const item = (reciprocal: Record<string, unknown>, targets = ["thing"]) => ({
      type: "object",
      allOf: [{ $ref: "shared/ref.schema.json" }],
      "x-ref-targets": targets,
      "x-on-target-delete": "remove",
      "x-reciprocal": reciprocal,
      properties: { relator: { type: "string" } },
      unevaluatedProperties: false,
    });
    const list = (reciprocal: Record<string, unknown>, targets?: string[]) => ({
      type: "array",
      items: item(reciprocal, targets),
    });

    it("is accepted on a top-level list whose targets take it back", async () => {
      const inverse = { relator: "relator", inverse: { leads: "follows", follows: "leads" } };
      await expect(
        generate(schemaDirWith(withHolder({ thing: thing({}, { links: list(inverse) }) }))),
      ).resolves.toBeDefined();
    });

    it.each([
      [
        "an inverse that does not read back",
        { relator: "relator", inverse: { a: "b", b: "c" } },
        /"b" must read back as "a"/,
      ],
      ["a relator the item lacks", { relator: "role" }, /x-reciprocal.relator: "role" is not a property of the item/],
    ])("%s", async (_name, reciprocal, message) => {
      expect(await generationError({ thing: thing({}, { links: list(reciprocal) }) })).toMatch(message);
    });

    it("below the top level, or to a type without the list to show it back in", async () => {
      const nested = { type: "object", properties: { links: list({ relator: "relator" }) } };
      expect(await generationError({ thing: thing({}, { nested }) })).toMatch(
        /x-reciprocal belongs on the link items of a top-level list/,
      );
      expect(await generationError({ thing: thing({}, { links: list({ relator: "relator" }, ["holder"]) }) })).toMatch(
        /x-reciprocal: holder must take these links back in links/,
      );
    });
  });

  it("a link without a delete rule", async () => {
    const link = { $ref: "shared/ref.schema.json", "x-ref-targets": ["thing"] };
    expect(await generationError({ thing: thing({}, { other: link }) })).toMatch(
      /thing: other: x-ref-targets needs x-on-target-delete/,
    );
  });

  it("settings that name undeclared fields", async () => {
    expect(
      await generationError({ thing: thing({ "x-unique": [{ fields: ["nmae"], scope: "repository" }] }) }),
    ).toMatch(/"nmae" is not a property/);
    expect(await generationError({ thing: thing({ "x-indexes": [{ fields: { colour: 1 } }] }) })).toMatch(
      /"colour" is not a property/,
    );
  });

  it("an identifier whose first part is not required", async () => {
    const schema = thing(
      { "x-identifiers": { fields: ["code", "sub"], scope: "repository" } },
      { code: { type: "string" }, sub: { type: "string" } },
    );
    expect(await generationError({ thing: schema })).toMatch(
      /x-identifiers: the first part \("code"\) must be listed in required/,
    );
  });

  it("a required name that is not declared", async () => {
    expect(await generationError({ thing: thing({ required: ["name", "titel"] }) })).toMatch(
      /required "titel" at # is not declared/,
    );
  });

  it("a type-level setting placed on a nested schema", async () => {
    expect(await generationError({ thing: thing({}, { part: { type: "object", "x-collection": "parts" } }) })).toMatch(
      /x-collection at #\/properties\/part has no effect/,
    );
  });

  it("x-read-permission below a top-level property, or naming no permission code", async () => {
    const nested = {
      type: "array",
      items: { type: "object", properties: { phone: { type: "string", "x-read-permission": "view_repository" } } },
    };
    expect(await generationError({ thing: thing({}, { contacts: nested }) })).toMatch(
      /x-read-permission at #\/properties\/contacts\/items\/properties\/phone has no effect: it belongs on a top-level property/,
    );
    expect(
      await generationError({ thing: thing({}, { cost: { type: "string", "x-read-permission": "see_cost" } }) }),
    ).toMatch(/^thing: x-read-permission on cost: "see_cost" is not a permission code/);
  });

  it("x-derived without a format, on a non-string, or whose unless names no boolean beside it", async () => {
    const part = (label: Record<string, unknown>, flag: Record<string, unknown> = { type: "boolean" }) => ({
      parts: { type: "array", items: { type: "object", properties: { label, name: { type: "string" }, auto: flag } } },
    });
    const format = { path: "name" };
    expect(
      await generate(
        schemaDirWith(
          withHolder({ thing: thing({}, part({ type: "string", "x-derived": { unless: "auto", format } })) }),
        ),
      ),
    ).toBeDefined();
    expect(
      await generationError({ thing: thing({}, part({ type: "string", "x-derived": { unless: "auto" } })) }),
    ).toMatch(/x-derived/);
    expect(await generationError({ thing: thing({}, part({ type: "integer", "x-derived": { format } })) })).toMatch(
      /^thing: x-derived on label: the property must be a string/,
    );
    expect(
      await generationError({ thing: thing({}, part({ type: "string", "x-derived": { unless: "nope", format } })) }),
    ).toMatch(/^thing: x-derived on label: unless must name a boolean property beside it \("nope" is not one\)/);
    expect(
      await generationError({
        thing: thing({}, part({ type: "string", "x-derived": { unless: "auto", format } }, { type: "string" })),
      }),
    ).toMatch(/unless must name a boolean property beside it \("auto" is not one\)/);
  });

  it("two types sharing a collection", async () => {
    const other = thing({ title: "Other", "x-record-type": "other" });
    expect(await generationError({ thing: thing(), other })).toMatch(/x-collection "things" is already used/);
  });

  it("a property that a composed base also declares", async () => {
    expect(await generationError({ thing: thing({}, { uri: { type: "string" } }) })).toMatch(
      /property "uri" is also declared by a base/,
    );
  });

  it("refs to missing files, outside the folder, or with fragments", async () => {
    expect(await generationError({ thing: thing({}, { d: { $ref: "shared/nope.schema.json" } }) })).toMatch(
      /nope\.schema\.json: ENOENT/,
    );
    expect(await generationError({ thing: thing({}, { d: { $ref: "../elsewhere.schema.json" } }) })).toMatch(
      /must name a \.schema\.json file inside/,
    );
    expect(
      await generationError({ thing: thing({}, { d: { $ref: "shared/date.schema.json#/properties/begin" } }) }),
    ).toMatch(/fragments are not supported/);
  });

  it("a type whose file is not named after it", async () => {
    expect(await generationError({ things: thing() })).toMatch(
      /things\.schema\.json: a record type's file is named after its x-record-type: thing\.schema\.json/,
    );
  });

  it("a title that cannot name a TypeScript interface, and malformed JSON", async () => {
    expect(await generationError({ thing: thing({ title: "my thing" }) })).toMatch(/PascalCase/);
    expect(await generationError({ thing: "{ not json" })).toMatch(/thing\.schema\.json: /);
  });

  describe("an x-tree that cannot describe a tree", () => {
    const link = (targets: string[]) => ({
      $ref: "shared/ref.schema.json",
      "x-ref-targets": targets,
      "x-on-target-delete": "cascade",
    });
    const box = { ...thing(), title: "Box", "x-record-type": "box", "x-collection": "boxes" };
    const tree = { root: "box", parent: "parent", position: "position", label: ["name"] };
    const node = (
      settings: Record<string, unknown>,
      properties: Record<string, unknown> = {},
      required = ["name", "box"],
    ) =>
      thing(
        { "x-tree": settings, required },
        { box: link(["box"]), parent: link(["thing"]), position: { type: "integer", minimum: 0 }, ...properties },
      );

    it("accepts one that can", async () => {
      const output = await generate(schemaDirWith(withHolder({ box, thing: node(tree) })));
      expect(output.manifest.types.find((type) => type.name === "thing")?.tree).toEqual({ ...tree, summary: [] });
    });

    it.each([
      [
        "a root that is not a link",
        { ...tree, root: "name" },
        {},
        ["name", "box"],
        /x-tree\.root: "name" must be a link property/,
      ],
      ["a root that is not required", tree, {}, ["name"], /x-tree\.root: "box" must be listed in required/],
      [
        "a root linking to two types",
        tree,
        { box: link(["box", "thing"]) },
        ["name", "box"],
        /x-tree\.root: "box" must link to exactly one record type/,
      ],
      [
        "a parent of another type",
        tree,
        { parent: link(["box"]) },
        ["name", "box"],
        /x-tree\.parent: "parent" must link to thing only/,
      ],
      [
        "a position that is not an integer",
        tree,
        { position: { type: "string" } },
        ["name", "box"],
        /x-tree\.position: "position" must be an integer property/,
      ],
      [
        "a label field that does not exist",
        { ...tree, label: ["nope"] },
        {},
        ["name", "box"],
        /"nope" is not a property/,
      ],
    ])("%s", async (_name, settings, properties, required, message) => {
      expect(await generationError({ box, thing: node(settings, properties, required) })).toMatch(message);
    });

    it("a root type no schema declares, or one of another scope", async () => {
      expect(await generationError({ thing: node(tree) })).toMatch(
        /x-tree\.root links to box, which no schema declares/,
      );
      expect(
        await generationError({
          box: { ...box, "x-scope": "global", allOf: [{ $ref: "shared/record_base.schema.json" }] },
          thing: node(tree),
        }),
      ).toMatch(/the root type box must have the same scope/);
    });
  });
});
