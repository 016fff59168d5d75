// The HTTP the ported clients speak, as python-requests sends it: query parameters from a dict (a list repeated, a
// boolean as "True"/"False"), JSON bodies, form-encoded logins, the session in X-ArchivesSpace-Session.
import { request, type Reply } from "../../support/service.js";

export type Param = string | number | boolean | readonly string[];
export type Params = Readonly<Record<string, Param>>;

/** `path?query` for `params` as requests encodes a dict (names taken as they are given). */
export function withQuery(path: string, params: Params = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (Array.isArray(value)) for (const item of value as readonly string[]) query.append(name, item);
    else if (typeof value === "boolean") query.append(name, value ? "True" : "False");
    else query.append(name, String(value));
  }
  const encoded = query.toString();
  return encoded === "" ? path : `${path}?${encoded}`;
}

/** One logged-in session against `base`. */
export class Session {
  private token = "";

  constructor(readonly base: string) {}

  /** POST /users/:user/login with a form body, as both clients log in (expiring=False: a long session). */
  async login(user: string, password: string): Promise<Reply> {
    const reply = await request(this.base, "POST", `/users/${encodeURIComponent(user)}/login`, {
      form: { password, expiring: "False" },
    });
    const session = (reply.body as { session?: unknown } | undefined)?.session;
    if (typeof session === "string") this.token = session;
    return reply;
  }

  send(method: string, path: string, params?: Params, body?: unknown): Promise<Reply> {
    return request(this.base, method, withQuery(path.startsWith("/") ? path : `/${path}`, params), {
      token: this.token,
      body,
    });
  }
}
