// Benchmark of the import, through the command (`node dist/src/importers/cli.js`, what
// `npm run import` runs, with its node flags) into an embedded engine (its own process) that a
// running Arca uses:
// - a generated EAD 2002 finding aid with 100,000 components (100 series of 999 files, with
//   containers, dates, agents, subjects and a note per file, over 50 MB): components per second
//   and the command's RSS (peak, and growth over its RSS when the import starts), the result
//   checked through the API;
// - a generated 5,000-row accession CSV in the layout of ArchivesSpace's template (accession-csv.ts),
//   into a repository of its own: the seconds the command reports against the 3 s target, then
//   the same file again (every record matched and reused).
//
//   npm run bench:import
//   npm run bench:import -- --csv-only                   only the CSV (about 30 s on a quiet machine)
//   npm run bench:import -- --profile                    a fifth of the EAD (and the CSV) under --cpu-prof,
//                                                        each profile summarised
//   CLI_NODE_ARGS="<node flags>" npm run bench:import   the command's node flags (default: those
//                                                        `npm run import` uses, a 384 MB old space)
//
// Results are printed as a markdown table and written as JSON to
// $TMPDIR/arca-bench-results/import.json (import-csv.json with --csv-only, import-profile.json with --profile).
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
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
import { writeAccessionCsv } from "./accession-csv.js";
import { writeEad } from "./ead-file.js";

// --profile: a fifth of the EAD, the commands under --cpu-prof, their profiles summarised.
const PROFILE = process.argv.includes("--profile");
const CSV_ONLY = process.argv.includes("--csv-only");
const CSV_ROWS = 5_000;
const CSV_TARGET_SECONDS = 3;
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

/** One run of the import command, as it ran. */
interface CommandRun {
  stdout: string;
  /** The import time the command reports for the file (both passes). */
  importSeconds: number;
  /** Start, store, import, exit. */
  wallSeconds: number;
  /** The command's RSS when its store is open. */
  baseline: number | undefined;
  peak: number;
  growth: number;
  engineBefore: number;
  enginePeak: number;
  /** With --profile: the command's profile. */
  profile?: CpuProfile;
}

/**
 * Runs the import command on one file (sampling its RSS every 25 ms: its RSS when the store is open, the baseline,
 * and its peak) and checks that it succeeded.
 */
