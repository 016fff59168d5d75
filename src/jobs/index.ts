// Background jobs: the queue and files every node shares (opened by the service and by each worker), the routes
// that queue and read jobs, and the worker that runs them.
import type { Connection } from "mongoose";
import { JobFiles } from "./job-files.js";
import { initLogs } from "./job-log.js";
import { JobQueue } from "./job-queue.js";

export interface Jobs {
  queue: JobQueue;
  files: JobFiles;
}

export async function openJobs(connection: Connection, leaseSeconds: number): Promise<Jobs> {
  const jobs = { queue: new JobQueue(connection, leaseSeconds), files: new JobFiles(connection) };
  await Promise.all([jobs.queue.init(), jobs.files.init(), initLogs(connection)]);
  return jobs;
}

export { jobControllers, isJobUpload } from "./routes.js";
export { JobWorker } from "./worker.js";
