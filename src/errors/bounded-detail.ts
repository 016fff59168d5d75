// An error body is bounded whatever the error holds: a field-error map of
// 100,000 entries or a 20 MB message would otherwise be echoed whole. The shapes stay the
// contract's (§7): a string stays a string, a map of field to messages stays one; what was
// left out is said, in the text itself for a long string and in `error_truncated` for a map.

/** The longest message or field name echoed, in characters. */
export const MAX_ERROR_TEXT = 1000;
/** The most fields a field-error map echoes. */
export const MAX_ERROR_FIELDS = 100;
/** The most messages echoed for one field. */
export const MAX_ERROR_MESSAGES = 10;

export function boundedText(text: string): string {
  if (text.length <= MAX_ERROR_TEXT) return text;
  return `${text.slice(0, MAX_ERROR_TEXT)}… (${text.length - MAX_ERROR_TEXT} more characters left out)`;
}

export interface BoundedDetail {
  detail: unknown;
  /** What was left out of a map, for the body's `error_truncated`; undefined when nothing was. */
  truncated?: { fields_left_out: number; messages_left_out: number };
}

function messagesOf(value: unknown): unknown {
  if (typeof value === "string") return boundedText(value);
  return value;
}

/** A detail (a string, or a map of field to messages) no larger than the bounds above. */
export function boundedDetail(detail: unknown): BoundedDetail {
  if (typeof detail === "string") return { detail: boundedText(detail) };
  if (detail === null || typeof detail !== "object" || Array.isArray(detail)) return { detail };
  const entries: Iterable<[string, unknown]> =
    detail instanceof Map ? (detail as Map<string, unknown>).entries() : Object.entries(detail);
  const bounded = Object.create(null) as Record<string, unknown>;
  let fields = 0;
  let fieldsLeftOut = 0;
  let messagesLeftOut = 0;
  for (const [field, value] of entries) {
    if (fields >= MAX_ERROR_FIELDS) {
      fieldsLeftOut++;
      continue;
    }
    fields++;
    if (Array.isArray(value)) {
      messagesLeftOut += Math.max(0, value.length - MAX_ERROR_MESSAGES);
      bounded[boundedText(field)] = value.slice(0, MAX_ERROR_MESSAGES).map(messagesOf);
    } else {
      bounded[boundedText(field)] = messagesOf(value);
    }
  }
  if (fieldsLeftOut === 0 && messagesLeftOut === 0) return { detail: bounded };
  return { detail: bounded, truncated: { fields_left_out: fieldsLeftOut, messages_left_out: messagesLeftOut } };
}
