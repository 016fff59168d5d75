// x-computed: a read-only top-level property the server produces on every read, as ArchivesSpace produces
// display_string, an agent's title, an archival object's ancestors or a record's linked_events. The schema names a
// rule and its arguments; src/records/computed/ carries the rules out. None of them names a record type: each says
// where to look (a path in the record, the links of other types into it, its tree).
//
// Rules read from the record alone (shape.ts applies them wherever a record is shown):
//   {"pick": {"path": "names", "prefer": ["is_display_name", "authorized"]}}
//                                    the first item whose flag is true, trying each flag in turn; else the first item
//   {"copy": "display_name/sort_name"}                         the value at a path (other computed fields count);
//   {"copy": {"path": "suppressed", "default": false}}          or `default` where there is none (a server-kept flag)
//   {"format": {...}}                a display string built from the record's fields (computed/display-format.ts)
//   {"ref": {...}}                   a link {ref} whose uri is such a string (a resource's tree: {"ref": ".../tree"})
//   {"present": "active_restrictions"}                         whether the list at a path has an item
// Rules that read other records (read and list pages apply them, a batch of records at a time):
//   {"incoming": {"via": "linked_records"}}    [{ref}] of every record whose `via` list links here; with
//        `"to": "root"` a tree node stands for its tree's root (an archival object for its resource), with
//        `"to": "top"` for its top-level node; `"where": {"level": ["series"]}` keeps records holding one of those
//        values; `"show": {"identifier": <format>}` adds fields built from each record as display-format.ts builds
//        them (each record once, in id order within its type)
//   {"uses": {"via": "linked_agents", "yield": "roles"}}
//                    over the records whose `via` list links here: the distinct `role`s of those links ("roles"),
//                    the uris of the repositories they are in ("used_within"; "used_within_published": those whose
//                    repository is published), whether any is published ("published"); `"keep": [...]` keeps
//                    only those roles, in that order
//   {"restrictions": {"via": "instances", "notes": "notes", "types": ["userestrict"], "holder": "rights_restriction"}}
//                    the restrictions in force today of the records whose `via` list links here, their ancestors and
//                    root: each note of those types holding a `holder` object dated around today (or not dated but
//                    typed), shown with linked_records {ref} and restriction_note_type (a top container's
//                    active_restrictions)
//   {"ancestors": {"fields": ["level"]}}       [{ref, level}] from the parent up to the tree's root (x-tree);
//        `"from_root": true` the other way round, `"self": true` the record itself last, `"ref": false` without
//        refs (a classification term's path_from_root: [{title, identifier}] from the classification down)
//   {"ancestors": {"unless": {"publish": true}}}
//                    whether some ancestor (the root included) fails to hold those values (a list: any of them,
//                    null standing for absent): an archival object's has_unpublished_ancestor
import { SchemaDefinitionError } from "./errors.js";
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";

export type UseYield = "roles" | "used_within" | "used_within_published" | "published";

export type ComputedRule =
  | { readonly kind: "pick"; readonly path: readonly string[]; readonly prefer: readonly string[] }
  | { readonly kind: "copy"; readonly path: readonly string[]; readonly default: JsonValue | null }
  | { readonly kind: "format"; readonly format: JsonObject }
  | { readonly kind: "ref"; readonly format: JsonObject }
  | { readonly kind: "present"; readonly path: readonly string[] }
  | {
      readonly kind: "restrictions";
      readonly via: string;
      readonly notes: string;
      readonly types: readonly string[];
      readonly holder: string;
    }
  | {
      readonly kind: "incoming";
      readonly via: string;
      readonly to: "self" | "root" | "top";
      readonly where: JsonObject | null;
      readonly show: JsonObject | null;
    }
  | { readonly kind: "uses"; readonly via: string; readonly yield: UseYield; readonly keep: readonly string[] | null }
  | {
      readonly kind: "ancestors";
      readonly fields: readonly string[];
      readonly unless: JsonObject | null;
      readonly fromRoot: boolean;
      readonly self: boolean;
      readonly ref: boolean;
    };

export interface ComputedField {
  readonly field: string;
  readonly rule: ComputedRule;
}

/** Rules whose answer needs other records than the one shown. */
export const LINKED_RULES: ReadonlySet<ComputedRule["kind"]> = new Set([
  "incoming",
  "uses",
  "ancestors",
  "restrictions",
]);

