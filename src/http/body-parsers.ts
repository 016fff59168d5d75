// Request bodies as ArchivesSpace clients send them: JSON whatever the Content-Type says,
// including none (agentarchives sends none) and an empty body with a JSON Content-Type
// (the Ruby client's body-less POSTs), form bodies for scalar parameters, a size limit
// (413) and a nesting limit, so no body can exhaust the stack of whoever walks it later.
import express, { type RequestHandler } from "express";
import { ApiError, badRequest } from "../errors/api-error.js";

export const MAX_JSON_DEPTH = 64;

type IncomingRequest = Parameters<RequestHandler>[0];

function isForm(req: IncomingRequest): boolean {
  return typeof req.is(["application/x-www-form-urlencoded", "multipart/form-data"]) === "string";
}

function depthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Parses the raw text read by express.text() as JSON; an empty body is no body. */
const parseJson: RequestHandler = (req, _res, next) => {
  if (typeof req.body !== "string") return next();
  const text = req.body.trim();
  if (text.length === 0) {
    req.body = undefined;
    return next();
  }
  try {
    req.body = JSON.parse(text);
  } catch (error) {
    return next(new ApiError(400, `Had some trouble parsing your request: ${error instanceof Error ? error.message : String(error)}`));
  }
  if (depthExceeds(req.body, MAX_JSON_DEPTH)) return next(badRequest(`Had some trouble parsing your request: nesting deeper than ${MAX_JSON_DEPTH} levels`));
  next();
};

export function bodyParsers(limitBytes: number): RequestHandler[] {
  return [
    express.urlencoded({ extended: false, limit: limitBytes }),
    // Everything that is not a form is read as text and parsed as JSON below.
    express.text({ type: (req) => !isForm(req as IncomingRequest), limit: limitBytes }),
    parseJson,
  ];
}
