// The import routes as a user meets them: the built server (`node dist/src/main.js`) on a fresh data
// directory, imports over HTTP (ArchivesSpace JSON batches and file uploads), and the import
// command run beside it, sharing its embedded engine.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { UPLOAD_DIR } from "../../src/importers/uploads.js";
import { exited, spawnArca, type ArcaProcess } from "../support/process.js";

type Json = Record<string, unknown>;

const data = resolve("..", "shared", "data");
const IMPORT_LIMIT = 64 * 1024;

let arca: ArcaProcess;
let base: string;
let dataDir: string;
let admin: string;
let repo: number;

async function call(
  method: string,
  path: string,
  options: { token?: string; body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers["X-ArchivesSpace-Session"] = options.token;
  const response = await fetch(`${base}${path}`, { method, headers, body: options.body });
  return { status: response.status, body: (await response.json()) as Json };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "arca-imports-"));
  arca = await spawnArca({ DATA_DIR: dataDir, IMPORT_LIMIT_BYTES: String(IMPORT_LIMIT) });
  base = arca.url;
  const login = await call("POST", "/users/admin/login?password=admin");
  admin = login.body.session as string;
  repo = (
    await call("POST", "/repositories", {
      token: admin,
      body: JSON.stringify({ repo_code: "imports", name: "Imports" }),
    })
  ).body.id as number;
}, 60_000);

