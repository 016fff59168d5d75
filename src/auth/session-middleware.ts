// Who is calling. On every request, before routing (open routes included, as ArchivesSpace
// does), a session token in the header is checked: an unknown or logged-out one answers
// 412 SESSION_GONE, an expired one 412 SESSION_EXPIRED. A request without a token goes on
// anonymously; protected routes turn that into 403. It reads headers only, and runs before
// the body parsers, which read no body for a caller without a session (src/http/body-parsers.ts:
// an anonymous request costs no body parsing whatever it sends). The check is a passport-custom
// strategy called from a small middleware of our own (@tsed/passport costs ~20% of
// throughput here, measured when this was built).
import type { RequestHandler, Response } from "express";
import passport from "passport";
import CustomStrategy from "passport-custom";
import { ApiError } from "../errors/api-error.js";
import type { SessionStore } from "./session-store.js";

export interface Principal {
  username: string;
  token: string;
  expiring: boolean;
}

export interface SessionHeaders {
  /** Header names accepted, in order of preference: X-Service-Session, then its alias. */
  names: string[];
}

const STRATEGY = "arca-session";

export function sessionGone(): ApiError {
  return new ApiError(412, "No session found for the token you provided", { code: "SESSION_GONE" });
}

export function sessionExpired(): ApiError {
  return new ApiError(412, "Your session expired due to inactivity. Please sign in again.", {
    code: "SESSION_EXPIRED",
  });
}

/** The principal the session middleware found for this request, if any. */
export function principalOf(res: Response): Principal | undefined {
  return res.locals.principal as Principal | undefined;
}

export function sessionMiddleware(store: SessionStore, headers: SessionHeaders): RequestHandler {
  const authenticator = new passport.Passport();
  const tokenOf = (req: { get(name: string): string | undefined }): string | undefined => {
    for (const name of headers.names) {
      const value = req.get(name)?.trim();
      if (value) return value;
    }
    return undefined;
  };
  authenticator.use(
    STRATEGY,
    new CustomStrategy((req, done) => {
      const token = tokenOf(req);
      if (!token) return done(null, false);
      store.lookup(token).then(
        (found) => {
          if (found.status === "active")
            done(null, { username: found.username, token, expiring: found.expiring } satisfies Principal);
          else done(found.status === "expired" ? sessionExpired() : sessionGone());
        },
        (error: unknown) => done(error),
      );
    }),
  );
  return (req, res, next) => {
    // No token, nothing to check: the strategy would only answer "anonymous", and passport's
    // per-request set-up is most of what an anonymous request (a login, a flood) costs here.
    if (tokenOf(req) === undefined) return next();
    authenticator.authenticate(STRATEGY, { session: false }, (error: unknown, principal: Principal | false) => {
      if (error) return next(error);
      if (principal) res.locals.principal = principal;
      next();
    })(req, res, next);
  };
}
