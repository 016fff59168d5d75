// No import cycles in src/: between files, and between sibling folders, each standing for all it
// holds (`records/operations/` and `records/trees/` may not use each other both ways, nor
// `enumerations/` and `records/`; a folder and what it holds may: `importers/` uses
// `importers/ead/`, which uses `importers/pending.ts`). Counted: every import and re-export,
// `import type` included: a cycle through types alone still ties two modules' designs together.
import { describe, expect, it } from "@jest/globals";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** `import … from "./x.js"` and `export … from "./x.js"`, type-only ones included, as files of src/. */
export function localImports(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?"(\.[^"]+)"/gm)) {
    found.push(resolve(dirname(file), (match[1] as string).replace(/\.js$/, ".ts")));
  }
  return found;
}

/** The strongly connected parts of a graph with more than one member (Tarjan). */
function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      part.push(member);
    } while (member !== node);
    if (part.length > 1) found.push(part.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The folder path of a file of src/ ("" for src/ itself). */
const folderOf = (file: string) => (dirname(file) === "." ? "" : dirname(file));

/**
 * The folder graphs: for each folder, its child folders as nodes, each standing for all it
 * holds, subfolders included, and an edge where a file under one imports a file under another.
 */
function folderGraphs(files: ReadonlyMap<string, ReadonlySet<string>>): Map<string, Map<string, Set<string>>> {
  const byParent = new Map<string, Map<string, Set<string>>>();
  for (const [file, targets] of files) {
    const from = folderOf(file).split(sep).filter(Boolean);
    for (const target of targets) {
      const to = folderOf(target).split(sep).filter(Boolean);
      // Where the two paths part: below their common folder, the children they sit under.
      let common = 0;
      while (common < from.length && common < to.length && from[common] === to[common]) common++;
      if (common >= from.length || common >= to.length) continue; // one holds the other
      const parent = from.slice(0, common).join(sep);
      const graph = byParent.get(parent) ?? new Map<string, Set<string>>();
      byParent.set(parent, graph);
      const node = from[common] as string;
      if (!graph.has(node)) graph.set(node, new Set());
      graph.get(node)!.add(to[common] as string);
    }
  }
  return byParent;
}

function graphs(): { files: Map<string, Set<string>>; folders: string[][] } {
  const files = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC))
    files.set(
      relative(SRC, file),
      new Set(localImports(file, readFileSync(file, "utf8")).map((target) => relative(SRC, target))),
    );
  const folders = [...folderGraphs(files)].flatMap(([parent, graph]) =>
    cycles(graph).map((part) => part.map((child) => join(parent, child))),
  );
  return { files, folders };
}

describe("import cycles in src/", () => {
  it("reads every local import and re-export, type-only ones included, and no package", () => {
    const text =
      'import type { A } from "./a.js";\nimport { B } from "./b.js";\nexport { C } from "./c.js";\nexport type { D } from "./d.js";\nimport "./e.js";\nimport { F } from "mongodb";\n';
    expect(localImports("/x/f.ts", text)).toEqual(["/x/a.ts", "/x/b.ts", "/x/c.ts", "/x/d.ts", "/x/e.ts"]);
  });

  it("finds a cycle when there is one", () => {
    const graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    expect(cycles(graph)).toEqual([["a", "b", "c"]]);
  });

  it("has none between files", () => {
    expect(cycles(graphs().files)).toEqual([]);
  });

  it("has none between folders, each folder standing for everything under it", () => {
    expect(graphs().folders).toEqual([]);
  });
});