afterAll(async () => {
  await arca.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** ArchivesSpace's batch-import fixture: subjects, agents, a resource, an archival object. */
function realBatch(): Json[] {
  const read = (file: string): Json[] =>
    [JSON.parse(readFileSync(join(data, "archivesspace-json", file), "utf8")) as Json | Json[]].flat();
  // Out of dependency order on purpose: the resource and its component before what they link to.
  return [...read("archival_object.json"), ...read("resource.json"), ...read("agents.json"), ...read("subjects.json")];
}

describe("POST /repositories/:repo_id/batch_imports", () => {
  it("imports ArchivesSpace's batch, mapping its temporary uris, and a second time skips it", async () => {
    const first = await call("POST", `/repositories/${repo}/batch_imports`, {
      token: admin,
      body: JSON.stringify(realBatch()),
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      outcome: "imported",
      created: { subject: 5, agent_person: 3, agent_corporate_entity: 1, resource: 1, archival_object: 1 },
      errors: [],
    });
    const resourceUri = (first.body.uris as string[]).find((uri) => uri.includes("/resources/")) as string;
    const resource = (await call("GET", `${resourceUri}?resolve[]=linked_agents&resolve[]=subjects`, { token: admin }))
      .body;
    expect(resource).toMatchObject({ title: "Resource 1", id_0: "Resource", ead_id: "EAD ID" });
    const agents = resource.linked_agents as Json[];
    // The file's four agent links, in order, each to the agent the batch defined.
    expect(agents.map((link) => [link.role, ((link._resolved as Json).names as Json[])[0]?.primary_name])).toEqual([
      ["creator", "Agent"],
      ["subject", "Agent"],
      ["creator", "UNPUBLISHED Agent"],
      ["source", "UNPUBLISHED Corporate Agent"],
    ]);
    expect(
      (resource.subjects as Json[]).every(
        (link) => /^\/subjects\/\d+$/.test(link.ref as string) && link._resolved !== undefined,
      ),
    ).toBe(true);
    const tree = (await call("GET", `${resourceUri}/tree/root`, { token: admin })).body;
    expect(tree.child_count).toBe(1);

    const again = await call("POST", `/repositories/${repo}/batch_imports`, {
      token: admin,
      body: JSON.stringify(realBatch()),
    });
    expect(again.body).toMatchObject({ outcome: "skipped", created: {}, uris: [resourceUri] });
    const resources = (await call("GET", `/repositories/${repo}/resources?all_ids=true`, { token: admin }))
      .body as unknown as number[];
    expect(resources).toHaveLength(1);
  });

  it("writes nothing for a batch with one bad record, and says which", async () => {
    const before = (await call("GET", "/subjects?all_ids=true", { token: admin })).body as unknown as number[];
    const batch = [
      {
        jsonmodel_type: "subject",
        uri: "/subjects/import_a",
        source: "local",
        vocabulary: "/vocabularies/1",
        terms: [{ term: "Fresh", term_type: "topical", vocabulary: "/vocabularies/1" }],
      },
      {
        jsonmodel_type: "subject",
        uri: "/subjects/import_b",
        source: "local",
        vocabulary: "/vocabularies/1",
        terms: [],
      },
    ];
    const reply = await call("POST", `/repositories/${repo}/batch_imports`, {
      token: admin,
      body: JSON.stringify(batch),
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatch(/^Import failed at \[1\]: subject \/subjects\/import_b is invalid: terms: /);
    expect((reply.body.summary as Json).outcome).toBe("failed");
    expect((await call("GET", "/subjects?all_ids=true", { token: admin })).body).toEqual(before);
  });

  it("answers a dry run without writing", async () => {
    const batch = [
      {
        jsonmodel_type: "subject",
        uri: "/subjects/import_dry",
        source: "local",
        vocabulary: "/vocabularies/1",
        terms: [{ term: "Dry", term_type: "topical", vocabulary: "/vocabularies/1" }],
      },
    ];
    const reply = await call("POST", `/repositories/${repo}/batch_imports?dry_run=true`, {
      token: admin,
      body: JSON.stringify(batch),
    });
    expect(reply.body).toMatchObject({ outcome: "imported", dryRun: true, created: { subject: 1 } });
    const subjects = (await call("GET", "/subjects?page=1&page_size=250", { token: admin })).body.results as Json[];
    expect(subjects.some((subject) => JSON.stringify(subject.terms).includes('"Dry"'))).toBe(false);
  });
});

describe("POST /repositories/:repo_id/imports", () => {
  it("imports a CSV file sent as the body, its format told by the caller or by the file", async () => {
    const csv = readFileSync(join(data, "csv", "accessions_10_rows.csv"));
    const reply = await call("POST", `/repositories/${repo}/imports?format=csv`, {
      token: admin,
      body: csv,
      headers: { "Content-Type": "text/csv" },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      outcome: "imported",
      format: "csv",
      created: expect.objectContaining({ accession: 10 }),
    });
    const detected = await call("POST", `/repositories/${repo}/imports?filename=locations.csv`, {
      token: admin,
      body: readFileSync(join(data, "csv", "aspace_location_import_template.csv")),
    });
    expect(detected.body).toMatchObject({ format: "csv", outcome: "imported" });
  });

  it("answers bad requests with the contract's errors", async () => {
    const cases: Array<[string, string | Buffer, number, unknown]> = [
      [
        `/repositories/${repo}/imports?format=docx`,
        "x",
        400,
        { error: { format: [expect.stringMatching(/^Must be one of: .*aspace-json/)] } },
      ],
      [
        `/repositories/${repo}/imports`,
        "just some words",
        400,
        { error: { format: [expect.stringContaining("Could not tell the file's format")] } },
      ],
      [
        `/repositories/${repo}/imports?format=csv`,
        Buffer.alloc(IMPORT_LIMIT + 1, 0x41),
        413,
        {
          error:
            `Request body too large (over ${IMPORT_LIMIT} bytes, IMPORT_LIMIT_BYTES): send a file this large as a ` +
            "job, POST /repositories/:repo_id/jobs_with_files",
        },
      ],
      [`/repositories/999/imports?format=csv`, "a,b\n", 404, { error: "Repository not found" }],
      [
        `/repositories/${repo}/batch_imports`,
        "[{",
        400,
        { error: expect.stringContaining("Had some trouble parsing your request") },
      ],
      [
        `/repositories/${repo}/batch_imports`,
        '[{"jsonmodel_type":"user","username":"x","name":"x"}]',
        400,
        {
          error: "Import failed at [0]: user records cannot be imported in a batch",
          summary: expect.objectContaining({ outcome: "failed" }),
        },
      ],
    ];
    for (const [path, body, status, expected] of cases) {
      const reply = await call("POST", path, { token: admin, body, headers: { "Content-Type": "application/json" } });
      expect([path, reply.status, reply.body]).toEqual([path, status, expected]);
    }
    const anonymous = await call("POST", `/repositories/${repo}/imports?format=csv`, { body: "a,b\n" });
    expect([anonymous.status, anonymous.body]).toEqual([403, { error: "Access denied" }]);
  });
});

describe("the import routes in /openapi.json", () => {
  it("are described with their permission, parameters and answers", async () => {
    const document = (await call("GET", "/openapi.json")).body as {
      paths: Record<
        string,
        Record<string, { security: unknown; parameters: Array<{ name: string }>; responses: Record<string, unknown> }>
      >;
    };
    for (const path of ["/repositories/{repo_id}/batch_imports", "/repositories/{repo_id}/imports"]) {
      const post = document.paths[path]?.post;
      expect(post?.security).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            [Object.keys((post?.security as Array<Record<string, unknown>>)[0] ?? {})[0] ?? ""]: ["import_records"],
          }),
        ]),
      );
      expect(Object.keys(post?.responses ?? {})).toEqual(expect.arrayContaining(["200", "400", "403", "404", "413"]));
    }
    expect(
      document.paths["/repositories/{repo_id}/imports"]?.post?.parameters.map((parameter) => parameter.name),
    ).toEqual(["dry_run", "format", "filename"]);
  });
});

