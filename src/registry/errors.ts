// Errors the registry raises. They are programming or configuration errors (an unknown type
// name in code, a malformed schema), never user input errors: validation reports those as data.

/** Code asked for a record type that no schema in record-types/ declares. */
export class UnknownRecordTypeError extends Error {
  constructor(readonly typeName: string) {
    super(`unknown record type "${typeName}"`);
    this.name = "UnknownRecordTypeError";
  }
}

/** A schema in record-types/ is malformed or contradicts another; `source` names the file or type. */
export class SchemaDefinitionError extends Error {
  constructor(
    readonly source: string,
    detail: string,
  ) {
    super(`${source}: ${detail}`);
    this.name = "SchemaDefinitionError";
  }
}

/**
 * The message of anything thrown. Errors from Node built-ins may come from another realm (jest's
 * VM modules), where `instanceof Error` is false, so this looks for a message property instead.
 */
export function messageOf(error: unknown): string {
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string")
    return error.message;
  return String(error);
}
