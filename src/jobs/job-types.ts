// The kinds of job and what a job's JSON asks for, as ArchivesSpace's job schema has it:
//   {"jsonmodel_type": "job", "job_type": "import_job",
//    "job": {"jsonmodel_type": "import_job", "import_type": "ead_xml", "filenames": ["a.xml"]}}
//   {"job_type": "report_job", "job": {"jsonmodel_type": "report_job", "report_type": "accession_report",
//    "format": "csv"}}
// Only the fields named here are read (ArchivesSpace's others, such as import_events, are ignored: nothing the sender
// names becomes a key of anything). An import type is ArchivesSpace's name for a converter or Arca's own format name.
import { badRequest } from "../errors/api-error.js";
import { lookupTable } from "../registry/dictionary.js";
import { supportedFormats } from "../importers/formats.js";
import type { ImportFormat } from "../importers/pending.js";
import { REPORTS } from "./reports.js";

export const JOB_TYPES = ["import_job", "report_job"] as const;
export type JobType = (typeof JOB_TYPES)[number];

export interface ImportJobSpec {
  job_type: "import_job";
  /** As the job named it (shown back). */
  import_type: string;
  /** The formats the import type may be (EAD 2002 or EAD3 for ead_xml: told from each file). */
  formats: ImportFormat[];
}

export interface ReportJobSpec {
  job_type: "report_job";
  report_type: string;
  format: "csv";
}

export type JobSpec = ImportJobSpec | ReportJobSpec;

/** ArchivesSpace's import types, as the formats Arca reads them in. */
const ASPACE_IMPORT_TYPES = lookupTable({
  ead_xml: ["ead", "ead3"],
  marcxml: ["marcxml"],
  eac_xml: ["eac"],
  accession_csv: ["csv"],
} satisfies Record<string, ImportFormat[]>);

/** Every import type a job may name, with the formats it reads. */
export function importTypes(): Map<string, ImportFormat[]> {
  const supported = supportedFormats();
  const types = new Map<string, ImportFormat[]>();
  for (const [name, formats] of Object.entries(ASPACE_IMPORT_TYPES)) {
    const usable = formats.filter((format) => supported.includes(format));
    if (usable.length > 0) types.set(name, usable);
  }
  for (const format of supported) types.set(format, [format]);
  return types;
}

/** The most files one job takes. */
export const MAX_JOB_FILES = 20;
const MAX_NAME = 255;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringAt(holder: Record<string, unknown>, key: string): string | undefined {
  const value = Object.hasOwn(holder, key) ? holder[key] : undefined;
  return typeof value === "string" ? value : undefined;
}

/**
 * The job a body asks for. `fileCount` is how many files came with it (jobs_with_files; 0 for POST …/jobs).
 * @throws ApiError 400 naming each problem
 */
export function parseJob(body: unknown, fileCount: number): JobSpec {
  if (!isObject(body)) throw badRequest({ job: ["A job object is required"] });
  const inner = Object.hasOwn(body, "job") ? body.job : undefined;
  if (!isObject(inner)) throw badRequest({ job: ["Property is required but was missing: the job's own object"] });
  const named = stringAt(body, "job_type");
  const model = stringAt(inner, "jsonmodel_type");
  const jobType = named ?? model;
  if (named !== undefined && model !== undefined && named !== model)
    throw badRequest({ job_type: [`Says ${named} but job.jsonmodel_type says ${model}`] });
  if (jobType === "import_job") return parseImportJob(inner, fileCount);
  if (jobType === "report_job") return parseReportJob(inner, fileCount);
  throw badRequest({ job_type: [`Must be one of: ${JOB_TYPES.join(", ")}`] });
}

function parseImportJob(job: Record<string, unknown>, fileCount: number): ImportJobSpec {
  const importType = stringAt(job, "import_type");
  const types = importTypes();
  const formats = importType === undefined ? undefined : types.get(importType);
  if (importType === undefined || formats === undefined)
    throw badRequest({ "job/import_type": [`Must be one of: ${[...types.keys()].join(", ")}`] });
  if (fileCount === 0)
    throw badRequest({
      files: ["An import job takes its files: POST them with the job to /repositories/:repo_id/jobs_with_files"],
    });
  return { job_type: "import_job", import_type: importType, formats };
}

function parseReportJob(job: Record<string, unknown>, fileCount: number): ReportJobSpec {
  const reportType = stringAt(job, "report_type");
  if (reportType === undefined || !REPORTS.has(reportType))
    throw badRequest({ "job/report_type": [`Must be one of: ${[...REPORTS.keys()].join(", ")}`] });
  const format = stringAt(job, "format") ?? "csv";
  if (format !== "csv") throw badRequest({ "job/format": ["Must be csv"] });
  if (fileCount > 0) throw badRequest({ files: ["A report job takes no files"] });
  return { job_type: "report_job", report_type: reportType, format };
}

/** A file's name as a job shows it: its last path segment, bounded, or `file-N`. */
export function fileName(given: string | undefined, index: number): string {
  const base = (given ?? "").split(/[\\/]/).pop() ?? "";
  return base === "" ? `file-${index + 1}` : base.slice(0, MAX_NAME);
}
