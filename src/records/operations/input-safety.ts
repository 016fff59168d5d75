// No key in a record body may become a MongoDB operator, a dotted path or a prototype:
// `$`-prefixed keys, keys containing `.`, and __proto__/constructor/prototype are refused
// with 400 naming where they are, before anything else looks at the body.
import { badRequest } from "../../errors/api-error.js";
import { addFieldError, fieldErrors } from "../../registry/validation-errors.js";

const FORBIDDEN_NAMES = new Set(["__proto__", "constructor", "prototype"]);

function problem(key: string): string | undefined {
  if (key.startsWith("$")) return "Field names may not start with '$'";
  if (key.includes(".")) return "Field names may not contain '.'";
  if (FORBIDDEN_NAMES.has(key)) return `'${key}' is not allowed as a field name`;
  return undefined;
}

/** An object or list still to look into, with how it was reached (its path is only spelled out for a message). */
interface Holder {
  value: object;
  parent?: Holder;
  key?: string;
}

function pathOf(holder: Holder, key: string): string {
  const parts = [key];
  for (let at: Holder | undefined = holder; at?.key !== undefined; at = at.parent) parts.push(at.key);
  return parts.reverse().join("/");
}

export function assertSafeKeys(value: unknown): void {
  const errors = fieldErrors();
  if (value === null || typeof value !== "object") return;
  // Without recursion (a body may nest deep); only objects and lists are held, so a record's strings cost nothing.
  const stack: Holder[] = [{ value }];
  while (stack.length > 0) {
    const holder = stack.pop()!;
    const current = holder.value as Record<string, unknown>;
    const list = Array.isArray(current);
    for (const key of Object.keys(current)) {
      const issue = list ? undefined : problem(key);
      if (issue) addFieldError(errors, pathOf(holder, key), issue);
      else {
        const inner = current[key];
        if (inner !== null && typeof inner === "object") stack.push({ value: inner, parent: holder, key });
      }
    }
  }
  if (Object.keys(errors).length > 0) throw badRequest(errors);
}
