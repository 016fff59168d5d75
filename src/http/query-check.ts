// The query string obeys the same text rules as a body: every parameter name
// and value must decode to UTF-8 without NUL, or the request is a 400 naming the parameter.
// Checked on the raw request target, before express's parser turns a bad byte into U+FFFD.
import type { RequestHandler } from "express";
import { badRequest } from "../errors/api-error.js";
import { decodeComponent } from "./text-checks.js";

/** What is wrong with a raw query string, as `[parameter, problem]`; undefined when nothing is. */
export function queryProblem(rawQuery: string): [string, string] | undefined {
  for (const pair of rawQuery.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const name = decodeComponent(rawName, true);
    if ("problem" in name) return [rawName.replace(/[^\x20-\x7e]/g, "?"), `Parameter name: ${name.problem}`];
    if (equals === -1) continue;
    const value = decodeComponent(pair.slice(equals + 1), true);
    if ("problem" in value) return [name.text, value.problem];
  }
  return undefined;
}

export const queryCheck: RequestHandler = (req, _res, next) => {
  const url = req.originalUrl ?? req.url;
  const start = url.indexOf("?");
  if (start === -1) return next();
  const found = queryProblem(url.slice(start + 1));
  if (found === undefined) return next();
  const [name, problem] = found;
  next(badRequest({ [name]: [problem] }));
};
