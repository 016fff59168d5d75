// Login, logout and "who am I" (docs/api.md §2): the account routes no schema can describe.
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import { respond } from "../records/http/answer.js";
import { Route } from "../http/described-route.js";
import type { Request, Response } from "express";
import type { SessionStore } from "../auth/session-store.js";
import type { JsonObject } from "../registry/index.js";
import { principalOf } from "../auth/session-middleware.js";
import { ApiError } from "../errors/api-error.js";
import type { AccountAccessControl } from "./access-control.js";
import { callerOf } from "../auth/caller.js";
import type { CredentialStore } from "./credential-store.js";
import { LoginThrottled, type LoginThrottle } from "./login-throttle.js";
import { booleanParam, requiredParam } from "../records/http/request-params.js";
import type { RecordOperations } from "../records/operations/index.js";
import { describeSessionRoute as describe } from "./route-descriptions.js";
import { normaliseUsername } from "./usernames.js";

export interface SessionControllerDeps {
  operations: RecordOperations;
  credentials: CredentialStore;
  sessions: SessionStore;
  access: AccountAccessControl;
  throttle: LoginThrottle;
}

// One answer for every failure, so a client cannot tell an unknown user from a wrong password.
const loginFailed = () => new ApiError(403, "Login failed");

/** The Ts.ED controller of login, logout and current-user, to mount at "/" before the user routes. */
export function sessionController({
  operations,
  credentials,
  sessions,
  access,
  throttle,
}: SessionControllerDeps): new () => unknown {
  // The stored user, as the API shows it; the session's own user needs no permission to read itself.
  const findUser = async (username: string): Promise<JsonObject | undefined> =>
    (await operations.find("user", { username: normaliseUsername(username) }, 1))[0];

  const login = async (req: Request, res: Response): Promise<JsonObject> => {
    const password = requiredParam(req, "password", { jsonBody: true });
    const expiring = booleanParam(req, "expiring", true, { jsonBody: true });
    const username = normaliseUsername(String(req.params.username));
    // req.ip with "trust proxy" off: the connection's peer, which no header can change.
    const address = req.ip ?? req.socket.remoteAddress ?? "unknown";
    try {
      // Held keys are refused before any password work; unknown and known usernames alike.
      throttle.admit(username, address);
    } catch (error) {
      if (error instanceof LoginThrottled) res.setHeader("Retry-After", String(await throttle.holdBack(error)));
      throw error;
    }
    // The password is checked even for an unknown user, so both take the same time.
    const passwordMatches = await credentials.verify(username, password);
    const user = await findUser(username);
    const permissions =
      passwordMatches && user && user.is_active_user !== false ? await access.permissionsOf(username) : undefined;
    if (!permissions) {
      throttle.failed(username, address);
      throw loginFailed();
    }
    throttle.succeeded(username);
    const session = await sessions.create(username, expiring);
    return {
      session: session.token,
      user: { ...user, permissions },
      ...(expiring ? {} : { expire_after_seconds: session.expiresInSeconds }),
    };
  };

  @Controller("/")
  class SessionController {
    @Route("post", "/users/:username/login", describe.login)
    login(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, login);
    }

    @Route("post", "/logout", describe.logout)
    logout(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (_req, res) => {
        const principal = principalOf(res);
        const ended = principal ? await sessions.end(principal.token) : false;
        return { status: ended ? "session_logged_out" : "no_active_session" };
      });
    }

    @Route("get", "/users/current-user", describe.currentUser)
    currentUser(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (_req, res) => {
        const caller = await callerOf(access, res);
        const user = await findUser(caller.username);
        if (!user) throw new ApiError(403, "Access denied");
        return { ...user, permissions: caller.permissions };
      });
    }
  }
  return SessionController;
}
