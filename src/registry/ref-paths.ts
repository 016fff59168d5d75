// Finds the links of a record type: every schema node that carries x-ref-targets holds a
// `{ref, ...}` object. The result tells the service where links are, what they may point at and
// what happens to them when their target is deleted, without it knowing any type by name.
import { SchemaDefinitionError } from "./errors.js";
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";
import type { OnTargetDelete, OnTargetTransfer, OnTransfer } from "./manifest.js";
import { resolveLocalRef } from "./schema-walk.js";

export interface RefPath {
  // Slash path of the ref string, `*` standing for any list index: "related_accessions/*/ref".
  readonly path: string;
  readonly segments: readonly string[];
  /** The same as a MongoDB dotted path (arrays match implicitly): `related_accessions.ref`. */
  readonly mongoPath: string;
  /** Record types the link may point at. */
  readonly targets: readonly string[];
  /** What deleting the target does to this record (x-on-target-delete). */
  readonly onTargetDelete: OnTargetDelete;
  // What "remove" takes away: the innermost list item holding the link ("related_accessions/*";
  // "instances/*" for "instances/*/digital_object/ref"), or the link property when no list holds it.
  readonly removeAt: string;
  /**
   * What a repository transfer of the record holding the link does to its target (x-on-transfer): "move", the target
   * moves too when nothing else links to it, else the transfer is refused; "move-or-copy", else the link names a
   * copy of the target made in the new repository. Absent: a link to a record left behind is removed.
   */
  readonly onTransfer?: OnTransfer;
  /**
   * What a transfer of the target does to the record holding the link (x-on-target-transfer): "split", the holder
   * moves too when all its links at this path name moving records, else a copy of it holding only those links is
   * made in the new repository and the original keeps the others. Absent: the link is removed (or rewritten, when
   * the holder is global or moves too).
   */
  readonly onTargetTransfer?: OnTargetTransfer;
}

const ON_DELETE: readonly OnTargetDelete[] = ["remove", "cascade", "restrict"];
const ON_TRANSFER: readonly OnTransfer[] = ["move", "move-or-copy"];
const ON_TARGET_TRANSFER: readonly OnTargetTransfer[] = ["split"];

/** A transfer keyword's value, checked against its allowed values (ajv checked its shape already). */
function transferRule<T extends string>(node: JsonObject, keyword: string, allowed: readonly T[], where: string) {
  const value = node[keyword];
  if (value === undefined) return undefined;
  const known = allowed.find((rule) => rule === value);
  if (known === undefined) throw new SchemaDefinitionError(where, `${keyword} must be one of ${allowed.join(", ")}`);
  return known;
}
const COMBINATORS = ["allOf", "anyOf", "oneOf", "if", "then", "else"] as const;

function refPathOf(segments: string[], targets: string[], onTargetDelete: OnTargetDelete, plain: boolean): RefPath {
  const lastList = segments.lastIndexOf("*");
  // A `{ref}` link outside a list goes with the property holding it; a plain uri string is that property.
  const removeAt = lastList >= 0 ? segments.slice(0, lastList + 1) : plain ? segments : segments.slice(0, -1);
  return {
    path: segments.join("/"),
    segments,
    mongoPath: segments.filter((segment) => segment !== "*").join("."),
    targets,
    onTargetDelete,
    removeAt: removeAt.join("/"),
  };
}

