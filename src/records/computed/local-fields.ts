// Computed fields read from the record alone (x-computed pick, copy, format: registry/computed-fields.ts),
// produced wherever a record is shown (shape.ts), copies after the others, so a copy may read another rule's answer
// (an agent's title copies its display_name's sort_name). A field whose inputs are missing is left out, as
// any field without a value is.
import { LINKED_RULES, type ComputedField, type JsonValue, type RecordType } from "../../registry/index.js";
import { displayString } from "./display-format.js";
import { valueAt } from "./paths.js";

type Shown = Record<string, JsonValue>;

function computeLocal(field: ComputedField, record: Shown): JsonValue | undefined {
  const { rule } = field;
  switch (rule.kind) {
    case "pick": {
      const items = valueAt(record, rule.path);
      if (!Array.isArray(items) || items.length === 0) return undefined;
      for (const flag of rule.prefer) {
        const chosen = items.find(
          (item) => typeof item === "object" && item !== null && (item as Shown)[flag] === true,
        );
        if (chosen !== undefined) return chosen;
      }
      return items[0];
    }
    case "copy":
      return valueAt(record, rule.path) ?? rule.default ?? undefined;
    case "format":
      return displayString(rule.format, record);
    case "present": {
      const list = valueAt(record, rule.path);
      return Array.isArray(list) && list.length > 0;
    }
    case "ref": {
      const ref = displayString(rule.format, record);
      return ref === undefined ? undefined : { ref };
    }
    default:
      return undefined;
  }
}

type Computer = ((record: Shown) => void) | undefined;

/** Each type's local computer, worked out once: every read of the type runs it, a GET of a linked type twice. */
const computers = new WeakMap<RecordType, { computer: Computer }>();

/** The local computer of a type: fills its computed fields into a shown record, in place; undefined if none. */
export function localComputer(type: RecordType): Computer {
  let known = computers.get(type);
  if (known === undefined) computers.set(type, (known = { computer: buildComputer(type) }));
  return known.computer;
}

function buildComputer(type: RecordType): Computer {
  // Copies last: they read other computed fields, whichever schema (a type's own or a base it composes) declares them.
  const own = type.computed.filter(({ rule }) => !LINKED_RULES.has(rule.kind));
  const local = [...own.filter(({ rule }) => rule.kind !== "copy"), ...own.filter(({ rule }) => rule.kind === "copy")];
  if (local.length === 0) return undefined;
  return (record) => {
    for (const field of local) {
      const value = computeLocal(field, record);
      if (value === undefined) delete record[field.field];
      else record[field.field] = value;
    }
  };
}
