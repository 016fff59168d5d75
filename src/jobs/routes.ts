// The job routes, as ArchivesSpace's job controller has them (under /repositories/:repo_id):
//   POST   jobs                         a job without files (a report)                  create_job
//   POST   jobs_with_files              an import job and its files (multipart)         import_records
//   GET    jobs, jobs/active, jobs/archived, jobs/:id                                    view_repository
//   GET    jobs/:id/log?offset=         the log's text from a byte offset               view_repository
//   GET    jobs/:id/output_files[/:file_id], jobs/:id/records                            view_repository
//   POST   jobs/:id/cancel, DELETE jobs/:id                                               cancel_job
//   GET    jobs/types, jobs/import_types, and /job_types                                 a session
// The routes only queue and read jobs; workers (worker.ts) run them. An upload is streamed into the store (GridFS)
// after the caller's permission and the repository are checked: the body parsers leave it alone (isJobUpload).
import { Controller } from "@tsed/di";
import type { PlatformContext } from "@tsed/platform-http";
import { Context } from "@tsed/platform-params";
import busboy, { type Busboy, type FieldInfo } from "busboy";
import { randomUUID } from "node:crypto";
import type { Filter, Sort } from "mongodb";
import type { Request, Response } from "express";
import type { AccessControl } from "../auth/access-control.js";
import { callerWith } from "../auth/caller.js";
import { hasPermission } from "../auth/permissions.js";
import { accessDenied, ApiError, badRequest, conflict, notFound } from "../errors/api-error.js";
import { Route } from "../http/described-route.js";
import { repoIdParam, repositoryExists, shownRepoId } from "../http/repository-param.js";
import { textProblem } from "../http/text-checks.js";
import { respond } from "../records/http/answer.js";
import {
  pageEnvelope,
  ParamReader,
  readPage,
  requestParameters,
  throwIfAny,
  type PageRequest,
} from "../records/http/list-params.js";
import { idParam } from "../records/http/request-params.js";
import { MAX_PAGE_SIZE, type RecordOperations } from "../records/operations/index.js";
import { FileTooLargeError, type JobFile, type JobFiles } from "./job-files.js";
import { createdUris, jobJson, jobUri } from "./job-json.js";
import { readLog, removeLog } from "./job-log.js";
import { ACTIVE_STATUSES, ActiveJobError, type JobDocument, type JobQueue } from "./job-queue.js";
import { fileName, importTypes, JOB_TYPES, MAX_JOB_FILES, parseJob } from "./job-types.js";
import { REPORTS } from "./reports.js";
import * as describe from "./route-descriptions.js";

const JOBS = "/repositories/:repo_id/jobs";
const JOB = `${JOBS}/:id`;
const JOB_UPLOAD = /^\/repositories\/[^/]+\/jobs_with_files\/?$/;
/** The job JSON of an upload, at most. */
const MAX_JOB_JSON = 1024 * 1024;
const MAX_FIELDS = 10;
/** Jobs /jobs/active lists at most. */
const MAX_ACTIVE = 1_000;
const DEFAULT_JOB_PAGE = 10;

/** Whether a request is a job upload, whose body the body parsers must leave alone. */
export function isJobUpload(req: { method: string; path: string }): boolean {
  return req.method === "POST" && JOB_UPLOAD.test(req.path);
}

export interface JobRouteDeps {
  operations: RecordOperations;
  access: AccessControl;
  queue: JobQueue;
  files: JobFiles;
  /** The largest file an upload may carry. */
  fileLimitBytes: number;
}

interface Upload {
  job: string | undefined;
  files: JobFile[];
}

/**
 * Streams a multipart body's `files[]` parts into the store as the job's inputs and answers them with its `job` field.
 * On any failure what was stored is removed and the rest of the body drained, so the client reads the answer.
 */