describe("npm run import (the command, beside the running server)", () => {
  it("imports into the running server's store and prints a located summary; exit 1 when a file fails", async () => {
    const run = promisify(execFile);
    const env = { ...process.env, DATA_DIR: dataDir, MONGODB_URI: "" };
    const ok = await run(
      process.execPath,
      [
        resolve("dist/src/importers/cli.js"),
        "--repo",
        String(repo),
        join(data, "csv", "aspace_subject_import_template.csv"),
      ],
      { env },
    );
    expect(ok.stderr).toContain("the running embedded engine");
    expect(ok.stdout).toMatch(
      /aspace_subject_import_template\.csv \(csv\): imported in [\d.]+ s\n {2}created: \d+ subject/,
    );

    const broken = join(dataDir, "broken.json");
    await import("node:fs/promises").then((fs) => fs.writeFile(broken, '[{"jsonmodel_type": "subject", "terms": [}'));
    const failed = await run(process.execPath, [resolve("dist/src/importers/cli.js"), "--repo", String(repo), broken], {
      env,
    }).then(
      () => undefined,
      (error: { code: number; stdout: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toMatch(
      /broken\.json \(aspace-json\): failed.*\n {2}error: broken\.json:1:\d+: malformed JSON: "}" where "]" closes what is open/,
    );

    // --report: every warning with its place and the fidelity report, as CSV; the summary's fidelity line.
    const reportPath = join(dataDir, "report.csv");
    const fixture = resolve("test/importers/fixtures/ead3-holdings.xml");
    const reported = await run(
      process.execPath,
      [resolve("dist/src/importers/cli.js"), "--repo", String(repo), "--report", reportPath, fixture],
      { env },
    );
    expect(reported.stdout).toContain(
      "  fidelity (imported/in the source): components 8/8, agents 4/4, subjects 7/7, notes 16/16, dates 8/8, " +
        "extents 4/4, containers 4/4, digital objects 2/2\n",
    );
    const rows = (await import("node:fs/promises").then((fs) => fs.readFile(reportPath, "utf8"))).split("\r\n");
    expect(rows[0]).toBe("file,kind,line,column,path,message");
    expect(rows).toContain(
      "ead3-holdings.xml,warning,110,7,/ead/archdesc/dsc[2]/c," +
        "a component with neither title nor date: titled 'Box B-001076' from what it carries",
    );
    expect(rows).toContain('ead3-holdings.xml,fidelity,,,components,"source 8, imported 8"');
    expect(rows.filter((row) => row.includes(",fidelity,"))).toHaveLength(8);

    // The hidden global repository takes no records, from the command either.
    const hidden = await run(
      process.execPath,
      [resolve("dist/src/importers/cli.js"), "--repo", "1", join(data, "csv", "aspace_subject_import_template.csv")],
      { env },
    ).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect([hidden?.code, hidden?.stderr.split("\n")[0]]).toEqual([
      2,
      "arca import: --repo 1: The global repository holds no records",
    ]);
  });
});

/** An EAD 2002 finding aid of `components` files under `series` series. */
function generatedEad(id: string, series: number, components: number): string {
  const perSeries = Math.ceil(components / series);
  const parts: string[] = [];
  for (let s = 0; s < series; s++) {
    parts.push(`<c01 level="series"><did><unittitle>Series ${s}</unittitle></did>`);
    for (let f = 0; f < perSeries; f++)
      parts.push(
        `<c02 level="file"><did><unittitle>File ${s}.${f}</unittitle><container type="box">${s + 1}</container></did></c02>\n`,
      );
    parts.push("</c01>\n");
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<ead><eadheader><eadid>${id}</eadid><filedesc><titlestmt><titleproper>${id}</titleproper></titlestmt></filedesc></eadheader>
<archdesc level="collection"><did><unittitle>Generated ${id}</unittitle><unitid>${id}</unitid><unitdate normal="1900/1950">1900-1950</unitdate>
<physdesc><extent>10 linear feet</extent></physdesc><langmaterial><language langcode="eng"/></langmaterial></did>
<dsc>${parts.join("")}</dsc></archdesc></ead>`;
}

describe("hostile files over HTTP", () => {
  it("deep nesting and over-long names answer 400 naming the line and column, and write nothing", async () => {
    // A whole collection: a file is read once, and its first problem in document order is the one reported.
    const head =
      '<ead><eadheader><eadid>hostile</eadid></eadheader><archdesc level="collection"><did><unittitle>Hostile</unittitle><unitid>HOSTILE.1</unitid><unitdate>1900</unitdate><physdesc><extent>1 linear feet</extent></physdesc></did>\n';
    const before = (await call("GET", `/repositories/${repo}/resources?all_ids=true`, { token: admin })).body;
    const emph = `${head}<dsc><c><did><unittitle>${"<emph>".repeat(2000)}x${"</emph>".repeat(2000)}</unittitle></did></c></dsc></archdesc></ead>`;
    const deep = await call("POST", `/repositories/${repo}/imports?format=ead`, { token: admin, body: emph });
    expect(deep.status).toBe(400);
    expect(deep.body.error).toMatch(
      /^Import failed at line 2, column \d+, \/ead\/archdesc\/dsc\/c\/did\/unittitle\/emph\/emph.*: elements nested too deep: <emph> would be 257 levels down, and at most 256 are read \(IMPORT_MAX_XML_DEPTH\)$/,
    );
    expect(deep.body.summary).toMatchObject({
      outcome: "failed",
      errors: [expect.objectContaining({ line: 2, column: expect.any(Number) })],
    });
    // ead, archdesc, dsc, then 254 components: the last `<` is 5 + 253 * 3 characters into the line.
    const components = `${head}<dsc>${"<c>".repeat(300)}`;
    expect(
      (await call("POST", `/repositories/${repo}/imports?format=ead`, { token: admin, body: components })).body.error,
    ).toMatch(/^Import failed at line 2, column 765, .*: elements nested too deep: <c> would be 257 levels down/);
    const name = await call("POST", `/repositories/${repo}/imports?format=ead`, {
      token: admin,
      body: `${head}<${"n".repeat(40_000)}/>`,
    });
    expect([name.status, (name.body.error as string).length < 1000]).toEqual([400, true]);
    expect((await call("GET", `/repositories/${repo}/resources?all_ids=true`, { token: admin })).body).toEqual(before);
  });
});

describe("a crash mid-import", () => {
  it("kill -9 while an import writes: the next start undoes it and removes its upload; importing the file again works", async () => {
    const crashDir = await mkdtemp(join(tmpdir(), "arca-crash-"));
    let crashed = await spawnArca({ DATA_DIR: crashDir });
    const at = crashed.url;
    const send = async (method: string, path: string, token?: string, body?: string) => {
      const response = await fetch(`${at}${path}`, {
        method,
        headers: token ? { "X-ArchivesSpace-Session": token } : {},
        body,
      });
      return { status: response.status, body: (await response.json()) as Json };
    };
    try {
      const token = (await send("POST", "/users/admin/login?password=admin")).body.session as string;
      const repoId = (await send("POST", "/repositories", token, JSON.stringify({ repo_code: "crash", name: "Crash" })))
        .body.id as number;
      const ead = generatedEad("crash-1", 50, 2_000);
      const ids = async (): Promise<number> =>
        (
          (await send("GET", `/repositories/${repoId}/archival_objects?all_ids=true`, token))
            .body as unknown as number[]
        ).length;

      const importing = fetch(`${at}/repositories/${repoId}/imports?format=ead&filename=crash.xml`, {
        method: "POST",
        headers: { "X-ArchivesSpace-Session": token },
        body: ead,
      }).catch(() => undefined);
      // Killed once the writing pass has written some components, well before all of them.
      let written = 0;
      for (let tries = 0; tries < 2000 && written === 0; tries++) {
        written = await ids();
        if (written === 0) await new Promise((wait) => setTimeout(wait, 20));
      }
      const pid = crashed.child.pid as number;
      const uploads = (await readdir(UPLOAD_DIR)).filter((name) => name.startsWith(`${pid}-`));
      crashed.child.kill("SIGKILL");
      await exited(crashed.child);
      await importing;
      expect(written).toBeGreaterThan(0);
      expect(written).toBeLessThan(2_050);
      expect(uploads).toHaveLength(1);

      crashed = await spawnArca({ DATA_DIR: crashDir }, { port: crashed.port });
      expect(crashed.output()).toMatch(
        /undid the unfinished import of crash\.xml into repository \d+ \(\d+ records written before its process died\)/,
      );
      expect((await readdir(UPLOAD_DIR)).filter((name) => name.startsWith(`${pid}-`))).toEqual([]);
      const again = (await send("POST", "/users/admin/login?password=admin")).body.session as string;
      const left = async (path: string): Promise<number> =>
        ((await send("GET", `/repositories/${repoId}/${path}?all_ids=true`, again)).body as unknown as number[]).length;
      expect([await left("resources"), await left("archival_objects"), await left("top_containers")]).toEqual([
        0, 0, 0,
      ]);

      const reimport = await send("POST", `/repositories/${repoId}/imports?format=ead&filename=crash.xml`, again, ead);
      expect([reimport.status, reimport.body.outcome, reimport.body.created]).toEqual([
        200,
        "imported",
        { resource: 1, archival_object: 2_050, top_container: 50 },
      ]);
      expect([await left("resources"), await left("archival_objects")]).toEqual([1, 2_050]);
    } finally {
      await crashed.stop();
      await rm(crashDir, { recursive: true, force: true });
    }
  }, 180_000);
});