const YIELDS: readonly UseYield[] = ["roles", "used_within", "used_within_published", "published"];

function path(value: JsonValue | undefined, fail: (detail: string) => never): string[] {
  if (typeof value !== "string" || value === "") fail("needs a slash path");
  return value.split("/");
}

function ruleOf(spec: JsonValue, fail: (detail: string) => never): ComputedRule {
  if (!isJsonObject(spec) || Object.keys(spec).length !== 1) fail("must be an object naming one rule");
  const [kind] = Object.keys(spec) as [string];
  const args = spec[kind];
  const arg = (name: string): JsonValue | undefined => (isJsonObject(args) ? args[name] : undefined);
  switch (kind) {
    case "pick": {
      const prefer = arg("prefer");
      if (!Array.isArray(prefer) || !prefer.every((flag) => typeof flag === "string"))
        fail("pick needs prefer: a list of flag properties");
      return { kind, path: path(arg("path"), fail), prefer: prefer as string[] };
    }
    case "present":
      return { kind, path: path(args, fail) };
    case "restrictions": {
      const [via, notes, holder, types] = [arg("via"), arg("notes"), arg("holder"), arg("types")];
      if (typeof via !== "string" || typeof notes !== "string" || typeof holder !== "string")
        fail("restrictions needs via, notes and holder: property names");
      if (!Array.isArray(types) || !types.every((type) => typeof type === "string"))
        fail("restrictions needs types: the note types that carry restrictions");
      return { kind, via, notes, holder, types: types as string[] };
    }
    case "copy":
      return isJsonObject(args)
        ? { kind, path: path(args.path, fail), default: args.default ?? null }
        : { kind, path: path(args, fail), default: null };
    case "format":
    case "ref":
      if (!isJsonObject(args)) fail(`${kind} needs a format object`);
      return { kind, format: args };
    case "incoming": {
      const via = arg("via");
      if (typeof via !== "string") fail("incoming needs via: the link list property of the referring records");
      const to = arg("to") ?? "self";
      if (to !== "self" && to !== "root" && to !== "top") fail('incoming: to must be "root" or "top"');
      const where = arg("where") ?? null;
      const show = arg("show") ?? null;
      if (where !== null && !isJsonObject(where)) fail("incoming: where must be an object of paths and values");
      if (show !== null && !isJsonObject(show)) fail("incoming: show must be an object of field names and formats");
      return { kind, via, to, where, show };
    }
    case "uses": {
      const via = arg("via");
      const wanted = arg("yield");
      if (typeof via !== "string") fail("uses needs via: the link list property of the referring records");
      const found = YIELDS.find((candidate) => candidate === wanted);
      if (found === undefined) fail(`uses needs yield: one of ${YIELDS.join(", ")}`);
      const keep = arg("keep") ?? null;
      if (keep !== null && (!Array.isArray(keep) || !keep.every((role) => typeof role === "string")))
        fail("uses: keep must be a list of roles");
      return { kind, via, yield: found, keep: keep as string[] | null };
    }
    case "ancestors": {
      const shape = { fromRoot: arg("from_root") === true, self: arg("self") === true, ref: arg("ref") !== false };
      const unless = arg("unless");
      if (isJsonObject(unless)) return { kind, fields: Object.keys(unless), unless, ...shape };
      const fields = arg("fields");
      if (!Array.isArray(fields) || !fields.every((field) => typeof field === "string"))
        fail("ancestors needs fields (shown beside each ancestor's ref) or unless (values every ancestor holds)");
      return { kind, fields: fields as string[], unless: null, ...shape };
    }
    default:
      return fail(`unknown rule "${kind}"`);
  }
}

/** The computed fields of a bundled record schema, in declaration order. */
export function computedFields(schema: JsonObject, source: string): ComputedField[] {
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const found: ComputedField[] = [];
  for (const [field, property] of Object.entries(properties)) {
    if (!isJsonObject(property) || property["x-computed"] === undefined) continue;
    const fail = (detail: string): never => {
      throw new SchemaDefinitionError(source, `x-computed on ${field}: ${detail}`);
    };
    if (property.readOnly !== true) fail("a computed field must be readOnly (clients cannot set it)");
    found.push({ field, rule: ruleOf(property["x-computed"], fail) });
  }
  return found;
}
