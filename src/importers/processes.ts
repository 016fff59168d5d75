// Whether a process still runs: how the import journal, the job queue and the upload sweep tell a dead owner's
// leftovers from a live one's.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is just not ours to signal.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A process that holds something in the store (an import's journal entry, a job's lease). */
export interface ProcessOwner {
  host: string;
  pid: number;
  /** Tells this process from an earlier one that had the same pid (a container's pid 1). */
  process: string;
}

export const THIS_PROCESS: ProcessOwner = { host: hostname(), pid: process.pid, process: randomUUID() };

/**
 * Whether the owner is known to be gone: a process of this host that no longer runs (or an earlier one with this
 * process's pid). An owner on another host is only known gone when its lease runs out.
 */
export function ownerGone(owner: ProcessOwner): boolean {
  if (owner.process === THIS_PROCESS.process) return false;
  if (owner.host !== THIS_PROCESS.host) return false;
  return owner.pid === THIS_PROCESS.pid || !processAlive(owner.pid);
}