async function receive(req: Request, upload: string, files: JobFiles, limit: number): Promise<Upload> {
  let parser: Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: "utf8",
      limits: { files: MAX_JOB_FILES, fields: MAX_FIELDS, fieldSize: MAX_JOB_JSON, parts: MAX_JOB_FILES + MAX_FIELDS },
    });
  } catch (error) {
    throw badRequest(`A multipart/form-data body is required: ${error instanceof Error ? error.message : error}`);
  }
  let job: string | undefined;
  let failure: Error | undefined;
  const fail = (error: Error) => (failure ??= error);
  const saving: Promise<JobFile>[] = [];
  await new Promise<void>((done) => {
    parser.on("field", (name: string | undefined, value: string, info: FieldInfo) => {
      if (name !== "job") return; // ArchivesSpace clients may send more; only the job is read
      if (info.valueTruncated) return fail(new ApiError(413, `The job field is over ${MAX_JOB_JSON} bytes`));
      job = value;
    });
    parser.on("file", (name, stream, info) => {
      if (failure !== undefined || !/^files(\[\d*\])?$/.test(name)) {
        if (failure === undefined)
          fail(badRequest({ files: [`Files go in files[] parts, not in a part named ${name}`] }));
        stream.resume();
        return;
      }
      const index = saving.length;
      const saved = files.save(upload, "input", fileName(info.filename, index), stream, {
        limit,
        index,
        contentType: info.mimeType,
      });
      saved.catch((error: Error) => {
        fail(error);
        stream.resume(); // the rest of this part is read and dropped
      });
      saving.push(saved);
    });
    parser.on("filesLimit", () => fail(badRequest({ files: [`At most ${MAX_JOB_FILES} files per job`] })));
    parser.on("fieldsLimit", () => fail(badRequest(`At most ${MAX_FIELDS} form fields`)));
    parser.on("partsLimit", () => fail(badRequest(`At most ${MAX_JOB_FILES + MAX_FIELDS} parts`)));
    parser.on("error", (error: Error) => {
      fail(badRequest(`The multipart body could not be read: ${error.message}`));
      req.unpipe(parser);
      req.resume();
      done();
    });
    parser.on("close", () => done());
    req.on("aborted", () => {
      fail(badRequest("The upload was cut off"));
      done();
    });
    req.pipe(parser);
  });
  const results = await Promise.allSettled(saving);
  const stored = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  if (failure !== undefined || stored.length < results.length) {
    await files.removeAll(upload);
    const error = failure ?? new Error("a file could not be stored");
    if (error instanceof FileTooLargeError)
      throw new ApiError(413, `A file is over ${error.limit} bytes (JOB_FILE_LIMIT_BYTES)`);
    throw error;
  }
  return { job, files: stored };
}

function parseJobField(text: string | undefined): unknown {
  if (text === undefined) throw badRequest({ job: ["Property is required but was missing"] });
  const problem = textProblem(text);
  if (problem !== undefined) throw badRequest({ job: [problem] });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest({ job: ["Must be the job's JSON"] });
  }
}

/** The page a job list asks for (`page` required). @throws ApiError 400 */
function pageOf(req: Request): PageRequest {
  const params = new ParamReader(requestParameters(req));
  const page = readPage(params, DEFAULT_JOB_PAGE, MAX_PAGE_SIZE);
  throwIfAny(params.errors);
  return page;
}

