// npm run import -- --repo 2 [--format ead|ead3|marcxml|eac|csv|aspace-json] [--dry-run] [--user admin]
//                    [--report FILE] <files...>
//
// Imports files into a repository through the record operations, each file all or nothing,
// and prints a summary per file (records created and reused per type, warnings and errors
// located in the source). The store is the service's: MONGODB_URI, or the embedded engine a
// running Arca started on DATA_DIR (shared over its socket), or else the engine started here.
// ArchivesSpace JSON files given together are one batch: their records may link to each other.
// --report FILE writes every warning with its place, the errors and the fidelity report of each
// file as CSV (import-report.ts). Exit status: 0 when every file was imported (or skipped as
// imported before), 1 otherwise.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { parseArgs } from "node:util";
import { assertRepositoryTakesRecords } from "../auth/hidden-repository.js";
import { trusted } from "../auth/actor.js";
import { loadConfig } from "../config.js";
import { messageOf } from "../registry/errors.js";
import { openRecords } from "../records/setup.js";
import { attachToRunningEngine, openStore } from "../storage/store.js";
import { importFile, type ImportProgress } from "./committer.js";
import { detectFileFormat, isImportFormat, parserFor, supportedFormats } from "./formats.js";
import { FIDELITY_CATEGORIES, shortfalls } from "./fidelity.js";
import { ImportReport } from "./import-report.js";
import type { ImportFormat, ImportInput, ImportMessage, ImportSummary } from "./pending.js";
import { describeRecovery, recoverImports } from "./recovery.js";

const USAGE =
  "usage: npm run import -- --repo <id> [--format <format>] [--dry-run] [--user <username>] " +
  "[--report <file.csv>] <files...>";

function fail(message: string): never {
  process.stderr.write(`arca import: ${message}\n${USAGE}\n`);
  process.exit(2);
}

/** Several files read one after another as one input (an ArchivesSpace batch split over files). */
function together(paths: readonly string[]): ImportInput {
  return {
    name: paths.map((path) => basename(path)).join(" + "),
    open(): Readable {
      const out = new PassThrough();
      void (async () => {
        for (const path of paths) {
          for await (const chunk of createReadStream(path)) out.write(chunk);
          out.write("\n");
        }
        out.end();
      })().catch((error: unknown) => out.destroy(error as Error));
      return out;
    },
  };
}

/**
 * Progress on a terminal, rewritten in place: records so far and, when the file's size is known, a bar of how much of
 * it has been read (an import reads a file once, so there is no record total to count towards); nothing when not a
 * terminal.
 */
function progress(file: string, dryRun: boolean): (update: ImportProgress) => void {
  if (!process.stderr.isTTY) return () => undefined;
  let last = 0;
  return ({ records, bytes, size }) => {
    const now = Date.now();
    if (now - last < 100) return;
    last = now;
    const count = `${records.toLocaleString("en-US")} records ${dryRun ? "checked" : "imported"}`;
    if (size === undefined || size === 0) {
      process.stderr.write(`\r${file}: ${count}`);
      return;
    }
    const width = 30;
    const share = Math.min(1, bytes / size);
    const done = Math.round(share * width);
    process.stderr.write(
      `\r${file}: [${"#".repeat(done)}${".".repeat(width - done)}] ${Math.floor(share * 100)} % read, ${count}`,
    );
  };
}

function counts(byType: Record<string, number>): string {
  const entries = Object.entries(byType);
  return entries.length === 0 ? "none" : entries.map(([type, n]) => `${n.toLocaleString("en-US")} ${type}`).join(", ");
}

