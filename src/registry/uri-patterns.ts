// The URIs of a record type: `/repositories/:repo_id/<prefix>/:id` for repository-scoped types,
// `<prefix>/:id` for global ones (docs/api.md §3, seed). Ids are positive integers.
import type { RecordScope } from "./manifest.js";

export interface ParsedUri {
  readonly type: string;
  readonly id: number;
  /** Set for repository-scoped types only. */
  readonly repoId?: number;
}

const ID = "([1-9][0-9]*)";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function positiveId(text: string | undefined): number | undefined {
  const value = Number(text);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

export class UriPattern {
  /** Route template of the list/create endpoint, e.g. `/repositories/:repo_id/accessions`. */
  readonly collectionPath: string;
  /** Route template of the read/update/delete endpoint, e.g. `/repositories/:repo_id/accessions/:id`. */
  readonly itemPath: string;
  private readonly regex: RegExp;

  constructor(
    readonly type: string,
    readonly scope: RecordScope,
    uriPrefix: string,
  ) {
    const base = scope === "repository" ? "/repositories/:repo_id" : "";
    this.collectionPath = `${base}${uriPrefix}`;
    this.itemPath = `${this.collectionPath}/:id`;
    const repoPart = scope === "repository" ? `/repositories/${ID}` : "";
    this.regex = new RegExp(`^${repoPart}${escapeRegExp(uriPrefix)}/${ID}$`);
  }

  format(id: number, repoId?: number): string {
    if (!Number.isSafeInteger(id) || id <= 0)
      throw new RangeError(`${this.type} id must be a positive integer, not ${id}`);
    if (this.scope === "global") return this.itemPath.replace(":id", String(id));
    if (repoId === undefined || !Number.isSafeInteger(repoId) || repoId <= 0) {
      throw new RangeError(`${this.type} is repository-scoped: its uri needs a repository id`);
    }
    return this.itemPath.replace(":repo_id", String(repoId)).replace(":id", String(id));
  }

  match(uri: string): ParsedUri | undefined {
    const found = this.regex.exec(uri);
    if (found === null) return undefined;
    if (this.scope === "global") {
      const id = positiveId(found[1]);
      return id === undefined ? undefined : { type: this.type, id };
    }
    const repoId = positiveId(found[1]);
    const id = positiveId(found[2]);
    return repoId === undefined || id === undefined ? undefined : { type: this.type, id, repoId };
  }
}
