// The hostile traffic, run beside the ordinary load: C1's prototype-climbing
// resolve[] (with and without a session), C2's multipart flood (streamed, scaled to stay safe on a shared
// machine), H3's big resolve of one resource listed many times, H4's deeply nested JSON bodies
// (gzipped), floods of wrong passwords, and H2's deeply nested EAD import. Each loop counts its
// outcomes in the tally under its own kind; none of these latencies is a GET figure.
import http from "node:http";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { gzipSync } from "node:zlib";
import { request, type Result, Tally } from "./client.js";
import { call, REPO } from "./workload.js";

type Json = Record<string, unknown>;

export interface HostileOptions {
  port: number;
  token: string;
  until: () => boolean;
  tally: Tally;
  /** C2: fields per multipart body and their size; two bodies in flight. */
  multipartFields: number;
  multipartFieldBytes: number;
  /** H3: bytes of notes on the resource listed `h3Refs` times. */
  h3NoteBytes: number;
  h3Refs: number;
  /** Which loops run: c1, c2, h2, h3, h4, login. */
  kinds: ReadonlySet<string>;
}

export const HOSTILE_KINDS = ["c1", "c2", "h2", "h3", "h4", "login"] as const;

export interface HostileSetup {
  h3Accession: number;
}

/** The H3 records: a resource with big notes, an accession listing it many times, and the link back. */
export async function setUpHostile(options: HostileOptions): Promise<HostileSetup> {
  const agent = new http.Agent({ keepAlive: true });
  const piece = "n".repeat(64_000);
  const content = Array.from({ length: Math.max(1, Math.round(options.h3NoteBytes / piece.length)) }, () => piece);
  const made = await call(agent, options.port, options.token, "POST", `/repositories/${REPO}/resources`, {
    title: "Big notes",
    id_0: "H3",
    level: "collection",
    finding_aid_language: "eng",
    finding_aid_script: "Latn",
    extents: [{ portion: "whole", number: "1", extent_type: "linear_feet" }],
    dates: [{ date_type: "inclusive", label: "creation", begin: "1900", end: "1950" }],
    lang_materials: [{ language_and_script: { language: "eng" } }],
    notes: [{ jsonmodel_type: "note_singlepart", type: "abstract", content }],
  });
  if (made.status !== 200) throw new Error(`H3 set-up: resource answered ${made.status} ${made.body.slice(0, 300)}`);
  const resourceId = (JSON.parse(made.body) as { id: number }).id;
  const ref = { ref: `/repositories/${REPO}/resources/${resourceId}` };
  const accession = await call(agent, options.port, options.token, "POST", `/repositories/${REPO}/accessions`, {
    title: "Lists one resource many times",
    id_0: "H3",
    related_resources: Array.from({ length: options.h3Refs }, () => ref),
  });
  if (accession.status !== 200)
    throw new Error(`H3 set-up: accession answered ${accession.status} ${accession.body.slice(0, 300)}`);
  const h3Accession = (JSON.parse(accession.body) as { id: number }).id;
  const current = await call(
    agent,
    options.port,
    options.token,
    "GET",
    `/repositories/${REPO}/resources/${resourceId}`,
    undefined,
    64 << 20,
  );
  const record = JSON.parse(current.body) as Json;
  const linked = await call(
    agent,
    options.port,
    options.token,
    "POST",
    `/repositories/${REPO}/resources/${resourceId}`,
    { ...record, related_accessions: [{ ref: `/repositories/${REPO}/accessions/${h3Accession}` }] },
  );
  if (linked.status !== 200)
    throw new Error(`H3 set-up: resource update answered ${linked.status} ${linked.body.slice(0, 300)}`);
  agent.destroy();
  return { h3Accession };
}

/** A multipart body streamed field by field from one buffer; stops writing once the service answers. */
function multipartFlood(port: number, fields: number, fieldBytes: number): Promise<Result> {
  const boundary = "loadbenchboundary";
  const filler = Buffer.alloc(fieldBytes, "m");
  const t0 = performance.now();
  return new Promise((done) => {
    let settled = false;
    const finish = (status: number, body: string, error?: string) => {
      if (settled) return;
      settled = true;
      done({ status, body, error, ms: performance.now() - t0 });
    };
    const req = http.request(
      {
        agent: false,
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/nonexistent",
        headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      },
      (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body = (body + chunk.toString()).slice(0, 2_000)));
        res.on("end", () => finish(res.statusCode ?? 0, body));
        res.on("error", (error) => finish(res.statusCode ?? 0, body, error.message));
      },
    );
    req.on("error", (error) => finish(0, "", error.message));
    req.setTimeout(120_000, () => req.destroy(new Error("timeout")));
    let written = 0;
    const writeMore = () => {
      while (!settled && written < fields) {
        const head = `--${boundary}\r\nContent-Disposition: form-data; name="f${written}"\r\n\r\n`;
        written++;
        const ok = req.write(head) && req.write(filler) && req.write("\r\n");
        if (!ok) return void req.once("drain", writeMore);
      }
      if (!settled) req.end(`--${boundary}--\r\n`);
    };
    writeMore();
  });
}