function report(summary: ImportSummary, seconds: number): void {
  const out = process.stdout;
  const verb = summary.dryRun ? "would create" : "created";
  out.write(
    `${summary.file} (${summary.format}): ${summary.dryRun && summary.outcome === "imported" ? "checked (dry run)" : summary.outcome} in ${seconds.toFixed(1)} s\n`,
  );
  if (summary.outcome !== "failed") {
    out.write(`  ${verb}: ${counts(summary.created)}\n`);
    if (Object.keys(summary.reused).length > 0) out.write(`  reused existing: ${counts(summary.reused)}\n`);
  }
  const where = (m: { file: string; line?: number; column?: number; path?: string }) =>
    [m.file, m.line, m.column].filter((part) => part !== undefined).join(":") + (m.path ? ` ${m.path}` : "");
  if (summary.fidelity !== undefined) {
    const lines = FIDELITY_CATEGORIES.flatMap((category) => {
      const line = summary.fidelity?.[category];
      return line === undefined ? [] : [`${category.replace("_", " ")} ${line.imported}/${line.source}`];
    });
    const short = shortfalls(summary.fidelity);
    out.write(`  fidelity (imported/in the source): ${lines.join(", ")}\n`);
    if (short.length > 0) out.write(`  short of the source: ${short.join(", ")}\n`);
  }
  for (const warning of summary.warnings) out.write(`  warning: ${where(warning)}: ${warning.message}\n`);
  for (const error of summary.errors) out.write(`  error: ${where(error)}: ${error.message}\n`);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      repo: { type: "string" },
      format: { type: "string" },
      "dry-run": { type: "boolean", default: false },
      user: { type: "string", default: "admin" },
      report: { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      `${USAGE}\nformats: ${supportedFormats().join(", ")} (detected from the file when --format is left out)\n`,
    );
    return;
  }
  const repoId = Number(values.repo);
  if (!Number.isSafeInteger(repoId) || repoId < 1) fail("--repo <repository id> is required");
  try {
    assertRepositoryTakesRecords(repoId);
  } catch (error) {
    fail(`--repo ${repoId}: ${messageOf(error)}`);
  }
  if (positionals.length === 0) fail("no files to import");
  const asked = values.format;
  if (asked !== undefined && !(isImportFormat(asked) && supportedFormats().includes(asked)))
    fail(`--format must be one of ${supportedFormats().join(", ")}`);

  // Each file with its format; ArchivesSpace JSON files become one input.
  const jobs: Array<{ format: ImportFormat; input: ImportInput }> = [];
  const batch: string[] = [];
  for (const path of positionals) {
    const format =
      (asked as ImportFormat | undefined) ?? (await detectFileFormat(path).catch(() => fail(`cannot read ${path}`)));
    if (format === undefined) fail(`cannot tell the format of ${path}: give --format`);
    if (format === "aspace-json") batch.push(path);
    else {
      const { size } = await stat(path).catch(() => fail(`cannot read ${path}`));
      jobs.push({ format, input: { name: basename(path), open: () => createReadStream(path), size } });
    }
  }
  if (batch.length > 0) jobs.unshift({ format: "aspace-json", input: together(batch) });

  const config = loadConfig();
  const store = (await attachToRunningEngine(config.store)) ?? (await openStore(config.store));
  process.stderr.write(`arca import: store: ${store.description}\n`);
  let failed = 0;
  const reportFile = values.report === undefined ? undefined : new ImportReport(values.report);
  try {
    const operations = await openRecords(store.connection, config.records);
    await operations
      .read(operations.deps.registry.scopeHolderType().name, {}, repoId, trusted("arca import"))
      .catch(() => fail(`repository ${repoId} does not exist`));
    for (const line of describeRecovery(await recoverImports(operations, config.imports)))
      process.stderr.write(`arca import: ${line}\n`);
    for (const { format, input } of jobs) {
      const started = performance.now();
      const summary = await importFile(operations, parserFor(format, operations.deps, config.imports), input, {
        limits: config.imports,
        repoId,
        // Whoever runs the command line already holds the store.
        actor: trusted(values.user ?? "admin"),
        dryRun: values["dry-run"],
        onProgress: progress(input.name, values["dry-run"] === true),
        ...(reportFile !== undefined && { onWarning: (warning: ImportMessage) => reportFile.warning(warning) }),
      });
      reportFile?.finished(summary);
      if (process.stderr.isTTY) process.stderr.write("\r\u001b[K");
      report(summary, (performance.now() - started) / 1000);
      if (summary.outcome === "failed") failed += 1;
    }
  } finally {
    await reportFile?.close();
    await store.close();
  }
  process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((error: unknown) => {
  process.stderr.write(`arca import: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