/** Every link field of a bundled record schema. `source` names the type in error messages. */
export function findRefPaths(root: JsonObject, source: string): RefPath[] {
  const found = new Map<string, RefPath>();
  const onStack = new Set<JsonObject>();

  const visit = (node: JsonObject, segments: string[]): void => {
    // Server-maintained subtrees (readOnly) hold no client links.
    if (onStack.has(node) || node.readOnly === true) return;
    onStack.add(node);
    const targets = node["x-ref-targets"];
    if (targets !== undefined) {
      const rule = node["x-on-target-delete"];
      const where = `${source}: ${segments.join("/") || "#"}`;
      if (!Array.isArray(targets) || !targets.every((t): t is string => typeof t === "string")) {
        throw new SchemaDefinitionError(where, "x-ref-targets must be a list of record type names");
      }
      if (typeof rule !== "string" || !ON_DELETE.some((known) => known === rule)) {
        throw new SchemaDefinitionError(
          where,
          'x-ref-targets needs x-on-target-delete: "remove", "cascade" or "restrict"',
        );
      }
      // On a `{ref}` object the uri is its `ref`; on a string property (ArchivesSpace writes some
      // links that way, e.g. a subject's vocabulary) the value itself is the uri.
      const plain = node.type === "string";
      const onTransfer = transferRule(node, "x-on-transfer", ON_TRANSFER, where);
      const onTargetTransfer = transferRule(node, "x-on-target-transfer", ON_TARGET_TRANSFER, where);
      const refPath = {
        ...refPathOf(plain ? segments : [...segments, "ref"], targets, rule as OnTargetDelete, plain),
        ...(onTransfer === undefined ? {} : { onTransfer }),
        ...(onTargetTransfer === undefined ? {} : { onTargetTransfer }),
      };
      const previous = found.get(refPath.path);
      if (previous !== undefined && previous.onTargetDelete !== rule) {
        throw new SchemaDefinitionError(
          where,
          "the same link is declared twice with different x-on-target-delete rules",
        );
      }
      // The variants of a union may link to different types at one path (a relationship's `ref`: a
      // parent-child one to people, a subordinate-superior one to corporate entities): the path
      // may point at any of them. Which variant allows which is the validator's check (x-ref-targets).
      const merged = previous === undefined ? targets : [...new Set([...previous.targets, ...targets])];
      found.set(refPath.path, { ...refPath, targets: merged });
    }
    if (typeof node.$ref === "string") {
      const target = resolveLocalRef(root, node.$ref);
      if (target !== undefined) visit(target, segments);
    }
    if (isJsonObject(node.properties)) {
      for (const [name, sub] of Object.entries(node.properties)) if (isJsonObject(sub)) visit(sub, [...segments, name]);
    }
    if (isJsonObject(node.items)) visit(node.items, [...segments, "*"]);
    for (const keyword of COMBINATORS) {
      const value = node[keyword];
      if (isJsonObject(value)) visit(value, segments);
      if (Array.isArray(value)) for (const sub of value) if (isJsonObject(sub)) visit(sub, segments);
    }
    onStack.delete(node);
  };

  visit(root, []);
  return [...found.values()];
}

export interface FoundLink {
  /** Slash path of the ref string in the record, e.g. `related_accessions/1/ref`. */
  path: string;
  uri: string;
}

/** Every ref string at a ref path (`*` walks every element of a list). */
export function linksAt(record: JsonValue, refPath: RefPath): FoundLink[] {
  const found: FoundLink[] = [];
  collectLinks(record, refPath.segments, 0, [], found);
  return found;
}

/**
 * The links below `value` at `segments[depth..]`. `at` holds the list positions the walk went through, one per `*`
 * so far: a link's path is only spelled out when one is found (every record written is walked once per ref path of
 * its type, and most paths lead nowhere).
 */
function collectLinks(
  value: JsonValue | undefined,
  segments: readonly string[],
  depth: number,
  at: number[],
  found: FoundLink[],
): void {
  if (value === undefined || value === null) return;
  if (depth === segments.length) {
    if (typeof value === "string") found.push({ path: spelled(segments, at), uri: value });
    return;
  }
  const segment = segments[depth] as string;
  if (segment === "*") {
    if (!Array.isArray(value)) return;
    for (let i = 0; i < value.length; i++) {
      at.push(i);
      collectLinks(value[i], segments, depth + 1, at, found);
      at.pop();
    }
  } else if (typeof value === "object" && !Array.isArray(value)) {
    collectLinks((value as JsonObject)[segment], segments, depth + 1, at, found);
  }
}

/** A ref path with its `*`s replaced by the list positions `at`, e.g. `linked_agents/1/ref`. */
function spelled(segments: readonly string[], at: readonly number[]): string {
  let star = 0;
  return segments.map((segment) => (segment === "*" ? String(at[star++]) : segment)).join("/");
}
