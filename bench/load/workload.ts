// The ordinary traffic of the load benchmark: a seeded repository (resources, accessions linked
// to them), then workers that each hold one keep-alive connection and loop over reads, lists,
// resolves, creates, updates and small imports with a think time between requests.
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { request, type Result, Tally } from "./client.js";

export const REPO = 2;

export interface Seeded {
  token: string;
  accessionIds: number[];
  resourceIds: number[];
}

type Json = Record<string, unknown>;

function resource(n: number): Json {
  return {
    title: `Load resource ${n}`,
    id_0: "LOAD",
    id_1: String(n),
    level: "collection",
    finding_aid_language: "eng",
    finding_aid_script: "Latn",
    extents: [{ portion: "whole", number: "2", extent_type: "linear_feet" }],
    dates: [{ date_type: "inclusive", label: "creation", begin: "1830", end: "1872" }],
    lang_materials: [{ language_and_script: { language: "eng" } }],
  };
}

/** A small EAD 2002 finding aid with its own identifiers (an import that writes, not one that is skipped). */
export function smallEad(key: string, components = 10): string {
  const cs = Array.from(
    { length: components },
    (_, i) => `<c01 level="file"><did><unittitle>Folder ${i + 1}</unittitle><unitdate>1900</unitdate></did></c01>`,
  ).join("");
  return `<?xml version="1.0" encoding="UTF-8"?>
<ead xmlns="urn:isbn:1-931666-22-9"><eadheader><eadid>load-${key}</eadid><filedesc><titlestmt><titleproper>Load ${key}</titleproper></titlestmt></filedesc></eadheader>
<archdesc level="collection"><did><unittitle>Load import ${key}</unittitle><unitid>IMP.${key}</unitid><unitdate normal="1900/1950" type="inclusive">1900-1950</unitdate><physdesc><extent>1 linear_feet</extent></physdesc><langmaterial><language langcode="eng">English</language></langmaterial></did>
<dsc>${cs}</dsc></archdesc></ead>`;
}

export async function call(
  agent: http.Agent,
  port: number,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  keepBytes?: number,
): Promise<Result> {
  return request(agent, port, {
    method,
    path,
    headers: {
      "X-ArchivesSpace-Session": token,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    keepBytes,
  });
}

function must(result: Result, what: string): Json {
  if (result.status !== 200)
    throw new Error(
      `load benchmark set-up: ${what} answered ${result.status} ${result.error ?? ""} ${result.body.slice(0, 500)}`,
    );
  return JSON.parse(result.body) as Json;
}

export async function login(port: number, username: string, password: string): Promise<string> {
  const answer = await request(false, port, {
    method: "POST",
    path: `/users/${username}/login?password=${encodeURIComponent(password)}&expiring=false`,
    keepBytes: 1 << 20,
  });
  return must(answer, `login as ${username}`).session as string;
}

/** A repository with `resources` resources and `accessions` accessions, each linked to two resources. */
export async function seed(port: number, token: string, resources: number, accessions: number): Promise<Seeded> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  must(
    await call(agent, port, token, "POST", "/repositories", { repo_code: "load", name: "Load" }),
    "create repository",
  );
  const resourceIds: number[] = [];
  for (let i = 0; i < resources; i++)
    resourceIds.push(
      must(await call(agent, port, token, "POST", `/repositories/${REPO}/resources`, resource(i)), "create resource")
        .id as number,
    );
  const accessionIds: number[] = [];
  const batch = 8;
  for (let i = 0; i < accessions; i += batch) {
    const created = await Promise.all(
      Array.from({ length: Math.min(batch, accessions - i) }, (_, j) => {
        const n = i + j;
        const related = [resourceIds[n % resources], resourceIds[(n + 1) % resources]].map((id) => ({
          ref: `/repositories/${REPO}/resources/${id}`,
        }));
        return call(agent, port, token, "POST", `/repositories/${REPO}/accessions`, {
          title: `Seed accession ${n}`,
          id_0: "SEED",
          id_1: String(n),
          related_resources: related,
        });
      }),
    );
    for (const result of created) accessionIds.push(must(result, "create accession").id as number);
  }
  agent.destroy();
  return { token, accessionIds, resourceIds };
}

