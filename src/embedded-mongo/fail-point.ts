// MongoDB's `failCommand` fail point, for tests that must see what a store failure half-way
// through an operation leaves behind: `{configureFailPoint: "failCommand", mode, data}` makes
// the next matching commands fail with `data.errorCode` (and `data.errorLabels`, such as
// TransientTransactionError, which makes a driver retry the transaction). Modes as MongoDB has them:
// "alwaysOn", "off", `{times: n}` (the next n matching commands) and `{skip: n}` (every one
// after the first n). The same test then runs unchanged against a real server started with
// `enableTestCommands=1`. Off unless the engine is opened with `testCommands`.
import type { Document } from "bson";
import { CommandError, ErrorCodes } from "./errors.js";

interface Armed {
  commands: ReadonlySet<string>;
  errorCode: number;
  labels: readonly string[];
  /** Matching commands still let through before failures start. */
  skip: number;
  /** Failures left; undefined: no end. */
  times: number | undefined;
}

const nonNegative = (value: unknown, what: string): number => {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
    throw new CommandError(ErrorCodes.BadValue, `failCommand: ${what} must be a non-negative integer`);
  return value;
};

export class FailPoint {
  private armed: Armed | undefined;

  /** The configureFailPoint command. */
  configure(command: Document): Document {
    if (command.configureFailPoint !== "failCommand")
      throw new CommandError(ErrorCodes.BadValue, `unknown fail point: ${String(command.configureFailPoint)}`);
    const mode: unknown = command.mode;
    if (mode === "off") {
      this.armed = undefined;
      return { count: 0, ok: 1 };
    }
    const data = (command.data ?? {}) as Document;
    if (!Array.isArray(data.failCommands) || !data.failCommands.every((name) => typeof name === "string"))
      throw new CommandError(ErrorCodes.BadValue, "failCommand: data.failCommands must list command names");
    const errorCode =
      data.errorCode === undefined ? ErrorCodes.InternalError : nonNegative(data.errorCode, "data.errorCode");
    const labels: unknown = data.errorLabels ?? [];
    if (!Array.isArray(labels) || !labels.every((label) => typeof label === "string"))
      throw new CommandError(ErrorCodes.BadValue, "failCommand: data.errorLabels must list labels");
    let skip = 0;
    let times: number | undefined;
    if (mode === "alwaysOn") times = undefined;
    else if (mode !== null && typeof mode === "object" && "times" in mode)
      times = nonNegative((mode as Document).times, "mode.times");
    else if (mode !== null && typeof mode === "object" && "skip" in mode)
      skip = nonNegative((mode as Document).skip, "mode.skip");
    else
      throw new CommandError(
        ErrorCodes.BadValue,
        'failCommand: mode must be "alwaysOn", "off", {times: n} or {skip: n}',
      );
    this.armed = { commands: new Set(data.failCommands as string[]), errorCode, labels, skip, times };
    return { count: 0, ok: 1 };
  }

  /** Throws the configured error when `name` is to fail now. */
  check(name: string): void {
    const armed = this.armed;
    if (armed === undefined || !armed.commands.has(name)) return;
    if (armed.skip > 0) {
      armed.skip--;
      return;
    }
    if (armed.times !== undefined) {
      if (armed.times === 0) return;
      armed.times--;
    }
    throw new CommandError(armed.errorCode, "Failing command via 'failCommand' failpoint", {}, [...armed.labels]);
  }
}
