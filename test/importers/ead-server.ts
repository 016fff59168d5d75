// What the EAD import tests share: a record server over the embedded engine with a repository
// and the vocabulary subjects go in, imports through the committer as the CLI and HTTP routes
// make them, and reads back through the API.
import { expect } from "@jest/globals";
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { importFile, type ImportOptions } from "../../src/importers/committer.js";
import { EadParser } from "../../src/importers/ead.js";
import type { ImportInput, ImportSummary } from "../../src/importers/pending.js";
import { globalGrants, startRecordServer, type RecordServer } from "../support/service.js";
import { trusted } from "../../src/auth/actor.js";

export type Json = Record<string, unknown>;

export const actor = trusted("importer");

/** The record types an EAD import writes, by the collection path that lists them. */
export const LISTS: Readonly<Record<string, (repo: number) => string>> = {
  resource: (repo) => `/repositories/${repo}/resources`,
  archival_object: (repo) => `/repositories/${repo}/archival_objects`,
  top_container: (repo) => `/repositories/${repo}/top_containers`,
  digital_object: (repo) => `/repositories/${repo}/digital_objects`,
  agent_person: () => "/agents/people",
  agent_family: () => "/agents/families",
  agent_corporate_entity: () => "/agents/corporate_entities",
  subject: () => "/subjects",
};

export interface EadTestServer {
  server: RecordServer;
  repo: number;
  token: string;
  vocabulary: string;
  /** A repository of its own, for imports that must not meet the others. */
  newRepository(code: string): Promise<number>;
  importEad(
    input: ImportInput | string,
    options?: Partial<ImportOptions> & { format?: "ead" | "ead3" },
  ): Promise<ImportSummary>;
  get<T = Json>(path: string): Promise<T>;
  /** How many records of each type the API lists (repository-scoped ones in `repo`). */
  counts(repo?: number): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

export function fileInput(path: string): ImportInput {
  return { name: path.split("/").at(-1) as string, open: () => createReadStream(path) };
}

export function textInput(name: string, text: string | Buffer): ImportInput {
  return { name, open: () => Readable.from([typeof text === "string" ? Buffer.from(text) : text]) };
}

export async function startEadServer(): Promise<EadTestServer> {
  const server = await startRecordServer();
  const repo = (await server.ops.create("repository", {}, { repo_code: "ead", name: "EAD imports" }, actor)).id;
  const vocabulary = (await server.ops.create("vocabulary", {}, { ref_id: "global", name: "Global" }, actor)).uri;
  const token = await server.login("archivist", globalGrants(["view_repository"]));
  const get = async <T = Json>(path: string): Promise<T> => {
    const reply = await server.send("GET", path, { token });
    expect([path, reply.status]).toEqual([path, 200]);
    return reply.body as T;
  };
  return {
    server,
    repo,
    token,
    vocabulary,
    async newRepository(code) {
      return (await server.ops.create("repository", {}, { repo_code: code, name: code }, actor)).id;
    },
    importEad(input, options = {}) {
      const parser = new EadParser(options.format ?? "ead", {
        vocabulary,
        enumerations: server.ops.deps.enumerations,
        window: 20,
      });
      return importFile(server.ops, parser, typeof input === "string" ? fileInput(input) : input, {
        repoId: options.repoId ?? repo,
        actor,
        ...options,
      });
    },
    get,
    async counts(forRepo = repo) {
      const counts: Record<string, number> = {};
      for (const [type, path] of Object.entries(LISTS))
        counts[type] = (await get<number[]>(`${path(forRepo)}?all_ids=true`)).length;
      return counts;
    },
    stop: () => server.stop(),
  };
}

/** The id at the end of a uri. */
export const idOf = (uri: string): number => Number(uri.split("/").at(-1));

/** A tree's nodes, depth first, through tree/root and tree/waypoint (200 nodes a waypoint). */
export async function walkTree(t: EadTestServer, resourceUri: string): Promise<Array<Json & { depth: number }>> {
  const root = await t.get(`${resourceUri}/tree/root`);
  const nodes: Array<Json & { depth: number }> = [];
  const visit = async (parent: string, childCount: number, depth: number): Promise<void> => {
    for (let offset = 0; offset * 200 < childCount; offset++) {
      const page = await t.get<Json[]>(
        `${resourceUri}/tree/waypoint?offset=${offset}&parent_node=${encodeURIComponent(parent)}`,
      );
      for (const node of page) {
        nodes.push({ ...node, depth });
        await visit(node.uri as string, node.child_count as number, depth + 1);
      }
    }
  };
  await visit("", root.child_count as number, 1);
  return nodes;
}
