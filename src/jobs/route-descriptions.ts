// How the job routes (routes.ts) are described in /openapi.json.
import {
  commonResponses,
  idPathParameter,
  jsonContent,
  jsonResponse,
  notFoundResponse,
  responseRef,
  type DocumentContext,
  type Parameter,
  type Schema,
  type Tag,
} from "../http/api-description.js";
import type { RouteOperation } from "../http/described-route.js";
import { JOB_STATUSES } from "./job-queue.js";
import { JOB_TYPES, MAX_JOB_FILES } from "./job-types.js";
import { REPORTS } from "./reports.js";

const JOBS: Tag = {
  name: "jobs",
  description:
    "Long work outside the request: imports of any size and CSV reports, run by workers that claim jobs from the " +
    "store (any node's worker runs any node's job). A job's imports are all or nothing, across crashes of its worker.",
};

const repoParameter = idPathParameter("repo_id", "The repository's id.");
const jobParameter = idPathParameter("id", "The job's id.");

const JOB_SCHEMA: Schema = {
  type: "object",
  required: ["jsonmodel_type", "id", "uri", "job_type", "job", "owner", "status", "time_submitted"],
  properties: {
    jsonmodel_type: { const: "job" },
    id: { type: "integer" },
    uri: { type: "string" },
    job_type: { type: "string", enum: [...JOB_TYPES] },
    job: {
      type: "object",
      description:
        "`{jsonmodel_type: import_job, import_type, filenames}` or `{jsonmodel_type: report_job, report_type, format}`",
    },
    owner: { type: "string" },
    status: { type: "string", enum: [...JOB_STATUSES] },
    time_submitted: { type: "string", format: "date-time" },
    time_started: { type: "string", format: "date-time" },
    time_finished: { type: "string", format: "date-time" },
    queue_position: { type: "integer", description: "A queued job's place in the queue (1: next)." },
    attempts: { type: "integer", description: "Runs begun; more than one when a worker died running it." },
    progress: {
      type: "object",
      description: "A running job's records handled and bytes of its file read, of `size`.",
      properties: { records: { type: "integer" }, bytes: { type: "integer" }, size: { type: "integer" } },
    },
  },
};

const jobRef = (ctx: DocumentContext) => ctx.component("Job", JOB_SCHEMA);

const CREATED = {
  type: "object",
  required: ["status", "id", "uri"],
  properties: {
    status: { const: "Created" },
    id: { type: "integer" },
    uri: { type: "string" },
    lock_version: { type: "integer" },
    warnings: { type: "array", items: { type: "string" } },
  },
} satisfies Schema;

const JOB_BODY_EXAMPLE = {
  jsonmodel_type: "job",
  job_type: "report_job",
  job: { jsonmodel_type: "report_job", report_type: "accession_report", format: "csv" },
};

function op(
  ctx: DocumentContext,
  operationId: string,
  summary: string,
  description: string,
  permission: string | null,
  rest: Partial<RouteOperation> = {},
  withJob = true,
): RouteOperation {
  return {
    operationId,
    summary,
    description,
    tag: JOBS,
    pathParameters: withJob ? [repoParameter, jobParameter] : [repoParameter],
    security: ctx.security(permission),
    ...rest,
    responses: {
      "403": responseRef("AccessDenied"),
      "404": notFoundResponse(ctx, withJob ? ["Job", "Repository"] : ["Repository"]),
      ...commonResponses(),
      ...rest.responses,
    },
  };
}

const pageParameters: Parameter[] = [
  { name: "page", in: "query", required: true, description: "The page, from 1.", schema: { type: "integer" } },
  { name: "page_size", in: "query", description: "Items per page (default 10).", schema: { type: "integer" } },
];

const page = (items: Schema): Schema => ({
  type: "object",
  required: ["first_page", "last_page", "this_page", "total", "results"],
  properties: {
    first_page: { type: "integer" },
    last_page: { type: "integer" },
    this_page: { type: "integer" },
    total: { type: "integer" },
    results: { type: "array", items },
  },
});

export const describeCreate = (ctx: DocumentContext): RouteOperation =>
  op(
    ctx,
    "create_job",
    "Submit a job without files (a report)",
    "The job JSON as the body. A report job needs `create_job` and the report's own permission (`manage_users` " +
      "for the user report); an import job takes files, so it is sent to `jobs_with_files`. Answers at once: the " +
      `job is queued. Reports: ${[...REPORTS.keys()].join(", ")}.`,
    "create_job",
    {
      requestBody: { required: true, content: jsonContent({ type: "object" }, JOB_BODY_EXAMPLE) },
      responses: {
        "200": jsonResponse("Queued.", CREATED),
        "400": responseRef("BadRequest"),
        "413": responseRef("TooLarge"),
      },
    },
    false,
  );

export const describeCreateWithFiles = (ctx: DocumentContext): RouteOperation =>
  op(
    ctx,
    "create_job_with_files",
    "Submit an import job with its files",
    'A multipart/form-data body: the field `job` (the job JSON, e.g. `{"job_type": "import_job", "job": ' +
      '{"jsonmodel_type": "import_job", "import_type": "ead_xml", "filenames": ["a.xml"]}}`) and the files as ' +
      `\`files[]\` parts (at most ${MAX_JOB_FILES}, each at most JOB_FILE_LIMIT_BYTES). The files are streamed ` +
      "into the store, never held in memory; the request answers once they are stored and the job queued. Needs " +
      "`import_records`, checked before any of the body is read.",
    "import_records",
    {
      requestBody: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: {
              type: "object",
              required: ["job"],
              properties: {
                job: { type: "string", description: "The job JSON." },
                "files[]": { type: "array", items: { type: "string", format: "binary" } },
              },
            },
          },
        },
      },
      responses: {
        "200": jsonResponse("Queued.", CREATED),
        "400": responseRef("BadRequest"),
        "413": responseRef("TooLarge"),
      },
    },
    false,
  );

