// Whether a process of this host still runs: how the import journal and the upload sweep tell
// a dead owner's leftovers from a live one's.

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is just not ours to signal.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
