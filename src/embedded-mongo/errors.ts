// A command failure as MongoDB reports it: `ok: 0` with a numeric code, its name and a
// message. Codes follow the server's error_codes.yml so that drivers (retry logic,
// duplicate-key handling, transaction labels) react exactly as they would to MongoDB.
import type { Document } from "bson";

export const ErrorCodes = {
  InternalError: 1,
  BadValue: 2,
  FailedToParse: 9,
  TypeMismatch: 14,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  CursorNotFound: 43,
  NamespaceExists: 48,
  CommandNotFound: 59,
  ImmutableField: 66,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  OperationNotSupportedInTransaction: 263,
  WriteConflict: 112,
  NoSuchTransaction: 251,
  TransactionTooOld: 225,
  CannotCreateIndex: 67,
  Location40324: 40324,
  DuplicateKey: 11000,
  BSONObjectTooLarge: 10334,
  CannotIndexParallelArrays: 171,
  NotImplemented: 238,
  InvalidPipelineOperator: 168,
  Unauthorized: 13,
  ConflictingUpdateOperators: 40,
  DollarPrefixedFieldName: 52,
  DocumentTooLarge: 17419,
} as const;

const codeNames: Record<number, string> = Object.fromEntries(
  Object.entries(ErrorCodes).map(([name, code]) => [code, name]),
);

export class CommandError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** Extra reply fields, e.g. keyPattern/keyValue on a duplicate key. */
    readonly extra: Document = {},
    readonly labels: string[] = [],
  ) {
    super(message);
  }

  get codeName(): string {
    // MongoDB names its numbered assertion codes "Location<code>".
    return codeNames[this.code] ?? `Location${this.code}`;
  }

  toReply(): Document {
    const reply: Document = { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
    if (this.labels.length > 0) reply.errorLabels = this.labels;
    return reply;
  }

  /** The shape of one entry of `writeErrors` in an insert/update/delete reply. */
  toWriteError(index: number): Document {
    return { index, code: this.code, codeName: this.codeName, errmsg: this.message, ...this.extra };
  }
}

export const badValue = (message: string): CommandError => new CommandError(ErrorCodes.BadValue, message);
export const failedToParse = (message: string): CommandError => new CommandError(ErrorCodes.FailedToParse, message);
export const typeMismatch = (message: string): CommandError => new CommandError(ErrorCodes.TypeMismatch, message);
