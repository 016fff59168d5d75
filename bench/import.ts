// Benchmark of the import: a generated EAD 2002 finding aid with 100,000
// components (100 series of 999 files, with containers, dates, agents, subjects and a note per
// file, over 50 MB) imported through the command (`node dist/src/importers/cli.js`, what
// `npm run import` runs, with its node flags) into an embedded engine (its own process) that a running Arca uses.
// Measures components per second and the command's RSS (peak, and growth over its RSS when
// the import starts), then checks the result through the API.
//
//   npm run bench:import
//   CLI_NODE_ARGS="<node flags>" npm run bench:import   the command's node flags (default: those
//                                                        `npm run import` uses, a 384 MB old space)
//
// Results are printed as a markdown table and written as JSON to
// $TMPDIR/arca-bench-results/import.json.
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { spawnEngine } from "../src/embedded-mongo/launcher.js";
import {
  ADMIN_PASSWORD,
  check,
  summariseProfile,
  type CpuProfile,
  exited,
  httpJson,
  int,
  log,
  machineFacts,
  mib,
  procMemory,
  ROOT,
  setLogPrefix,
  startArca,
  waitForQuiet,
  writeResults,
} from "./common.js";

// --profile: a fifth of the file, the command under --cpu-prof, the profile summarised.
const PROFILE = process.argv.includes("--profile");
const SERIES = PROFILE ? 20 : 100;
const FILES_PER_SERIES = 999;
const COMPONENTS = SERIES + SERIES * FILES_PER_SERIES; // 100,000 (20,000 with --profile)
const FILES_PER_BOX = 20;
const TARGET_PER_SECOND = 3_000;
const RSS_GROWTH_LIMIT = 200 * 1024 * 1024;
const CLI = join(ROOT, "dist", "src", "importers", "cli.js");
/** What `npm run import` runs the command with (package.json): the heap bound that keeps its RSS flat. */
const IMPORT_NODE_ARGS = "--max-old-space-size=384";