export const describeJobTypes = (ctx: DocumentContext, repository: boolean): RouteOperation => ({
  ...op(
    ctx,
    repository ? "repository_job_types" : "job_types",
    "The job types",
    "The job types a job may be, with the import types and reports each takes.",
    null,
    { responses: { "200": jsonResponse("The types.", { type: "object" }) } },
    false,
  ),
  ...(!repository && { pathParameters: [] }),
});

export const describeImportTypes = (ctx: DocumentContext): RouteOperation =>
  op(
    ctx,
    "job_import_types",
    "The import types an import job may name",
    "ArchivesSpace's converter names (ead_xml, marcxml, eac_xml, accession_csv) and Arca's format names.",
    null,
    { responses: { "200": jsonResponse("The types.", { type: "array", items: { type: "object" } }) } },
    false,
  );

export const describeList = (ctx: DocumentContext): RouteOperation =>
  op(
    ctx,
    "list_jobs",
    "A repository's jobs, newest first, paged",
    "Needs `view_repository`.",
    "view_repository",
    {
      parameters: pageParameters,
      responses: { "200": jsonResponse("A page of jobs.", page(jobRef(ctx))), "400": responseRef("BadRequest") },
    },
    false,
  );

export const describeActive = (ctx: DocumentContext): RouteOperation =>
  op(
    ctx,
    "active_jobs",
    "A repository's running and queued jobs",
    "Running jobs newest first, then queued ones oldest (next) first, as ArchivesSpace lists them. Needs `view_repository`.",
    "view_repository",
    { responses: { "200": jsonResponse("The jobs.", { type: "array", items: jobRef(ctx) }) } },
    false,
  );

export const describeArchived = (ctx: DocumentContext): RouteOperation =>
  op(
    ctx,
    "archived_jobs",
    "A repository's ended jobs, latest ended first, paged",
    "Completed, failed and canceled jobs. Needs `view_repository`.",
    "view_repository",
    {
      parameters: pageParameters,
      responses: { "200": jsonResponse("A page of jobs.", page(jobRef(ctx))), "400": responseRef("BadRequest") },
    },
    false,
  );

export const describeRead = (ctx: DocumentContext): RouteOperation =>
  op(ctx, "read_job", "A job", "Needs `view_repository`.", "view_repository", {
    responses: { "200": jsonResponse("The job.", jobRef(ctx)) },
  });

export const describeLog = (ctx: DocumentContext): RouteOperation =>
  op(
    ctx,
    "job_log",
    "A job's log, from a byte offset",
    "The log as text, from byte `offset` to its end as it is now: while the job runs, ask again with the length " +
      "read so far. Needs `view_repository`.",
    "view_repository",
    {
      parameters: [
        {
          name: "offset",
          in: "query",
          description: "The byte offset to start from (default 0).",
          schema: { type: "integer", minimum: 0 },
        },
      ],
      responses: {
        "200": { description: "The log's text.", content: { "text/plain": { schema: { type: "string" } } } },
        "400": responseRef("BadRequest"),
      },
    },
  );

export const describeOutputFiles = (ctx: DocumentContext): RouteOperation =>
  op(
    ctx,
    "job_output_files",
    "The ids of a job's output files",
    "A report's CSV; an import's summary (JSON). Needs `view_repository`.",
    "view_repository",
    { responses: { "200": jsonResponse("The ids.", { type: "array", items: { type: "integer" } }) } },
  );

export const describeOutputFile = (ctx: DocumentContext): RouteOperation => ({
  ...op(ctx, "job_output_file", "One of a job's output files", "Needs `view_repository`.", "view_repository", {
    responses: {
      "200": { description: "The file, streamed, with its type and name.", content: { "*/*": { schema: {} } } },
    },
  }),
  pathParameters: [repoParameter, jobParameter, idPathParameter("file_id", "The file's id.")],
});

export const describeRecords = (ctx: DocumentContext): RouteOperation =>
  op(
    ctx,
    "job_records",
    "The records a job created, paged",
    "Each as `{record: {ref}}`, in the order written. Needs `view_repository`.",
    "view_repository",
    {
      parameters: pageParameters,
      responses: {
        "200": jsonResponse(
          "A page of created records.",
          page({ type: "object", properties: { record: { type: "object", properties: { ref: { type: "string" } } } } }),
        ),
        "400": responseRef("BadRequest"),
      },
    },
  );

export const describeCancel = (ctx: DocumentContext): RouteOperation =>
  op(
    ctx,
    "cancel_job",
    "Cancel a job",
    "A queued job is canceled at once; a running one stops before its next batch and what it wrote is undone " +
      "(its status turns `canceled` when it has). Canceling an ended job changes nothing. Needs `cancel_job`.",
    "cancel_job",
    { responses: { "200": jsonResponse("The job after.", jobRef(ctx)) } },
  );

export const describeDelete = (ctx: DocumentContext): RouteOperation =>
  op(
    ctx,
    "delete_job",
    "Delete an ended job, its log and files",
    "The records it created stay. A queued or running job is a 409: cancel it first. Needs `cancel_job`.",
    "cancel_job",
    {
      responses: {
        "200": jsonResponse("Deleted.", ctx.fixedRef("DeleteResult")),
        "409": jsonResponse("The job is active.", ctx.fixedRef("Error")),
      },
    },
  );