async function runCommand(engine: { uri: string; pid: number }, repoId: number, format: string, file: string) {
  const started = performance.now();
  const profileDir = await mkdtemp(join(os.tmpdir(), "arca-bench-import-profile-"));
  try {
    const cli = spawn(
      process.execPath,
      [
        ...(process.env.CLI_NODE_ARGS ?? IMPORT_NODE_ARGS).split(" ").filter(Boolean),
        ...(PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
        CLI,
        "--repo",
        String(repoId),
        "--format",
        format,
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
    const run: CommandRun = {
      stdout,
      importSeconds,
      wallSeconds,
      baseline,
      peak,
      growth: peak - (baseline ?? peak),
      engineBefore,
      enginePeak,
    };
    if (PROFILE) {
      const [name] = await readdir(profileDir);
      run.profile = JSON.parse(await readFile(join(profileDir, name as string), "utf8")) as CpuProfile;
    }
    return run;
  } finally {
    await rm(profileDir, { recursive: true, force: true });
  }
}

/** A profile summarised by module and function, as printed. */
function profileText(title: string, profile: CpuProfile, units: number): string {
  const summary = summariseProfile(profile, undefined, units);
  const ranked = [
    ["by module", summary.byHome],
    ["self time", summary.selfTop],
    ["inclusive", summary.inclusiveTop],
  ] as const;
  return `\n### ${title} (${int(summary.busyMicros / 1000)} ms busy)\n\n${ranked
    .map(
      ([heading, rows]) =>
        `${heading}:\n${rows
          .slice(0, 25)
          .map((r) => `  ${r.percent.toFixed(1).padStart(5)}%  ${r.key}`)
          .join("\n")}\n`,
    )
    .join("")}`;
}

interface Service {
  agent: http.Agent;
  port: number;
  token: string;
  engine: { uri: string; pid: number };
  work: string;
}

interface Scenario {
  /** How idle the machine was just before the scenario's first import (waitForQuiet). */
  idlePercent: number;
  rows: string[][];
  output: string;
  profiles: string[];
  json: Record<string, unknown>;
}

async function createRepository(service: Service, code: string, name: string): Promise<number> {
  const repo = await httpJson(service.agent, service.port, "POST", "/repositories", service.token, {
    repo_code: code,
    name,
  });
  check(repo.status === 200, `repository: ${JSON.stringify(repo.json)}`);
  return repo.json.id as number;
}

/** The total of a listing through the API. */
async function total(service: Service, path: string): Promise<number> {
  const page = await httpJson(service.agent, service.port, "GET", `${path}?page=1&page_size=1`, service.token);
  check(page.status === 200, `${path}: ${JSON.stringify(page.json)}`);
  return page.json.total as number;
}

async function eadScenario(service: Service): Promise<Scenario> {
  const file = join(service.work, "generated-100k.xml");
  const bytes = await writeEad(file, { series: SERIES, filesPerSeries: FILES_PER_SERIES, filesPerBox: FILES_PER_BOX });
  log(`wrote ${file}: ${int(COMPONENTS)} components, ${mib(bytes)}`);
  const repoId = await createRepository(service, "bench", "Bench");
  const quiet = await waitForQuiet();
  const run = await runCommand(service.engine, repoId, "ead", file);

  // What arrived, through the API.
  const { agent, port, token } = service;
  const resources = await httpJson(agent, port, "GET", `/repositories/${repoId}/resources?page=1`, token);
  const resource = resources.json.results[0] as { uri: string; title: string };
  const root = await httpJson(agent, port, "GET", `${resource.uri}/tree/root`, token);
  const objects = await total(service, `/repositories/${repoId}/archival_objects`);
  check(root.json.child_count === SERIES, `tree/root child_count ${root.json.child_count}`);
  check(objects === COMPONENTS, `archival objects: ${objects}`);
  const containers = await total(service, `/repositories/${repoId}/top_containers`);

  const perSecond = COMPONENTS / run.importSeconds;
  return {
    idlePercent: quiet.idlePercent,
    rows: [
      [
        "generated EAD",
        `${int(COMPONENTS)} components (${SERIES} series x ${FILES_PER_SERIES} files), ${mib(bytes)}, ${int(containers)} top containers`,
        "",
        "",
      ],
      [
        "import (one pass: read, check and write), as the command reports it",
        `${run.importSeconds.toFixed(1)} s = ${int(perSecond)} components/s`,
        `>= ${int(TARGET_PER_SECOND)}/s`,
        perSecond >= TARGET_PER_SECOND ? "yes" : "**NO**",
      ],
      ["command wall time (start, store, import, exit)", `${run.wallSeconds.toFixed(1)} s`, "", ""],
      [
        "command RSS: at store open / peak / growth",
        `${mib(run.baseline ?? 0)} / ${mib(run.peak)} / ${mib(run.growth)}`,
        `growth < ${mib(RSS_GROWTH_LIMIT)}`,
        run.growth < RSS_GROWTH_LIMIT ? "yes" : "**NO**",
      ],
      ["engine RSS before / peak", `${mib(run.engineBefore)} / ${mib(run.enginePeak)}`, "", ""],
    ],
    output: run.stdout,
    profiles: run.profile ? [profileText("The EAD import's CPU profile", run.profile, COMPONENTS)] : [],
    json: {
      idlePercent: quiet.idlePercent,
      bytes,
      importSeconds: run.importSeconds,
      wallSeconds: run.wallSeconds,
      perSecond,
      baseline: run.baseline,
      peak: run.peak,
      growth: run.growth,
      engineBefore: run.engineBefore,
      enginePeak: run.enginePeak,
      stdout: run.stdout,
    },
  };
}

/** The command's output without its warnings (a register's unmapped columns warn on many rows), counted instead. */
function briefly(stdout: string): string {
  const lines = stdout.trim().split("\n");
  const warnings = lines.filter((line) => line.startsWith("  warning: ")).length;
  const rest = lines.filter((line) => !line.startsWith("  warning: "));
  return [...rest, ...(warnings > 0 ? [`  (${int(warnings)} warnings left out here)`] : [])].join("\n");
}

async function csvScenario(service: Service): Promise<Scenario> {
  const file = join(service.work, `accessions-${CSV_ROWS}.csv`);
  const csv = await writeAccessionCsv(file, CSV_ROWS);
  log(
    `wrote ${file}: ${int(csv.rows)} rows naming ${csv.agents} agents and ${csv.subjects} subjects, ${mib(csv.bytes)}`,
  );
  const repoId = await createRepository(service, "bench-csv", "Bench CSV");
  const quiet = await waitForQuiet();
  const first = await runCommand(service.engine, repoId, "csv", file);
  const accessions = await total(service, `/repositories/${repoId}/accessions`);
  check(accessions === CSV_ROWS, `accessions: ${accessions}`);
  // Agents and subjects are global: only this scenario's, since it creates them first or alone.
  const createdLine = /^\s*created: (.*)$/m.exec(first.stdout)?.[1] ?? "";
  const created = (type: string) =>
    Number(new RegExp(`([\\d,]+) ${type}(?:,|$)`).exec(createdLine)?.[1]?.replace(/,/g, "") ?? 0);
  const agents = created("agent_person") + created("agent_corporate_entity") + created("agent_family");
  check(agents === csv.agents, `agents created: ${agents}, the file names ${csv.agents}`);
  check(created("subject") === csv.subjects, `subjects created: ${created("subject")}, the file names ${csv.subjects}`);
  // The same file again: every accession, agent and subject matched and reused, nothing created.
  const again = await runCommand(service.engine, repoId, "csv", file);
  check(/created: none/.test(again.stdout), `the second import created records: ${again.stdout}`);
  check(
    (await total(service, `/repositories/${repoId}/accessions`)) === CSV_ROWS,
    "accessions after the second import",
  );

  const met = first.importSeconds <= CSV_TARGET_SECONDS;
  return {
    idlePercent: quiet.idlePercent,
    rows: [
      [
        "generated accession CSV",
        `${int(CSV_ROWS)} rows (ArchivesSpace's template), ${csv.agents} agents, ${csv.subjects} subjects, ${mib(csv.bytes)}`,
        "",
        "",
      ],
      [
        "CSV import into an empty repository, as the command reports it",
        `${first.importSeconds.toFixed(1)} s = ${int(CSV_ROWS / first.importSeconds)} rows/s`,
        `<= ${CSV_TARGET_SECONDS} s`,
        met ? "yes" : "**NO**",
      ],
      ["CSV command wall time (start, store, import, exit)", `${first.wallSeconds.toFixed(1)} s`, "", ""],
      ["the same CSV again (everything matched and reused)", `${again.importSeconds.toFixed(1)} s`, "", ""],
      ["CSV command RSS: at store open / peak", `${mib(first.baseline ?? 0)} / ${mib(first.peak)}`, "", ""],
    ],
    output: `${briefly(first.stdout)}\n(again:)\n${briefly(again.stdout)}`,
    profiles: [first, again].flatMap((run, i) =>
      run.profile
        ? [profileText(`The CSV import's CPU profile (${["first", "again"][i]})`, run.profile, CSV_ROWS)]
        : [],
    ),
    json: {
      idlePercent: quiet.idlePercent,
      rows: CSV_ROWS,
      bytes: csv.bytes,
      agents: csv.agents,
      subjects: csv.subjects,
      targetSeconds: CSV_TARGET_SECONDS,
      met,
      importSeconds: first.importSeconds,
      wallSeconds: first.wallSeconds,
      againSeconds: again.importSeconds,
      peak: first.peak,
      stdout: first.stdout,
      againStdout: again.stdout,
    },
  };
}

async function bench(): Promise<void> {
  const work = await mkdtemp(join(os.tmpdir(), "arca-bench-import-"));
  const engine = await spawnEngine({ dataDir: join(work, "engine"), fsync: "always" });
  let arca: Awaited<ReturnType<typeof startArca>> | undefined;
  try {
    arca = await startArca(engine.uri, join(work, "arca"));
    const agent = new http.Agent({ keepAlive: true });
    const login = await httpJson(agent, arca.port, "POST", `/users/admin/login?password=${ADMIN_PASSWORD}`);
    const service: Service = { agent, port: arca.port, token: login.json.session as string, engine, work };
    const scenarios: Array<[name: string, Scenario]> = [];
    if (!CSV_ONLY) scenarios.push(["ead", await eadScenario(service)]);
    scenarios.push(["csv", await csvScenario(service)]);

    const facts = machineFacts("npm run bench:import");
    const table = [
      "| Measurement | Result | Target | Met? |",
      "|---|---|---|---|",
      ...scenarios.flatMap(([, scenario]) => scenario.rows.map((row) => `| ${row.join(" | ")} |`)),
    ].join("\n");
    const outputs = scenarios.map(([, scenario]) => scenario.output.trim()).join("\n\n");
    const idle = scenarios
      .map(([name, scenario]) => `${Math.round(scenario.idlePercent)} % idle before the ${name.toUpperCase()} import`)
      .join(", ");
    process.stdout.write(
      `\n## Import benchmark (${new Date().toISOString()})\n\n- Machine: ${facts.cpu}, ${facts.cores} cores, ${facts.totalMemory} RAM, ${facts.platform}, Node ${facts.node}; ${idle}\n- Command output:\n\n\`\`\`\n${outputs}\n\`\`\`\n\n${table}\n`,
    );
    for (const [, scenario] of scenarios) for (const text of scenario.profiles) process.stdout.write(text);
    const out = await writeResults(PROFILE ? "import-profile.json" : CSV_ONLY ? "import-csv.json" : "import.json", {
      facts,
      ...Object.fromEntries(scenarios.map(([name, scenario]) => [name, scenario.json])),
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
