// JSON as the fuzz test writes it: a tree whose objects are lists of entries, so a body can
// hold what a JS object cannot express safely or at all (a key `__proto__` as data, the same
// key twice), serialized by hand. Deep documents are serialized without recursion.
import fc from "fast-check";
import { hostileKey, hostileString, hugeString } from "./hostile.js";

export type JsonNode =
  | { t: "scalar"; value: null | boolean | number | string }
  | { t: "array"; items: JsonNode[] }
  | { t: "object"; entries: Array<[string, JsonNode]> }
  /** Text written as it is (numbers JSON.stringify cannot write, deep nests built as text). */
  | { t: "raw"; text: string };

export const scalar = (value: null | boolean | number | string): JsonNode => ({ t: "scalar", value });
export const object = (entries: Array<[string, JsonNode]>): JsonNode => ({ t: "object", entries });
export const array = (items: JsonNode[]): JsonNode => ({ t: "array", items });

export function serialize(node: JsonNode): string {
  const out: string[] = [];
  const stack: Array<JsonNode | string> = [node];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (typeof next === "string") {
      out.push(next);
      continue;
    }
    switch (next.t) {
      case "scalar":
        out.push(typeof next.value === "number" && !Number.isFinite(next.value) ? "1e999" : JSON.stringify(next.value));
        break;
      case "raw":
        out.push(next.text);
        break;
      case "array": {
        out.push("[");
        stack.push("]");
        for (let i = next.items.length - 1; i >= 0; i--) stack.push(next.items[i], i > 0 ? "," : "");
        break;
      }
      case "object": {
        out.push("{");
        stack.push("}");
        for (let i = next.entries.length - 1; i >= 0; i--)
          stack.push(next.entries[i][1], `${i > 0 ? "," : ""}${JSON.stringify(next.entries[i][0])}:`);
        break;
      }
    }
  }
  return out.join("");
}

/** Any JSON value, small, with hostile keys and strings now and then. */
export function randomJson(maxDepth = 3): fc.Arbitrary<JsonNode> {
  const leaf: fc.Arbitrary<JsonNode> = fc.oneof(
    fc.constant(scalar(null)),
    fc.boolean().map(scalar),
    fc.oneof(fc.integer(), fc.double(), fc.constantFrom(-0, 2 ** 53 + 2, 1e308, Number.MIN_VALUE)).map(scalar),
    hostileString().map(scalar),
  );
  const { node } = fc.letrec<{ node: JsonNode }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", maxDepth, withCrossShrink: true },
      leaf,
      fc.array(tie("node"), { maxLength: 4 }).map(array),
      fc
        .array(fc.tuple(fc.oneof(hostileKey(), fc.string({ maxLength: 8 })), tie("node")), { maxLength: 4 })
        .map(object),
    ),
  }));
  return node;
}

/** A `depth`-deep nest of arrays or objects, built as text (a tree that deep would be a stack hazard here too). */
export function deepNest(depth: number, kind: "array" | "object"): JsonNode {
  return kind === "array"
    ? { t: "raw", text: `${"[".repeat(depth)}${"]".repeat(depth)}` }
    : { t: "raw", text: `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}` };
}

export type Mutation =
  | { kind: "hostile-keys"; keys: Array<[string, JsonNode]>; at: number }
  | { kind: "wrong-type"; at: number; value: JsonNode }
  | { kind: "deep"; at: number; depth: number; nest: "array" | "object" }
  | { kind: "huge-array"; at: number; length: number }
  | { kind: "huge-string"; at: number; text: string }
  | { kind: "duplicate-key"; at: number }
  | { kind: "drop"; at: number };

export function mutation(): fc.Arbitrary<Mutation> {
  const at = fc.nat({ max: 1000 });
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant("hostile-keys" as const),
        keys: fc.array(fc.tuple(hostileKey(), randomJson(2)), { minLength: 1, maxLength: 3 }),
        at,
      }),
    },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant("wrong-type" as const), at, value: randomJson(2) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("deep" as const),
        at,
        depth: fc.constantFrom(63, 64, 65, 1_000, 100_000),
        nest: fc.constantFrom("array" as const, "object" as const),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant("huge-array" as const), at, length: fc.constantFrom(1_000, 100_000) }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("huge-string" as const), at, text: hugeString() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("duplicate-key" as const), at }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("drop" as const), at }) },
  );
}

/** Every object and array of a tree, outermost first (the target of a mutation is chosen among them). */
function containers(root: JsonNode): JsonNode[] {
  const found: JsonNode[] = [];
  const queue = [root];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i];
    if (node.t === "object") {
      found.push(node);
      for (const [, v] of node.entries) queue.push(v);
    } else if (node.t === "array") {
      found.push(node);
      for (const item of node.items) queue.push(item);
    }
  }
  return found;
}

function clone(node: JsonNode): JsonNode {
  switch (node.t) {
    case "array":
      return array(node.items.map(clone));
    case "object":
      return object(node.entries.map(([k, v]) => [k, clone(v)]));
    default:
      return node;
  }
}

/** Applies mutations to a copy of the tree (the original may be shared by fast-check's shrinker). */
export function mutate(root: JsonNode, mutations: Mutation[]): JsonNode {
  const copy = clone(root);
  for (const change of mutations) {
    const targets = containers(copy);
    if (targets.length === 0) continue;
    const target = targets[change.at % targets.length];
    const put = (value: JsonNode) => {
      if (target.t === "object") {
        if (target.entries.length === 0) target.entries.push(["x", value]);
        else target.entries[change.at % target.entries.length][1] = value;
      } else if (target.t === "array") {
        if (target.items.length === 0) target.items.push(value);
        else target.items[change.at % target.items.length] = value;
      }
    };
    switch (change.kind) {
      case "hostile-keys":
        if (target.t === "object") target.entries.push(...change.keys);
        else if (target.t === "array") target.items.push(object(change.keys));
        break;
      case "wrong-type":
        put(change.value);
        break;
      case "deep":
        put(deepNest(change.depth, change.nest));
        break;
      case "huge-array":
        put(array(Array.from({ length: change.length }, (_, i) => scalar(i))));
        break;
      case "huge-string":
        put(scalar(change.text));
        break;
      case "duplicate-key":
        if (target.t === "object" && target.entries.length > 0) {
          const [key] = target.entries[change.at % target.entries.length];
          target.entries.push([key, scalar("duplicate")]);
        }
        break;
      case "drop":
        if (target.t === "object" && target.entries.length > 0)
          target.entries.splice(change.at % target.entries.length, 1);
        else if (target.t === "array" && target.items.length > 0)
          target.items.splice(change.at % target.items.length, 1);
        break;
    }
  }
  return copy;
}
