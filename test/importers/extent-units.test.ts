// The one table of extent units every importer reads (src/importers/extent-units.ts): a unit
// as written, the type the table gives it, and its other number.
import { describe, expect, it } from "@jest/globals";
import { extentUnitCandidates, unitKey } from "../../src/importers/extent-units.js";

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
});
