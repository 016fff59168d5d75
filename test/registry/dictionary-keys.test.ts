// A lint rule: no string from outside may become a key of an ordinary object,
// whose prototype answers `constructor`, `toString` and `__proto__`. The source is scanned for
// the shapes that go wrong with such a key, and each must use a Map, a dictionary
// (src/registry/dictionary.ts), Object.hasOwn, or say on the line (or the line above) with
// `// keys: <why>` that its keys are the service's own. A sixth rule looks at constant lookup
// tables (`AGENT_ELEMENTS[element.name]`): read with a string from a file or a request, an
// ordinary table answers Object.prototype's members, so it must be declared as a
// `lookupTable(...)` (null prototype, frozen) where it is defined, or be an array (strict
// TypeScript indexes arrays by number only), or the lookup is excused.
import { describe, expect, it } from "@jest/globals";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { appendTo, dictionary, lookupTable } from "../../src/registry/dictionary.js";

const RULES: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: "an empty object literal typed as a string-keyed record", pattern: /Record<string,[^;=]*>\s*=\s*\{\}/ },
  { name: "an empty object literal cast to a string-keyed record", pattern: /\{\}\s*as\s*Record</ },
  { name: "a default assigned through an index (`x[key] ??=`)", pattern: /\]\s*\?\?=/ },
  // A string literal on the left is a key the code itself names, not one from outside; `[K in keyof T]` (a capital
  // type parameter) is a mapped type, not a test at run time.
  {
    name: "membership by `in` (finds inherited keys; use Object.hasOwn or a Map)",
    pattern: /(?<!""|\bfor \((?:const|let|var) [\w$]+|\[[A-Z][\w$]*) in [\w$]/,
  },
  { name: "Object.assign (assigns `__proto__` as a prototype)", pattern: /\bObject\.assign\(/ },
];

const TABLE_RULE = "a constant table indexed with a non-literal, not declared as lookupTable(...) or an array";
/** `NAME[` followed by something other than a number, a string literal or `]` (an array type). */
const TABLE_LOOKUP = /\b([A-Z][A-Z0-9_]{2,})\[(?!\d|""|\])/g;
/** How a table may be declared to be read with any key: no prototype, or an array. */
const SAFE_INITIALIZER = /^(?:lookupTable\(|\[|Array\.from\(|new \w*Array\()/;

/** Finds where a name is declared: the initializer's text, from this file or through its relative imports. */
export type DeclarationFinder = (name: string) => string | undefined;

/** The initializer of `const NAME ... =` in the text (skipping `=>` in a type annotation). */
function initializerIn(text: string, name: string): string | undefined {
  const match = new RegExp(String.raw`\b(?:const|let|var)\s+${name}\b(?:[^=;]|=>)*=(?!>)\s*(\S[^\n]*)`).exec(text);
  return match?.[1];
}

/** A declaration finder over files read from disk, following `import { NAME } from "./x.js"` and re-exports. */
function declarationsFor(file: string, read: (path: string) => string | undefined, depth = 0): DeclarationFinder {
  return (name) => {
    const text = read(file);
    if (text === undefined || depth > 5) return undefined;
    const own = initializerIn(text, name);
    if (own !== undefined) return own;
    const imports = /\b(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"(\.{1,2}\/[^"]+)"/g;
    for (const [, names, from] of text.matchAll(imports)) {
      for (const binding of (names ?? "").split(",")) {
        const [original, local] = binding.trim().split(/\s+as\s+/);
        if ((local ?? original) !== name || original === undefined) continue;
        const target = join(dirname(file), (from ?? "").replace(/\.js$/, ".ts"));
        return declarationsFor(target, read, depth + 1)(original);
      }
    }
    return undefined;
  };
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

/** The line without comments and without the insides of string literals (whose words are not code). */
function codeOf(line: string): string {
  if (/^\s*(\/\/|\*|\/\*)/.test(line)) return "";
  return line.replace(/\/\/.*$/, "").replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
}

export function findings(
  text: string,
  declarationOf: DeclarationFinder = (name) => initializerIn(text, name),
): Array<{ line: number; rule: string }> {
  const lines = text.split("\n");
  const found: Array<{ line: number; rule: string }> = [];
  lines.forEach((line, i) => {
    const code = codeOf(line);
    const excused = /\/\/ keys: \S/.test(line) || /\/\/ keys: \S/.test(lines[i - 1] ?? "");
    if (excused) return;
    for (const rule of RULES) if (rule.pattern.test(code)) found.push({ line: i + 1, rule: rule.name });
    for (const [, table] of code.matchAll(TABLE_LOOKUP)) {
      if (!SAFE_INITIALIZER.test(declarationOf(table as string) ?? "")) {
        found.push({ line: i + 1, rule: `${TABLE_RULE}: ${table}` });
        break;
      }
    }
  });
  return found;
}

describe("the lint rule", () => {
  it("finds each shape, and takes an excuse on the line or the line above", () => {
    expect(findings("const errors: Record<string, string[]> = {};").map((f) => f.rule)).toHaveLength(1);
    expect(findings("(errors[path] ??= []).push(message);")).toHaveLength(1);
    expect(findings("if (name in attributes) skip();")).toHaveLength(1);
    expect(findings("Object.assign(target, input);")).toHaveLength(1);
    expect(findings("for (const key in value) count++;")).toHaveLength(0);
    expect(findings('throw new Error("not in the store");')).toHaveLength(0);
    expect(findings('if ("$match" in stage) plan();')).toHaveLength(0);
    expect(findings("type Draft<T> = { [K in keyof T]?: T[K] };")).toHaveLength(0);
    expect(findings("const found = [key in table];")).toHaveLength(1);
    expect(findings("// keys: fixed option names\nconst options: Record<string, boolean> = {};")).toHaveLength(0);
  });

  it("finds a constant table read with a non-literal key unless it has no prototype or is an array", () => {
    const plain = 'const AGENT_ELEMENTS: Record<string, string> = { persname: "agent_person" };\n';
    expect(findings(`${plain}const type = AGENT_ELEMENTS[element.name];`)).toEqual([
      { line: 2, rule: `${TABLE_RULE}: AGENT_ELEMENTS` },
    ]);
    expect(findings(`${plain}const type = AGENT_ELEMENTS["persname"];`)).toHaveLength(0);
    expect(findings(`${plain}// keys: the code's own union\nconst type = AGENT_ELEMENTS[kind];`)).toHaveLength(0);
    const arrow =
      "const OPERATORS: Readonly<Record<string, (value: unknown) => boolean>> = lookupTable({ $eq: () => true });\n";
    expect(findings(`${arrow}const check = OPERATORS[op];`)).toHaveLength(0);
    expect(findings("const DAYS_IN_MONTH = [31, 29, 31];\nconst days = DAYS_IN_MONTH[month - 1];")).toHaveLength(0);
    expect(
      findings("const INDEX_NAMES = Array.from({ length: 4 }, String);\nconst name = INDEX_NAMES[i];"),
    ).toHaveLength(0);
    expect(findings("const type = IMPORTED_TABLE[name];")).toHaveLength(1);
    expect(findings("const list: FIELD_NAMES[] = [];")).toHaveLength(0);
  });

  it("follows a table imported from another file to its declaration", () => {
    const files = new Map([
      ["src/a/use.ts", 'import { TABLE_A, PLAIN_B as LOCAL_B } from "../b/tables.js";\nTABLE_A[key];\nLOCAL_B[key];'],
      [
        "src/b/tables.ts",
        "export const TABLE_A = lookupTable({ x: 1 });\nexport const PLAIN_B: Record<string, number> = { x: 1 };",
      ],
    ]);
    const found = findings(
      files.get("src/a/use.ts") as string,
      declarationsFor("src/a/use.ts", (path) => files.get(path)),
    );
    expect(found).toEqual([{ line: 3, rule: `${TABLE_RULE}: LOCAL_B` }]);
  });

  it("holds for every file of src/", () => {
    const offending: string[] = [];
    for (const file of sourceFiles("src")) {
      const found = findings(readFileSync(file, "utf8"), declarationsFor(file, readSource));
      for (const { line, rule } of found) offending.push(`${file}:${line}: ${rule}`);
    }
    expect(offending).toEqual([]);
  });
});

function readSource(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

describe("dictionary", () => {
  it("treats built-in names as ordinary keys", () => {
    const errors = dictionary<string[]>();
    for (const key of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      expect(errors[key]).toBeUndefined();
      appendTo(errors, key, "a");
      appendTo(errors, key, "b");
    }
    expect(JSON.parse(JSON.stringify(errors))).toEqual(
      JSON.parse('{"constructor":["a","b"],"toString":["a","b"],"__proto__":["a","b"],"hasOwnProperty":["a","b"]}'),
    );
    expect(({} as Record<string, unknown>).a).toBeUndefined();
  });

  it("appends to an ordinary object without touching its prototype", () => {
    const plain: Record<string, string[]> = JSON.parse("{}") as Record<string, string[]>;
    appendTo(plain, "__proto__", "x");
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(Object.hasOwn(plain, "__proto__")).toBe(true);
  });
});

describe("lookupTable", () => {
  it("answers undefined for built-in names and cannot be changed", () => {
    const table: Readonly<Record<string, string>> = lookupTable({ persname: "agent_person" });
    for (const key of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"])
      expect(table[key]).toBeUndefined();
    expect(table.persname).toBe("agent_person");
    expect(Object.isFrozen(table)).toBe(true);
    expect(JSON.stringify(table)).toBe('{"persname":"agent_person"}');
  });
});
