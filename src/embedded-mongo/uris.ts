// Connection strings of an engine, for the driver: shared by the in-process start (index.ts) and
// the child-process launcher (launcher.ts).

export function engineUri(port: number): string {
  return `mongodb://127.0.0.1:${port}/?directConnection=true`;
}

/** The driver's form of a Unix socket address: the path, percent-encoded, as the host. */
export function engineSocketUri(path: string): string {
  return `mongodb://${encodeURIComponent(path)}/?directConnection=true`;
}
