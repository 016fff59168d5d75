// x-enumeration in a schema: what `npm run generate` refuses (with the file or type and the
// reason), and what the validator does with it when no store is involved (the seed values).
import { afterAll, describe, expect, it } from "@jest/globals";
import { generate } from "../../../src/registry/build/generate.js";
import { messageOf, SchemaDefinitionError } from "../../../src/registry/errors.js";
import { Registry } from "../../../src/registry/registry.js";
import { RecordValidator } from "../../../src/registry/validation.js";
import { removeTempDirs, schemaDirWith } from "../../registry/helpers.js";

afterAll(removeTempDirs);

function thing(properties: Record<string, unknown>, name = "thing"): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: name[0]!.toUpperCase() + name.slice(1),
    type: "object",
    "x-record-type": name,
    "x-collection": `${name}s`,
    "x-scope": "global",
    "x-permissions": { read: null, create: "update_thing", update: "update_thing", delete: "delete_thing" },
    "x-permission-codes": { update_thing: "repository", delete_thing: "repository" },
    allOf: [{ $ref: "shared/record_base.schema.json" }],
    properties,
    unevaluatedProperties: false,
  };
}

const colour = (extra: Record<string, unknown> = {}) => ({
  type: "string",
  "x-enumeration": { name: "thing_colour", values: ["red", "green"], ...extra },
});

async function generationError(types: Record<string, unknown>): Promise<string> {
  try {
    await generate(schemaDirWith(types));
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaDefinitionError);
    return messageOf(error);
  }
  throw new Error("generate() accepted the schema");
}

describe("generate() refuses", () => {
  it("a malformed keyword value (its meta-schema)", async () => {
    expect(
      await generationError({
        thing: thing({ colour: { type: "string", "x-enumeration": { name: "Thing Colour", values: ["red"] } } }),
      }),
    ).toMatch(/x-enumeration/);
    expect(
      await generationError({
        thing: thing({ colour: { type: "string", "x-enumeration": { name: "thing_colour" } } }),
      }),
    ).toMatch(/x-enumeration/);
    expect(
      await generationError({
        thing: thing({ colour: { type: "string", "x-enumeration": { name: "thing_colour", values: ["red", "red"] } } }),
      }),
    ).toMatch(/x-enumeration/);
  });

  it("x-enumeration beside enum, or on a property that is not a string", async () => {
    expect(await generationError({ thing: thing({ colour: { ...colour(), enum: ["red"] } }) })).toMatch(
      /thing: colour: x-enumeration replaces enum/,
    );
    expect(await generationError({ thing: thing({ colour: { ...colour(), type: "integer" } }) })).toMatch(
      /x-enumeration/,
    );
  });

  it("a read-only value or a default that is not one of the values", async () => {
    expect(await generationError({ thing: thing({ colour: colour({ readonly: ["blue"] }) }) })).toMatch(
      /thing: colour: x-enumeration thing_colour: readonly value "blue" is not one of its values/,
    );
    expect(await generationError({ thing: thing({ colour: { ...colour(), default: "blue" } }) })).toMatch(
      /the default "blue" is not a value of x-enumeration thing_colour/,
    );
  });

  it("a name never declared with its values", async () => {
    expect(
      await generationError({ thing: thing({ colour: { type: "string", "x-enumeration": "thing_colour" } }) }),
    ).toMatch(/thing\/colour: x-enumeration "thing_colour" is never declared with its values/);
  });

  it("one enumeration declared with different values, or editable in one place only", async () => {
    const other = thing({ shade: colour({ values: ["red", "blue"] }) }, "other");
    expect(await generationError({ thing: thing({ colour: colour() }), other })).toMatch(
      /x-enumeration thing_colour is declared otherwise at/,
    );
    const fixed = thing({ shade: colour({ editable: false }) }, "other");
    expect(await generationError({ thing: thing({ colour: colour() }), other: fixed })).toMatch(
      /x-enumeration thing_colour is declared otherwise at/,
    );
  });
});

describe("declared once, named elsewhere", () => {
  it("gives one enumeration used by several fields and types", async () => {
    const output = await generate(
      schemaDirWith({
        thing: thing({ colour: colour() }),
        other: thing({ shade: { type: "string", "x-enumeration": "thing_colour" } }, "other"),
      }),
    );
    const registry = new Registry(output.manifest);
    expect(registry.enumerations.get("thing_colour")).toMatchObject({
      values: ["red", "green"],
      usedBy: ["other/shade", "thing/colour"],
    });
  });
});

describe("the validator without a store", () => {
  it("accepts the seed values and refuses others, in ArchivesSpace's words", async () => {
    const registry = new Registry((await generate(schemaDirWith({ thing: thing({ colour: colour() }) }))).manifest);
    const validator = new RecordValidator(registry);
    expect(validator.validate("thing", { colour: "green" }).ok).toBe(true);
    expect(validator.validate("thing", { colour: "blue" })).toEqual({
      ok: false,
      errors: { colour: ["Invalid value 'blue'.  Must be one of: red, green"] },
    });
    expect(validator.validate("thing", { colour: 7 })).toEqual({
      ok: false,
      errors: { colour: ["Must be a string (you provided an integer)"] },
    });
  });

  it("asks the values it is given each time it validates", async () => {
    const registry = new Registry((await generate(schemaDirWith({ thing: thing({ colour: colour() }) }))).manifest);
    let values = ["red"];
    const validator = new RecordValidator(registry, { valuesOf: () => values });
    expect(validator.validate("thing", { colour: "green" }).ok).toBe(false);
    values = ["red", "green"];
    expect(validator.validate("thing", { colour: "green" }).ok).toBe(true);
  });
});
