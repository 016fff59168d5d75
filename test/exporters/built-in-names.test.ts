// Names from outside, in the exporters: stored inline markup whose entity references or attribute
// names are Object.prototype's member names (`&constructor;`, `toString="..."`, `__proto__="..."`)
// is written as what it is. The entity table is read for its own five entities only, so an
// unknown reference stays text rather than becoming an inherited function's source.
import { afterEach, describe, expect, it } from "@jest/globals";
import { written } from "./mixed-output.js";
import { children } from "./xml-tree.js";

const BUILT_INS = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__"];
const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();

afterEach(() => {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
});

describe("inline markup with built-in names", () => {
  for (const ead3 of [false, true]) {
    it(`keeps an unknown entity reference named after a built-in as text (${ead3 ? "EAD3" : "EAD 2002"})`, async () => {
      for (const name of BUILT_INS.filter((candidate) => /^[A-Za-z]+$/.test(candidate))) {
        const { root, text } = await written(`A <emph render="&${name};">title</emph> &amp; &${name};`, ead3);
        expect(text).not.toMatch(/function|native code/);
        expect(children(root, "emph")[0]?.attributes).toEqual({ render: `&${name};` });
      }
    });
  }

  it("writes attributes named after built-ins as attributes, without touching any prototype", async () => {
    const attributes = BUILT_INS.map((name, i) => `${name}="v${i}"`).join(" ");
    const { root, text } = await written(`<emph ${attributes} render="bold">x</emph>`);
    expect(text).not.toMatch(/function|native code|\[object Object\]/);
    // As written (the test's XML reader keeps attributes in an ordinary object, which would hide __proto__).
    expect(text).toContain(`<emph ${attributes} render="bold">x</emph>`);
    expect(children(root, "emph")).toHaveLength(1);
  });
});
