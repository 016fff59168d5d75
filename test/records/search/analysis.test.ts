// Indexing and querying cut text with these functions: what they return is what can be found.
import { describe, expect, it } from "@jest/globals";
import { ANALYZE_MAX_LENGTH, analyze, fold, stem, wholeTokens, words } from "../../../src/records/search/analysis.js";

describe("fold", () => {
  it("lowercases and removes diacritics", () => {
    expect(fold("Émile ZOLA")).toBe("emile zola");
    expect(fold("Åsa Núñez çà")).toBe("asa nunez ca");
    expect(fold("Dvořák Łódź")).toBe("dvorak lodz");
  });

  it("folds the letters Unicode does not decompose", () => {
    expect(fold("Straße ẞ")).toBe("strasse ss");
    expect(fold("Æsir Œuvre København Łukasz Đorđe Þór Ðe")).toBe("aesir oeuvre kobenhavn lukasz dorde thor de");
  });

  it("decomposes compatibility forms and folds decomposed input", () => {
    expect(fold("ﬁle ²")).toBe("file 2");
    expect(fold("e\u0301te\u0301")).toBe("ete");
    expect(fold("İstanbul ℌ")).toBe("istanbul h");
  });
});

describe("stem", () => {
  it("stems the words catalogue searches rely on", () => {
    const cases: Record<string, string> = {
      papers: "paper",
      photographs: "photograph",
      photography: "photographi",
      correspondence: "correspond",
      running: "run",
      libraries: "librari",
      ponies: "poni",
      caresses: "caress",
      generalizations: "general",
    };
    for (const [word, expected] of Object.entries(cases)) expect([word, stem(word)]).toEqual([word, expected]);
  });

  it("matches Snowball's published English sample", () => {
    const cases: Record<string, string> = {
      consign: "consign",
      consigned: "consign",
      consigning: "consign",
      consignment: "consign",
      consistency: "consist",
      consistently: "consist",
      consolation: "consol",
      consolatory: "consolatori",
      consolidated: "consolid",
      consolingly: "consol",
      conspicuously: "conspicu",
      conspiracy: "conspiraci",
      conspirators: "conspir",
      constables: "constabl",
      constance: "constanc",
      knackeries: "knackeri",
      knaves: "knave",
      kneeled: "kneel",
      knightly: "knight",
      knitting: "knit",
      knives: "knive",
      knocker: "knocker",
    };
    for (const [word, expected] of Object.entries(cases)) expect([word, stem(word)]).toEqual([word, expected]);
  });

  it("applies each step's rules", () => {
    const cases: Record<string, string> = {
      ties: "tie",
      cries: "cri",
      gas: "gas",
      gaps: "gap",
      kiwis: "kiwi",
      feed: "feed",
      agreed: "agre",
      hoping: "hope",
      hopping: "hop",
      luxuriating: "luxuri",
      cry: "cri",
      say: "say",
      relational: "relat",
      abilities: "abil",
      happy: "happi",
      yellow: "yellow",
      controllable: "control",
      archives: "archiv",
      manuscripts: "manuscript",
      collections: "collect",
    };
    for (const [word, expected] of Object.entries(cases)) expect([word, stem(word)]).toEqual([word, expected]);
  });

  it("answers Porter2's exceptional words directly", () => {
    expect(["skies", "dying", "news", "only", "inning", "proceed", "exceed"].map(stem)).toEqual([
      "sky",
      "die",
      "news",
      "onli",
      "inning",
      "proceed",
      "exceed",
    ]);
  });

  it("leaves short words, words with digits and other scripts as they are", () => {
    expect(["is", "a", "", "1990s", "mss060", "λόγος", "страницы"].map(stem)).toEqual([
      "is",
      "a",
      "",
      "1990s",
      "mss060",
      "λόγος",
      "страницы",
    ]);
  });
});

describe("words", () => {
  it("splits on anything but letters and digits, folded, in order", () => {
    expect(words("The Smith-Jones Papers, 1890–1920 (MSS-060)")).toEqual([
      "the",
      "smith",
      "jones",
      "papers",
      "1890",
      "1920",
      "mss",
      "060",
    ]);
    expect(words("  ...  ")).toEqual([]);
    expect(words("")).toEqual([]);
  });

  it("keeps letters of every script", () => {
    expect(words("Москва 東京 café")).toEqual(["москва", "東京", "cafe"]);
  });

  it("joins words at inner apostrophes", () => {
    expect(words("O'Brien's children’s 'quoted' rock'n'roll")).toEqual(["obriens", "childrens", "quoted", "rocknroll"]);
  });
});

describe("wholeTokens", () => {
  it("keeps runs with inner punctuation whole, trimmed and folded", () => {
    expect(wholeTokens("Box (MSS-060), item 1990.2.3; A/B and MS.0042.")).toEqual([
      "mss-060",
      "1990.2.3",
      "a/b",
      "ms.0042",
    ]);
  });

  it("gives nothing for runs without inner punctuation", () => {
    expect(wholeTokens("plain words, (quoted) -dash- ... children's")).toEqual([]);
    expect(wholeTokens("")).toEqual([]);
  });

  it("folds identifiers with diacritics", () => {
    expect(wholeTokens("Éé-12")).toEqual(["ee-12"]);
  });

  it("takes a long run of punctuation in linear time", () => {
    expect(wholeTokens(`${"-".repeat(200_000)}a`)).toEqual([]);
    expect(wholeTokens(`a${"-".repeat(200_000)}`)).toEqual([]);
  });
});

describe("analyze", () => {
  it("gives stemmed words and whole identifiers", () => {
    expect(analyze("Photographs of the MSS-060 Papers")).toEqual({
      terms: ["photograph", "of", "the", "mss", "060", "paper"],
      whole: ["mss-060"],
    });
  });

  it(`analyzes only the first ${ANALYZE_MAX_LENGTH} characters`, () => {
    const text = `${"a ".repeat(ANALYZE_MAX_LENGTH / 2 - 1)}b cut-off`;
    const { terms, whole } = analyze(text);
    expect(terms.length).toBe(ANALYZE_MAX_LENGTH / 2);
    expect(terms[terms.length - 1]).toBe("b");
    expect(whole).toEqual([]);
  });
});
