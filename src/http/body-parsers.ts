// Request bodies as ArchivesSpace clients send them (api-contract.md §1): a JSON record is
// JSON whatever the Content-Type says (none, as agentarchives sends; or a form type, as
// `curl -d '{...}'` sends); an empty body with a JSON Content-Type is no body (the Ruby
// client's body-less POSTs); form bodies (urlencoded or multipart) carry scalar parameters.
// A size limit answers 413 and a nesting limit 400, so no body can exhaust the stack of
// whoever walks it later.
import express, { type RequestHandler } from "express";
import multer from "multer";
import { parse as parseQueryString } from "node:querystring";
import { ApiError, badRequest } from "../errors/api-error.js";

export const MAX_JSON_DEPTH = 64;

type IncomingRequest = Parameters<RequestHandler>[0];

const isMultipart = (req: IncomingRequest) => typeof req.is("multipart/form-data") === "string";
const isUrlencoded = (req: IncomingRequest) => typeof req.is("application/x-www-form-urlencoded") === "string";

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

/** Form fields as a plain object; a repeated field becomes an array. */
function formFields(text: string): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(parseQueryString(text)).filter((entry): entry is [string, string | string[]] => entry[1] !== undefined));
}

/** Turns the raw text read by express.text() into the body the routes see. */
const parseTextBody: RequestHandler = (req, _res, next) => {
  if (typeof req.body !== "string") return next();
  const text = req.body.trim();
  if (text.length === 0) {
    req.body = undefined;
    return next();
  }
  if (isUrlencoded(req) && !/^[{[]/.test(text)) {
    req.body = formFields(text);
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

/** Multipart form fields (no files: no route takes one). */
function multipartFields(limitBytes: number): RequestHandler {
  const fields = multer({ limits: { fieldSize: limitBytes, files: 0 } }).none();
  return (req, res, next) => {
    if (!isMultipart(req)) return next();
    fields(req, res, (error?: unknown) => {
      if (!error) return next();
      const code = (error as { code?: string }).code ?? "";
      next(code === "LIMIT_FIELD_VALUE" ? new ApiError(413, "Request body too large") : badRequest(`Had some trouble parsing your request: ${(error as Error).message ?? code}`));
    });
  };
}

/**
 * The parsers, in order. `leaveAlone`: requests whose body is a file their route streams
 * itself (an import upload), which no parser may read or limit.
 */
export function bodyParsers(limitBytes: number, leaveAlone: (req: IncomingRequest) => boolean = () => false): RequestHandler[] {
  const parsers: RequestHandler[] = [
    multipartFields(limitBytes),
    express.text({ type: (req) => !isMultipart(req as IncomingRequest), limit: limitBytes }),
    parseTextBody,
  ];
  return parsers.map((parser): RequestHandler => (req, res, next) => (leaveAlone(req) ? next() : parser(req, res, next)));
}
