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

export function assertSafeKeys(value: unknown): void {
  const errors = fieldErrors();
  const stack: Array<[unknown, string]> = [[value, ""]];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    for (const key of Object.keys(current)) {
      const here = path ? `${path}/${key}` : key;
      const issue = Array.isArray(current) ? undefined : problem(key);
      if (issue) addFieldError(errors, here, issue);
      else stack.push([(current as Record<string, unknown>)[key], here]);
    }
  }
  if (Object.keys(errors).length > 0) throw badRequest(errors);
}