/** Runs every hostile loop until `until()` says stop. */
export async function runHostile(options: HostileOptions, setup: HostileSetup): Promise<void> {
  const { port, token, tally, until } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const loop = async (kind: string, pauseMs: number, once: () => Promise<Result>) => {
    if (!options.kinds.has(kind.split(" ")[0].toLowerCase().replace("wrong-password", "login"))) return;
    while (!until()) {
      tally.add(kind, await once());
      await sleep(pauseMs);
    }
  };
  const c1Paths = ["__proto__::zzprobe", "__proto__::_archivesspace", "constructor::prototype::x"];
  let c1 = 0;
  let wrong = 0;
  const deepJson = gzipSync(Buffer.from(`${"[".repeat(4_500_000)}${"]".repeat(4_500_000)}`));
  const deepEad = Buffer.from(
    `<?xml version="1.0"?><ead xmlns="urn:isbn:1-931666-22-9"><eadheader><eadid>deep</eadid></eadheader><archdesc level="collection"><did><unittitle>${"<emph>".repeat(20_000)}t${"</emph>".repeat(20_000)}</unittitle><unitid>DEEP</unitid></did></archdesc></ead>`,
  );
  await Promise.all([
    // C1: every prototype climb in turn, without a session (refused before the query is read,
    // since reading agents needs one) and with one (parsed and resolved).
    loop("C1 resolve[] __proto__ (no session / session)", 50, () =>
      request(agent, port, {
        method: "GET",
        path: `/agents/people?page=1&resolve[]=${encodeURIComponent(c1Paths[c1 % c1Paths.length])}`,
        headers: c1++ % 2 === 0 ? {} : { "X-ArchivesSpace-Session": token },
      }),
    ),
    // C2: two multipart bodies in flight, no session, to a route that does not exist.
    ...[0, 1].map(() =>
      loop("C2 multipart flood (no session)", 100, () =>
        multipartFlood(port, options.multipartFields, options.multipartFieldBytes),
      ),
    ),
    // H3: one read resolving a big record listed many times, and the quadratic path.
    loop("H3 big resolve[]", 200, () =>
      request(agent, port, {
        method: "GET",
        path: `/repositories/${REPO}/accessions/${setup.h3Accession}?resolve[]=${c1 % 2 === 0 ? "related_resources" : "related_resources::related_accessions"}`,
        headers: { "X-ArchivesSpace-Session": token },
        keepBytes: 1024,
      }),
    ),
    // H4: 9 MB of nesting in 9 KB of gzip, with and without a session, two clients.
    ...[0, 1].map((i) =>
      loop("H4 deep JSON body (gzip)", 50, () =>
        request(agent, port, {
          method: "POST",
          path: i === 0 ? `/repositories/${REPO}/accessions` : "/nonexistent",
          headers: {
            "Content-Type": "application/json",
            "Content-Encoding": "gzip",
            ...(i === 0 ? { "X-ArchivesSpace-Session": token } : {}),
          },
          body: deepJson,
        }),
      ),
    ),
    // Wrong passwords: for admin, and for many usernames, as fast as one connection goes.
    loop("wrong-password flood", 0, () =>
      request(agent, port, {
        method: "POST",
        path:
          wrong++ % 2 === 0
            ? `/users/admin/login?password=wrong-${wrong}`
            : `/users/nobody-${wrong % 50}/login?password=wrong`,
      }),
    ),
    // H2: an EAD whose title holds 20,000 nested <emph>.
    loop("H2 deep EAD import", 2_000, () =>
      request(agent, port, {
        method: "POST",
        path: `/repositories/${REPO}/imports?format=ead`,
        headers: { "X-ArchivesSpace-Session": token, "Content-Type": "application/octet-stream" },
        body: deepEad,
      }),
    ),
  ]);
  agent.destroy();
}