export interface WorkloadOptions {
  port: number;
  seeded: Seeded;
  connections: number;
  /** Mean pause between one worker's requests, ms. */
  thinkMs: number;
  until: () => boolean;
  tally: Tally;
}

type Op = "read" | "list" | "resolve" | "create" | "update" | "import";

/** The mix, as weights: mostly GETs, a fifth writes, imports now and then. */
const MIX: Array<[Op, number]> = [
  ["read", 40],
  ["list", 20],
  ["resolve", 12],
  ["create", 14],
  ["update", 12],
  ["import", 2],
];

function pick(): Op {
  const total = MIX.reduce((sum, [, w]) => sum + w, 0);
  let roll = Math.random() * total;
  for (const [op, weight] of MIX) {
    roll -= weight;
    if (roll < 0) return op;
  }
  return "read";
}

const any = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];

/** Runs the workers until `until()` says stop; every result goes into the tally by op. */
export async function runWorkload(options: WorkloadOptions): Promise<void> {
  const { port, seeded, tally } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const worker = async (w: number) => {
    const mine: number[] = []; // accessions this worker created: updated by it alone
    let n = 0;
    // Spread the first requests over one think time, not all at once.
    await sleep(Math.random() * options.thinkMs);
    while (!options.until()) {
      const op = pick();
      let result: Result;
      switch (op) {
        case "read":
          result = await call(
            agent,
            port,
            seeded.token,
            "GET",
            `/repositories/${REPO}/accessions/${any(seeded.accessionIds)}`,
          );
          break;
        case "list":
          result = await call(
            agent,
            port,
            seeded.token,
            "GET",
            `/repositories/${REPO}/accessions?page=${1 + Math.floor(Math.random() * 20)}&page_size=25`,
          );
          break;
        case "resolve":
          result =
            Math.random() < 0.5
              ? await call(
                  agent,
                  port,
                  seeded.token,
                  "GET",
                  `/repositories/${REPO}/accessions/${any(seeded.accessionIds)}?resolve[]=related_resources`,
                )
              : await call(
                  agent,
                  port,
                  seeded.token,
                  "GET",
                  `/repositories/${REPO}/accessions?page=1&page_size=10&resolve[]=related_resources`,
                );
          break;
        case "create": {
          result = await call(agent, port, seeded.token, "POST", `/repositories/${REPO}/accessions`, {
            title: `Load ${w}.${n}`,
            id_0: "LOAD",
            id_1: String(w),
            id_2: String(n++),
            related_resources: [{ ref: `/repositories/${REPO}/resources/${any(seeded.resourceIds)}` }],
          });
          if (result.status === 200) mine.push((JSON.parse(result.body) as { id: number }).id);
          break;
        }
        case "update": {
          const id = mine.length > 0 ? any(mine) : undefined;
          if (id === undefined) {
            result = await call(
              agent,
              port,
              seeded.token,
              "GET",
              `/repositories/${REPO}/accessions/${any(seeded.accessionIds)}`,
            );
            tally.add("read", result);
            continue;
          }
          const current = await call(agent, port, seeded.token, "GET", `/repositories/${REPO}/accessions/${id}`);
          tally.add("read", current);
          if (current.status !== 200) continue;
          const record = JSON.parse(current.body) as Json;
          result = await call(agent, port, seeded.token, "POST", `/repositories/${REPO}/accessions/${id}`, {
            ...record,
            title: `${String(record.title)} (updated)`.slice(0, 200),
          });
          break;
        }
        case "import":
          result = await request(agent, port, {
            method: "POST",
            path: `/repositories/${REPO}/imports?format=ead`,
            headers: { "X-ArchivesSpace-Session": seeded.token, "Content-Type": "application/octet-stream" },
            body: smallEad(`${w}-${n++}-${Date.now()}`),
          });
          break;
      }
      tally.add(op, result);
      await sleep(options.thinkMs * (0.5 + Math.random()));
    }
  };
  await Promise.all(Array.from({ length: options.connections }, (_, w) => worker(w)));
  agent.destroy();
}