setLogPrefix("bench-import");

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/** Writes the finding aid; returns its size in bytes. */
async function writeEad(path: string): Promise<number> {
  const out = createWriteStream(path);
  const write = (text: string) =>
    out.write(text) ? Promise.resolve() : new Promise<void>((done) => out.once("drain", () => done()));
  await write(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE ead PUBLIC "+//ISBN 1-931666-00-8//DTD ead.dtd (Encoded Archival Description (EAD) Version 2002)//EN" "ead.dtd">
<ead xmlns="urn:isbn:1-931666-22-9" xmlns:xlink="http://www.w3.org/1999/xlink">
<eadheader><eadid>bench-100k</eadid><filedesc><titlestmt><titleproper>Generated papers</titleproper></titlestmt></filedesc></eadheader>
<archdesc level="collection">
<did><unittitle>Generated papers</unittitle><unitid>BENCH.100K</unitid><unitdate normal="1850/1950" type="inclusive">1850-1950</unitdate>
<physdesc><extent>500 linear feet</extent></physdesc><langmaterial><language langcode="eng">English</language></langmaterial>
<origination label="creator"><persname>Hollis, Margaret, 1850-1931</persname></origination></did>
<scopecontent><p>Correspondence, diaries and business records of a generated family.</p></scopecontent>
<controlaccess><subject source="lcsh">Families</subject><geogname source="lcsh">Hudson River Valley (N.Y. and N.J.)</geogname></controlaccess>
<dsc>
`);
  let box = 0;
  for (let s = 1; s <= SERIES; s++) {
    await write(`<c01 level="series" id="s${s}"><did><unittitle>Series ${s}: ${escape(["Correspondence", "Diaries", "Ledgers", "Photographs"][s % 4] as string)}</unittitle><unitid>${s}</unitid><unitdate normal="${1850 + (s % 50)}/${1900 + (s % 50)}">${1850 + (s % 50)}-${1900 + (s % 50)}</unitdate></did>
<scopecontent><p>Records of series ${s}, arranged chronologically.</p></scopecontent>
<controlaccess><persname role="cre">Correspondent ${s % 40}, Ada</persname><subject>Topic ${s % 25}</subject></controlaccess>
`);
    const parts: string[] = [];
    for (let f = 1; f <= FILES_PER_SERIES; f++) {
      if ((f - 1) % FILES_PER_BOX === 0) box++;
      const year = 1850 + ((s * 7 + f) % 100);
      parts.push(
        `<c02 level="file" id="s${s}f${f}"><did><unittitle>Letters and papers, folder ${f}</unittitle><unitid>${s}.${f}</unitid>` +
          `<unitdate normal="${year}/${year + 1}">${year}-${year + 1}</unitdate>` +
          `<container type="Box">${box}</container><container type="Folder">${f}</container></did>` +
          `<scopecontent><p>Letters received by the family in ${year} and ${year + 1}, with drafts of replies, receipts and clippings; folder ${f} of series ${s}.</p>` +
          `<p>Correspondents include merchants, ministers and relatives in Albany, Kingston and New York; several letters concern the sale of river frontage and the settlement of an estate.</p></scopecontent></c02>\n`,
      );
      if (parts.length === 100) await write(parts.splice(0).join(""));
    }
    await write(`${parts.join("")}</c01>\n`);
  }
  await write("</dsc>\n</archdesc>\n</ead>\n");
  await new Promise<void>((done) => out.end(() => done()));
  return (await stat(path)).size;
}

async function bench(): Promise<void> {
  const work = await mkdtemp(join(os.tmpdir(), "arca-bench-import-"));
  const engine = await spawnEngine({ dataDir: join(work, "engine"), fsync: "always" });
  let arca: Awaited<ReturnType<typeof startArca>> | undefined;
  try {
    const file = join(work, "generated-100k.xml");
    const bytes = await writeEad(file);
    log(`wrote ${file}: ${int(COMPONENTS)} components, ${mib(bytes)}`);
    arca = await startArca(engine.uri, join(work, "arca"));
    const agent = new http.Agent({ keepAlive: true });
    const login = await httpJson(agent, arca.port, "POST", `/users/admin/login?password=${ADMIN_PASSWORD}`);
    const token = login.json.session as string;
    const repo = await httpJson(agent, arca.port, "POST", "/repositories", token, {
      repo_code: "bench",
      name: "Bench",
    });
    check(repo.status === 200, `repository: ${JSON.stringify(repo.json)}`);
    const quiet = await waitForQuiet();

    // The command, sampled every 25 ms: its RSS when the store is open (the baseline) and its peak.
    const started = performance.now();
    const profileDir = join(work, "profile");
    const cli = spawn(
      process.execPath,
      [
        ...(process.env.CLI_NODE_ARGS ?? IMPORT_NODE_ARGS).split(" ").filter(Boolean),
        ...(PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
        CLI,
        "--repo",
        String(repo.json.id),
        "--format",
        "ead",
        file,
      ],
      {
        env: { ...process.env, MONGODB_URI: engine.uri, MONGODB_DB: "arca" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    let baseline: number | undefined;
    let peak = 0;
    const engineBefore = procMemory(engine.pid).rss;
    let enginePeak = engineBefore;
    cli.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    cli.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (baseline === undefined && stderr.includes("store:")) baseline = procMemory(cli.pid!).rss;
    });
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, procMemory(cli.pid!).rss);
        enginePeak = Math.max(enginePeak, procMemory(engine.pid).rss);
      } catch {
        // the command has exited
      }
    }, 25);
    await exited(cli);
    clearInterval(sampler);
    const wallSeconds = (performance.now() - started) / 1000;
    check(cli.exitCode === 0, `the import failed (exit ${cli.exitCode}): ${stdout}\n${stderr}`);
    const importSeconds = Number(/imported in ([\d.]+) s/.exec(stdout)?.[1]);
    check(Number.isFinite(importSeconds), `no import time in: ${stdout}`);

    // What arrived, through the API.
    const resources = await httpJson(agent, arca.port, "GET", `/repositories/${repo.json.id}/resources?page=1`, token);
    const resource = resources.json.results[0] as { uri: string; title: string };
    const root = await httpJson(agent, arca.port, "GET", `${resource.uri}/tree/root`, token);
    const objects = await httpJson(
      agent,
      arca.port,
      "GET",
      `/repositories/${repo.json.id}/archival_objects?page=1&page_size=1`,
      token,
    );
    check(root.json.child_count === SERIES, `tree/root child_count ${root.json.child_count}`);
    check(objects.json.total === COMPONENTS, `archival objects: ${objects.json.total}`);
    const containers = await httpJson(
      agent,
      arca.port,
      "GET",
      `/repositories/${repo.json.id}/top_containers?page=1&page_size=1`,
      token,
    );

    const perSecond = COMPONENTS / importSeconds;
    const growth = peak - (baseline ?? peak);
    const rows = [
      [
        "generated EAD",
        `${int(COMPONENTS)} components (${SERIES} series x ${FILES_PER_SERIES} files), ${mib(bytes)}, ${int(containers.json.total)} top containers`,
        "",
        "",
      ],
      [
        "import (one pass: read, check and write), as the command reports it",
        `${importSeconds.toFixed(1)} s = ${int(perSecond)} components/s`,
        `>= ${int(TARGET_PER_SECOND)}/s`,
        perSecond >= TARGET_PER_SECOND ? "yes" : "**NO**",
      ],
      ["command wall time (start, store, import, exit)", `${wallSeconds.toFixed(1)} s`, "", ""],
      [
        "command RSS: at store open / peak / growth",
        `${mib(baseline ?? 0)} / ${mib(peak)} / ${mib(growth)}`,
        `growth < ${mib(RSS_GROWTH_LIMIT)}`,
        growth < RSS_GROWTH_LIMIT ? "yes" : "**NO**",
      ],
      ["engine RSS before / peak", `${mib(engineBefore)} / ${mib(enginePeak)}`, "", ""],
    ];
    const facts = machineFacts("npm run bench:import");
    const table = [
      "| Measurement | Result | Target | Met? |",
      "|---|---|---|---|",
      ...rows.map((row) => `| ${row.join(" | ")} |`),
    ].join("\n");
    process.stdout.write(
      `\n## Import benchmark (${new Date().toISOString()})\n\n- Machine: ${facts.cpu}, ${facts.cores} cores, ${facts.totalMemory} RAM, ${facts.platform}, Node ${facts.node}; ${quiet.idlePercent} % idle before the run\n- Command output:\n\n\`\`\`\n${stdout.trim()}\n\`\`\`\n\n${table}\n`,
    );
    if (PROFILE) {
      const [name] = await readdir(profileDir);
      const summary = summariseProfile(
        JSON.parse(await readFile(join(profileDir, name as string), "utf8")) as CpuProfile,
        undefined,
        COMPONENTS,
      );
      process.stdout.write(`\n### The command's CPU profile (${int(summary.busyMicros / 1000)} ms busy)\n\n`);
      for (const [title, ranked] of [
        ["by module", summary.byHome],
        ["self time", summary.selfTop],
        ["inclusive", summary.inclusiveTop],
      ] as const) {
        process.stdout.write(
          `${title}:\n${ranked
            .slice(0, 25)
            .map((r) => `  ${r.percent.toFixed(1).padStart(5)}%  ${r.key}`)
            .join("\n")}\n`,
        );
      }
    }
    const out = await writeResults(PROFILE ? "import-profile.json" : "import.json", {
      facts,
      bytes,
      importSeconds,
      wallSeconds,
      perSecond,
      baseline,
      peak,
      growth,
      engineBefore,
      enginePeak,
      stdout,
    });
    log(`JSON: ${out}`);
  } finally {
    await arca?.stop();
    await engine.stop();
    await rm(work, { recursive: true, force: true });
  }
}

bench().catch((error: unknown) => {
  process.stderr.write(`bench-import: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
