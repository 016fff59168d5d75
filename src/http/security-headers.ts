// Headers every response carries. The API answers JSON (and /version text, an
// EAD export XML): nothing a browser should sniff into HTML, run, frame or load anything
// for; and nothing an intermediary may cache, since every answer depends on who asks. The
// /docs page sets its own, looser policy (src/openapi/docs-page.ts) over this one. One
// middleware for all of them: every layer in front of the routes costs every request.
import type { RequestHandler } from "express";

/** For responses that are data, not pages: nothing may load, nobody may frame them. */
export const DEFAULT_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Content-Security-Policy", DEFAULT_CONTENT_SECURITY_POLICY);
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("Cache-Control", "private, must-revalidate, max-age=0");
  next();
};
