// Request bodies as ArchivesSpace clients send them (docs/api.md §1), read only once the
// caller is known. Mount these after the session middleware:
//   - a caller without a session has no body read at all, except the login route's small
//     password form (LOGIN_BODY_LIMIT_BYTES); every other route it may reach refuses it
//     (403) or does not exist (404) without needing the body, which is left unread and the
//     connection closed after the answer;
//   - a caller with one may send up to BODY_LIMIT_BYTES, counted after inflation and for a
//     multipart form in total (body-reader.ts);
//   - the bytes must be UTF-8 (charset other than UTF-8: 415); a JSON record is JSON whatever
//     the Content-Type says (none, as agentarchives sends; or a form type, as `curl -d '{...}'`
//     sends), bounded in depth and free of duplicate keys, NUL and lone surrogates
//     (json-body.ts); an empty body is no body (the Ruby client's body-less POSTs); form bodies
//     carry scalar parameters (form-body.ts).
// The query string obeys the same text rules (query-check.ts), for every caller.
import type { RequestHandler } from "express";
import { principalOf } from "../auth/session-middleware.js";
import { ApiError } from "../errors/api-error.js";
import { closeAfterAnswer, hasBody, readBody } from "./body-reader.js";
import { parseMultipart, parseUrlencoded, urlencodedFieldAt } from "./form-body.js";
import { jsonDepthInspector, jsonFieldAt, parseJsonText, utf8Text } from "./json-body.js";
import { queryCheck } from "./query-check.js";

export { MAX_JSON_DEPTH } from "./json-body.js";
export { MAX_FORM_FIELDS } from "./form-body.js";

/** The largest body a caller without a session may send: a login's password form. */
export const LOGIN_BODY_LIMIT_BYTES = 64 * 1024;

type IncomingRequest = Parameters<RequestHandler>[0];
type OutgoingResponse = Parameters<RequestHandler>[1];

export interface BodyParserOptions {
  /** The largest body (after inflation) a caller with a session may send: BODY_LIMIT_BYTES. */
  limitBytes: number;
  /** Requests whose body is a file their route streams itself (an import upload), which no parser may read or limit. */
  leaveAlone?: (req: IncomingRequest) => boolean;
  /** Whether the caller has a session; by default, whether the session middleware found one. */
  authenticated?: (req: IncomingRequest, res: OutgoingResponse) => boolean;
}

const LOGIN_PATH = /^\/users\/[^/]+\/login\/?$/i;

/**
 * `POST /users/:username/login`, the one route that reads a body without a session (matched as express routes match:
 * any case, optional trailing slash).
 */
export function isLoginRequest(req: { method: string; path: string }): boolean {
  return req.method === "POST" && LOGIN_PATH.test(req.path);
}

const isMultipart = (req: IncomingRequest) => typeof req.is("multipart/form-data") === "string";
const isUrlencoded = (req: IncomingRequest) => typeof req.is("application/x-www-form-urlencoded") === "string";

const UTF8_CHARSETS = new Set(["utf-8", "utf8", "us-ascii"]);

function assertUtf8Charset(req: IncomingRequest): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(req.headers["content-type"] ?? "")?.[1]?.toLowerCase();
  if (charset !== undefined && !UTF8_CHARSETS.has(charset)) {
    throw new ApiError(415, `Unsupported charset "${charset.slice(0, 40)}": request bodies are UTF-8`);
  }
}

/** The body the routes see: form fields, a JSON value, or undefined for an empty body. */
async function parse(req: IncomingRequest, bytes: Buffer): Promise<unknown> {
  assertUtf8Charset(req);
  if (isMultipart(req)) return parseMultipart(bytes, req.headers);
  const urlencoded = isUrlencoded(req);
  const text = utf8Text(bytes, urlencoded ? urlencodedFieldAt : jsonFieldAt).trim();
  if (text.length === 0) return undefined;
  if (urlencoded && !/^[{[]/.test(text)) return parseUrlencoded(text);
  return parseJsonText(text);
}

function bodyReader(options: BodyParserOptions): RequestHandler {
  const leaveAlone = options.leaveAlone ?? (() => false);
  const authenticated =
    options.authenticated ?? ((_req: IncomingRequest, res: OutgoingResponse) => principalOf(res) !== undefined);
  return (req, res, next) => {
    if (!hasBody(req)) return next();
    const known = authenticated(req, res);
    if (leaveAlone(req)) {
      // Its route refuses a caller without a session before reading a byte.
      if (!known) closeAfterAnswer(res);
      return next();
    }
    let limit = options.limitBytes;
    if (!known) {
      if (!isLoginRequest(req)) {
        closeAfterAnswer(res);
        return next();
      }
      limit = Math.min(limit, LOGIN_BODY_LIMIT_BYTES);
    }
    // A JSON body's nesting is checked as it arrives, so a deep one is refused at its first chunk.
    const inspect = isMultipart(req) || isUrlencoded(req) ? undefined : jsonDepthInspector();
    readBody(req, res, limit, inspect)
      .then((bytes) => parse(req, bytes))
      .then((body) => {
        req.body = body;
        next();
      }, next);
  };
}

/** The query-string check and the body reader, in order; mount after the session middleware. */
export function bodyParsers(options: BodyParserOptions): RequestHandler[] {
  return [queryCheck, bodyReader(options)];
}
