// A job's files, in the store through GridFS, so any node can take an upload and any worker run the job: the files
// a job was given (role "input", read by its imports) and the files it made (role "output", a report's CSV). Each file
// is numbered from a counter, as ArchivesSpace's job files are, and carries its job's id in its metadata.
import { GridFSBucket, ObjectId, type GridFSFile } from "mongodb";
import type { Connection } from "mongoose";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import { nextIds } from "../storage/record-store.js";

export const JOB_FILES_BUCKET = "arca_job_files";
const FILE_IDS = "job_file";
/** GridFS's chunk: 1 MiB rather than the driver's 255 KiB, so a 50 MB upload is 50 inserts. */
const CHUNK_BYTES = 1024 * 1024;

export type FileRole = "input" | "output";

/**
 * Whose a file is: a job's id, or while an upload is being received (before its job exists, so a refused upload leaves
 * no counter moved), the upload's own token.
 */
export type FileOwner = number | string;

/** An output file's id is a number, as ArchivesSpace's are; an input's is GridFS's own. */
export type FileId = number | ObjectId;

interface FileMetadata {
  job_id: FileOwner;
  role: FileRole;
  /** The position of an input among its job's files. */
  index: number;
  content_type: string;
}

export interface JobFile {
  id: FileId;
  name: string;
  length: number;
  contentType: string;
}

/** Thrown by a save that passed its byte limit: the part written is removed. */
export class FileTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`a file is larger than ${limit} bytes`);
  }
}

function shown(file: GridFSFile): JobFile {
  const metadata = file.metadata as FileMetadata | undefined;
  return {
    id: file._id as unknown as FileId,
    name: file.filename,
    length: file.length,
    contentType: metadata?.content_type ?? "application/octet-stream",
  };
}

export class JobFiles {
  private readonly bucket: GridFSBucket;

  constructor(private readonly connection: Connection) {
    // The driver's Db is the one mongoose connected; its type is the driver mongoose bundles.
    this.bucket = new GridFSBucket(connection.db as never, {
      bucketName: JOB_FILES_BUCKET,
      chunkSizeBytes: CHUNK_BYTES,
      // A file's chunks and its document are acknowledged once applied, not each once journaled: a file is used only
      // after a later write that waits for the journal (an upload's adoption by its job, an output's job ending), and
      // the journal keeps writes in order, so that write makes the whole file durable with it.
      writeConcern: { j: false },
    });
  }

  async init(): Promise<void> {
    await this.connection.collection(`${JOB_FILES_BUCKET}.files`).createIndex({ "metadata.job_id": 1 });
  }

  /** Stores `source` as a file of the job; past `limit` bytes, removes what it wrote and throws FileTooLargeError. */
  async save(
    jobId: FileOwner,
    role: FileRole,
    name: string,
    source: Readable,
    { limit = Number.MAX_SAFE_INTEGER, index = 0, contentType = "application/octet-stream" } = {},
  ): Promise<JobFile> {
    // An input's id is not counted: what a refused upload leaves of it is nothing at all.
    const id = role === "output" ? await nextIds(this.connection, FILE_IDS, 1) : new ObjectId();
    const metadata: FileMetadata = { job_id: jobId, role, index, content_type: contentType };
    const upload = this.bucket.openUploadStreamWithId(id as never, name, { metadata });
    let bytes = 0;
    // Past the limit the rest is read and dropped, and the save fails once the source has ended: failing at once
    // would destroy the source, and a multipart parser waiting on it would never read the rest of the request.
    const counter = new Transform({
      // Up to two chunks are taken in while one is being stored, so receiving and storing overlap (one after the
      // other, a 50 MB upload took twice as long).
      readableHighWaterMark: 2 * CHUNK_BYTES,
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(null, bytes > limit ? undefined : chunk);
      },
      flush(done) {
        done(bytes > limit ? new FileTooLargeError(limit) : null);
      },
    });
    try {
      await pipeline(source, counter, upload);
    } catch (error) {
      // Its chunks go (the file's own document is only written once the last chunk is).
      await upload.abort().catch(() => undefined);
      throw error;
    }
    return { id, name, length: bytes, contentType };
  }

  /** A new output file of the job, written through the stream answered (its id first). */
  async create(jobId: number, name: string, contentType: string) {
    const id = await nextIds(this.connection, FILE_IDS, 1);
    const metadata: FileMetadata = { job_id: jobId, role: "output", index: 0, content_type: contentType };
    return { id, stream: this.bucket.openUploadStreamWithId(id as never, name, { metadata }) };
  }

  async list(jobId: number, role: FileRole): Promise<JobFile[]> {
    const files = await this.bucket
      .find({ "metadata.job_id": jobId, "metadata.role": role }, { sort: { "metadata.index": 1, _id: 1 } })
      .toArray();
    return files.map(shown);
  }

  /** One file of the job, with a stream of its bytes; undefined when the job has no such file. */
  async open(jobId: number, fileId: FileId, role?: FileRole): Promise<{ file: JobFile; read(): Readable } | undefined> {
    const [file] = await this.bucket
      .find({ _id: fileId as never, "metadata.job_id": jobId, ...(role && { "metadata.role": role }) })
      .toArray();
    if (file === undefined) return undefined;
    return { file: shown(file), read: () => this.bucket.openDownloadStream(file._id) };
  }

  /** The first `bytes` of a file (to tell its format), or all of a shorter one. */
  async head(file: JobFile, bytes: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    const end = Math.min(bytes, file.length);
    for await (const chunk of this.bucket.openDownloadStream(file.id as never, { start: 0, end }))
      chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async removeAll(jobId: FileOwner, role?: FileRole): Promise<void> {
    const files = await this.bucket
      .find({ "metadata.job_id": jobId, ...(role && { "metadata.role": role }) }, { projection: { _id: 1 } })
      .toArray();
    for (const file of files) await this.bucket.delete(file._id).catch(() => undefined);
  }

  /** Gives an upload's files to the job made of it. */
  async adopt(upload: string, jobId: number): Promise<void> {
    await this.connection
      .collection(`${JOB_FILES_BUCKET}.files`)
      .updateMany({ "metadata.job_id": upload }, { $set: { "metadata.job_id": jobId } });
  }

  /**
   * Removes the files of jobs that do not exist and were stored before `before`: an upload whose job was never
   * submitted (its node died between the two).
   */
  async removeOrphans(exists: (jobId: number) => Promise<boolean>, before: Date): Promise<number> {
    const files = await this.bucket
      .find({ uploadDate: { $lt: before } }, { projection: { _id: 1, metadata: 1 } })
      .toArray();
    let removed = 0;
    const known = new Map<number, boolean>();
    for (const file of files) {
      const jobId = (file.metadata as FileMetadata | undefined)?.job_id;
      if (jobId === undefined) continue;
      // An upload's token: its job was never made (the request failed or its node died before).
      if (typeof jobId === "string") {
        await this.bucket.delete(file._id).catch(() => undefined);
        removed++;
        continue;
      }
      if (!known.has(jobId)) known.set(jobId, await exists(jobId));
      if (known.get(jobId) === true) continue;
      await this.bucket.delete(file._id).catch(() => undefined);
      removed++;
    }
    return removed;
  }
}
