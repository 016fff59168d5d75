// The one table of extent units every importer reads (src/importers/extent-units.ts): a unit
// as written, the type the table gives it, and its other number.
import { describe, expect, it } from "@jest/globals";
import { extentUnitCandidates, readQuantity, unitKey } from "../../src/importers/extent-units.js";

describe("extent units", () => {
  it("ignore case, spacing, separators and a closing period", () => {
    expect(unitKey("  Linear_Feet. ")).toBe("linear feet");
    expect(unitKey("cu.-ft.")).toBe("cu. ft");
  });

  it.each([
    ["Lin. Ft.", "linear_feet"],
    ["linear foot", "linear_feet"],
    ["LF", "linear_feet"],
    ["cu ft", "cubic_feet"],
    ["Cubic Feet", "cubic_feet"],
    ["GB", "gigabytes"],
    ["vols.", "volumes"],
    ["v.", "volumes"],
    ["photographs", "photographic_prints"],
    ["slide", "photographic_slides"],
  ])("read %s as %s", (unit, type) => {
    expect(extentUnitCandidates(unit)).toContain(type);
  });

  it("try a unit's other number, as written first", () => {
    expect(extentUnitCandidates("box")).toEqual(["box", "boxes"]);
    expect(extentUnitCandidates("Boxes")).toEqual(["boxes", "box"]);
    expect(extentUnitCandidates("folders")).toEqual(["folders", "folder"]);
    expect(extentUnitCandidates("item")).toEqual(["item", "items"]);
    expect(extentUnitCandidates("")).toEqual([]);
  });

  it("keys are the table's own: no prototype name is a unit", () => {
    expect(extentUnitCandidates("constructor")).toEqual(["constructor", "constructors"]);
    expect(extentUnitCandidates("__proto__")).toEqual(["proto", "protos"]);
  });

  it.each([
    ["2.5 linear feet", "2.5", "linear feet", false],
    [".40 cubic feet", ".40", "cubic feet", false],
    ["2,5 linear feet", "2.5", "linear feet", false],
    ["1,200 items", "1200", "items", false],
    ["12,345,678 leaves", "12345678", "leaves", false],
    ["1 1/2 linear feet", "1.5", "linear feet", false],
    ["1/2 linear foot", "0.5", "linear foot", false],
    ["ca. 300 items", "300", "items", true],
    ["circa 3 boxes", "3", "boxes", true],
    ["approximately 40 photographs", "40", "photographs", true],
    ["7", "7", "", false],
  ])("read the quantity of %s", (text, number, rest, approximate) => {
    expect(readQuantity(text)).toEqual({ number, rest, approximate });
  });

  it("no quantity: text that does not start with one", () => {
    expect(readQuantity("Photographs")).toBeUndefined();
    expect(readQuantity("ca. many boxes")).toBeUndefined();
    expect(readQuantity("")).toBeUndefined();
  });
});