export function jobControllers(deps: JobRouteDeps): Array<new () => unknown> {
  const { operations, access, queue, files, fileLimitBytes } = deps;
  const { registry, store } = operations.deps;
  const connection = store.connection;

  /** The repository's id, once the caller holds `code` there (403) and it exists (404). */
  const repository = async (req: Request, res: Response, code: string | null) => {
    const caller = await callerWith(access, res, code, repoIdParam(req));
    const repoId = shownRepoId(registry, repoIdParam(req));
    if (repoId === undefined || !(await repositoryExists(store, registry, repoId))) throw notFound("Repository");
    return { repoId, caller };
  };

  const jobOf = async (req: Request, res: Response, code: string) => {
    const { repoId, caller } = await repository(req, res, code);
    const id = idParam(req, "id");
    const job = await queue.read(repoId, id);
    if (job === null) throw notFound("Job");
    return { repoId, job, caller };
  };

  /** A page of the repository's jobs that `filter` matches, in `sort` order. */
  const jobPage = async (req: Request, filter: Filter<JobDocument>, sort: Sort) => {
    const page = pageOf(req);
    const [total, jobs] = await Promise.all([
      queue.jobs.countDocuments(filter),
      queue.jobs
        .find(filter)
        .sort(sort)
        .skip((page.page - 1) * page.pageSize)
        .limit(page.pageSize)
        .toArray(),
    ]);
    return pageEnvelope(page, total, await shown(jobs));
  };

  const shown = async (jobs: JobDocument[]) => {
    const positions = await queue.positions(jobs);
    return jobs.map((job) => jobJson(job, positions.get(job._id)));
  };

  const created = (job: JobDocument) => ({
    status: "Created",
    id: job._id,
    lock_version: 0,
    stale: null,
    uri: jobUri(job.repo_id, job._id),
    warnings: [],
  });

  const jobTypes = () => ({
    job_types: [...JOB_TYPES],
    import_job: { import_types: [...importTypes().keys()] },
    report_job: { report_types: [...REPORTS.entries()].map(([code, report]) => ({ code, title: report.title })) },
  });

  @Controller("/")
  class JobController {
    @Route("post", JOBS, describe.describeCreate)
    create(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const { repoId, caller } = await repository(req, res, "create_job");
        const spec = parseJob(req.body, 0);
        if (spec.job_type === "report_job") {
          const report = REPORTS.get(spec.report_type);
          if (report !== undefined && !hasPermission(caller.permissions, report.permission, repoId))
            throw accessDenied();
        }
        return created(await queue.submit(await queue.newId(), repoId, caller.username, spec, []));
      });
    }

    @Route("post", "/repositories/:repo_id/jobs_with_files", describe.describeCreateWithFiles)
    createWithFiles(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const { repoId, caller } = await repository(req, res, "import_records");
        // The job's id is taken once the upload is whole and its job valid: a refused upload changes nothing.
        const token = randomUUID();
        const upload = await receive(req, token, files, fileLimitBytes);
        try {
          const spec = parseJob(parseJobField(upload.job), upload.files.length);
          const id = await queue.newId();
          await files.adopt(token, id);
          const names = upload.files.map((file) => file.name);
          return created(await queue.submit(id, repoId, caller.username, spec, names));
        } catch (error) {
          await files.removeAll(token);
          throw error;
        }
      });
    }

    @Route("get", "/job_types", (ctx) => describe.describeJobTypes(ctx, false))
    types(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (_req, res) => {
        await callerWith(access, res, null);
        return jobTypes();
      });
    }

    @Route("get", `${JOBS}/types`, (ctx) => describe.describeJobTypes(ctx, true))
    repositoryTypes(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        await repository(req, res, null);
        return jobTypes();
      });
    }

    @Route("get", `${JOBS}/import_types`, describe.describeImportTypes)
    importTypes(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        await repository(req, res, null);
        return [...importTypes()].map(([name, formats]) => ({ name, formats }));
      });
    }

    @Route("get", `${JOBS}/active`, describe.describeActive)
    active(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const { repoId } = await repository(req, res, "view_repository");
        const [running, queued] = await Promise.all([
          queue.jobs
            .find({ repo_id: repoId, status: "running" })
            .sort({ time_started: -1 })
            .limit(MAX_ACTIVE)
            .toArray(),
          queue.jobs.find({ repo_id: repoId, status: "queued" }).sort({ _id: 1 }).limit(MAX_ACTIVE).toArray(),
        ]);
        return shown([...running, ...queued].slice(0, MAX_ACTIVE));
      });
    }

    @Route("get", `${JOBS}/archived`, describe.describeArchived)
    archived(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const { repoId } = await repository(req, res, "view_repository");
        const filter = { repo_id: repoId, status: { $nin: [...ACTIVE_STATUSES] } };
        return jobPage(req, filter, { time_finished: -1, _id: -1 });
      });
    }

    @Route("get", JOBS, describe.describeList)
    list(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const { repoId } = await repository(req, res, "view_repository");
        return jobPage(req, { repo_id: repoId }, { _id: -1 });
      });
    }

    @Route("get", JOB, describe.describeRead)
    read(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const { job } = await jobOf(req, res, "view_repository");
        return (await shown([job]))[0];
      });
    }

    @Route("get", `${JOB}/log`, describe.describeLog)
    async log(@Context() ctx: PlatformContext): Promise<void> {
      const req = ctx.getRequest<Request>();
      const res = ctx.getResponse<Response>();
      const { job } = await jobOf(req, res, "view_repository");
      const params = new ParamReader(requestParameters(req));
      const offset = params.wholeNumber("offset", 0) ?? 0;
      throwIfAny(params.errors);
      const text = await readLog(connection, job._id, offset);
      res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": text.length }).end(text);
    }

    @Route("get", `${JOB}/output_files`, describe.describeOutputFiles)
    outputs(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const { job } = await jobOf(req, res, "view_repository");
        return (await files.list(job._id, "output")).map((file) => file.id);
      });
    }

    @Route("get", `${JOB}/output_files/:file_id`, describe.describeOutputFile)
    async output(@Context() ctx: PlatformContext): Promise<void> {
      const req = ctx.getRequest<Request>();
      const res = ctx.getResponse<Response>();
      const { job } = await jobOf(req, res, "view_repository");
      const opened = await files.open(job._id, idParam(req, "file_id"), "output");
      if (opened === undefined) throw notFound("Job file");
      const { file } = opened;
      res.writeHead(200, {
        "Content-Type": file.contentType,
        "Content-Length": file.length,
        // Names are the job's own (a report's code), never the sender's: nothing to escape.
        "Content-Disposition": `attachment; filename="${file.name}"`,
      });
      const stream = opened.read();
      stream.on("error", () => res.destroy());
      stream.pipe(res);
    }

    @Route("get", `${JOB}/records`, describe.describeRecords)
    records(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const { job } = await jobOf(req, res, "view_repository");
        const page = pageOf(req);
        const skip = (page.page - 1) * page.pageSize;
        const { total, uris } = createdUris(registry, job.repo_id, job.created, skip, page.pageSize);
        return pageEnvelope(
          page,
          total,
          uris.map((ref) => ({ record: { ref } })),
        );
      });
    }

    @Route("post", `${JOB}/cancel`, describe.describeCancel)
    cancel(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const { repoId, job } = await jobOf(req, res, "cancel_job");
        const after = await queue.cancel(repoId, job._id);
        if (after === undefined) throw notFound("Job");
        return (await shown([after]))[0];
      });
    }

    @Route("delete", JOB, describe.describeDelete)
    remove(@Context() ctx: PlatformContext): Promise<void> {
      return respond(ctx, async (req, res) => {
        const { repoId, job } = await jobOf(req, res, "cancel_job");
        try {
          if (!(await queue.delete(repoId, job._id))) throw notFound("Job");
        } catch (error) {
          if (error instanceof ActiveJobError) throw conflict(error.message);
          throw error;
        }
        await Promise.all([files.removeAll(job._id), removeLog(connection, job._id)]);
        return { status: "Deleted", id: job._id };
      });
    }
  }
  return [JobController];
}
