// Where an uploaded import file waits while it is read (its first bytes tell its format, then
// the import reads it through): a directory of its own, each file named after the process that
// wrote it. A process removes its files when the import ends; a process killed mid-import
// cannot, so start-up removes the files of processes that are gone.
import { randomUUID } from "node:crypto";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processAlive } from "./processes.js";

/** The default upload directory: one for every Arca process of this machine. */
export const UPLOAD_DIR = join(tmpdir(), "arca-imports");

const UPLOAD_NAME = /^(\d+)-[0-9a-f-]{36}\.upload$/;

/** A new upload file's path (not created yet), in `dir`, which is created owner-only if missing. */
export async function newUploadPath(dir = UPLOAD_DIR): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return join(dir, `${process.pid}-${randomUUID()}.upload`);
}

export async function removeUpload(path: string): Promise<void> {
  await rm(path, { force: true });
}

/**
 * Removes the uploads of processes that are gone: a file whose writer's pid no longer runs, or
 * carries this process's pid (an earlier process that had it, since this one has uploaded
 * nothing yet: call at start-up), and anything else in the directory older than `staleSeconds`.
 * Files of a live process are left alone. Answers the paths removed.
 */
export async function sweepUploads(dir: string, staleSeconds: number): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const removed: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const owner = UPLOAD_NAME.exec(name)?.[1];
    let stale: boolean;
    if (owner !== undefined) {
      const pid = Number(owner);
      stale = pid === process.pid || !processAlive(pid);
    } else {
      const info = await stat(path).catch(() => undefined);
      stale = info !== undefined && Date.now() - info.mtimeMs > staleSeconds * 1000;
    }
    if (!stale) continue;
    await rm(path, { recursive: true, force: true });
    removed.push(path);
  }
  return removed;
}
