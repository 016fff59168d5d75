// How the record and tree controllers answer: a handler's result written straight to express
// as the 200 JSON body (see record-controller.ts for why not through Ts.ED's mapper), and the
// class names their generated subclasses get.
import type { PlatformContext } from "@tsed/platform-http";
import type { Request, Response } from "express";
import { jsonChunks, repeatedObjects } from "../../http/json-slices.js";
import { resolveParam } from "./list-params.js";

/**
 * Runs a handler and writes its result as the 200 JSON answer. `resolves`: the route takes
 * resolve[] (a read or a list), whose answer may show one large target in many places (up to
 * RESOLVE_MAX_BYTES); when it does, it is serialized and encoded once per target and in slices,
 * so it holds the event loop briefly, and written as those chunks. Such an answer carries no
 * ETag: express would hash every byte of it in one go, the cost the slices avoid. Every other
 * answer, and one without a repeated target, goes through JSON.stringify, which is faster.
 */
export async function respond(
  ctx: PlatformContext,
  handle: (req: Request, res: Response) => Promise<unknown>,
  { resolves = false } = {},
): Promise<void> {
  const req = ctx.getRequest<Request>();
  const res = ctx.getResponse<Response>();
  const body = await handle(req, res);
  // A handler that wrote its own answer (a CSV stream) is left to it.
  if (res.headersSent) return;
  const repeated = resolves && resolveParam(req).length > 0 ? repeatedObjects(body) : undefined;
  if (repeated === undefined || repeated.size === 0) {
    // Straight to node rather than express's res.json: that re-parses the Content-Type it
    // sets, checks freshness and picks an encoding per call (~20 µs of a ~500 µs read).
    const text = JSON.stringify(body);
    res.writeHead(200, { "Content-Type": JSON_TYPE, "Content-Length": Buffer.byteLength(text) }).end(text);
    return;
  }
  const chunks = await jsonChunks(body, repeated);
  const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  res.writeHead(200, { "Content-Type": JSON_TYPE, "Content-Length": length });
  res.cork(); // one writev for every chunk; end() uncorks
  for (const chunk of chunks) res.write(chunk);
  res.end();
}

const JSON_TYPE = "application/json; charset=utf-8";

/** `digital_object` -> `DigitalObject`, for the names of generated controller classes. */
export function pascalCase(name: string): string {
  return name.replace(/(^|_)([a-z0-9])/g, (_match, _sep: string, letter: string) => letter.toUpperCase());
}
