// The store the fuzz test starts from: two repositories, a viewer and an archivist of the
// first, and records of every kind there (imported from the shared sample files and created
// over HTTP), so fuzzed requests meet real records, links to resolve and trees to walk.
import { join, resolve } from "node:path";
import { readImportSample, type FuzzContext, type Identity } from "./requests.js";
import { send } from "./runner.js";
import { ADMIN_PASSWORD, type FuzzService } from "./service.js";

const SHARED = resolve("..", "shared", "data");
export const USER_PASSWORD = "fuzz-user-password";

type Json = Record<string, unknown>;

const isJson = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

export interface Seeded {
  context: FuzzContext;
  credentials: Map<Identity, { username: string; password: string }>;
  /** What did not seed (a route refusing a sample): printed, not fatal. */
  notes: string[];
}

export async function seed(service: FuzzService, document: Json): Promise<Seeded> {
  const notes: string[] = [];
  const login = await send(service.port, {
    method: "POST",
    target: `/users/admin/login?password=${ADMIN_PASSWORD}`,
    headers: {},
  });
  const token = (JSON.parse(login.body) as { session: string }).session;
  const call = async (
    method: string,
    target: string,
    body?: unknown,
    raw?: Buffer,
  ): Promise<{ status: number; json: unknown }> => {
    const headers: Record<string, string> = { "X-ArchivesSpace-Session": token };
    if (body !== undefined || raw) headers["content-type"] = raw ? "application/octet-stream" : "application/json";
    const answer = await send(
      service.port,
      { method, target, headers, body: raw ?? (body === undefined ? undefined : Buffer.from(JSON.stringify(body))) },
      Infinity,
    );
    let json: unknown = answer.body;
    try {
      json = JSON.parse(answer.body);
    } catch {
      // not JSON
    }
    if (answer.status !== 200) notes.push(`${method} ${target}: ${answer.status} ${answer.body.slice(0, 300)}`);
    return { status: answer.status, json };
  };
  const idOf = (reply: { json: unknown }): number | undefined =>
    isJson(reply.json) && typeof reply.json.id === "number" ? reply.json.id : undefined;

  const repo = idOf(await call("POST", "/repositories", { repo_code: "fuzz", name: "Fuzz" })) ?? 2;
  const other = idOf(await call("POST", "/repositories", { repo_code: "other", name: "Other" })) ?? 3;

  // Users: a viewer and an archivist of the first repository.
  const userIds = new Set<number>([1]);
  const groups = (await call("GET", `/repositories/${repo}/groups`)).json;
  for (const [username, groupCode] of [
    ["fuzz-viewer", "repository-viewers"],
    ["fuzz-archivist", "repository-archivists"],
  ] as const) {
    const id = idOf(await call("POST", `/users?password=${USER_PASSWORD}`, { username, name: username }));
    if (id !== undefined) userIds.add(id);
    const group = Array.isArray(groups)
      ? groups.find((g): g is Json => isJson(g) && g.group_code === groupCode)
      : undefined;
    if (group && typeof group.uri === "string") {
      const members = Array.isArray(group.member_usernames) ? group.member_usernames : [];
      await call("POST", group.uri, {
        group_code: group.group_code,
        description: group.description,
        grants_permissions: group.grants_permissions,
        member_usernames: [...members, username],
        lock_version: group.lock_version,
      });
    }
  }

  // Records: the shared sample files through the importers, then the types they do not make.
  const samples = [
    readImportSample(join(SHARED, "ead2002", "ferris.xml"), "ead"),
    readImportSample(join(SHARED, "ead2002", "ead-dao-test.xml"), "ead"),
    readImportSample(join(SHARED, "csv", "accessions_10_rows.csv"), "csv"),
    readImportSample(join(SHARED, "csv", "aspace_subject_import_template.csv"), "csv"),
    readImportSample(join(SHARED, "csv", "aspace_location_import_template.csv"), "csv"),
    readImportSample(join(SHARED, "eac-cpf", "yale_cadell.xml"), "eac"),
  ];
  for (const sample of samples)
    await call("POST", `/repositories/${repo}/imports?format=${sample.format}`, undefined, sample.body);
  await call("POST", "/container_profiles", {
    name: "Fuzz box",
    dimension_units: "inches",
    extent_dimension: "width",
    height: "10",
    width: "12",
    depth: "15",
  });
  await call("POST", "/location_profiles", { name: "Fuzz shelf" });
  await call("POST", "/vocabularies", { name: "Fuzz vocabulary", ref_id: "fuzz" });
  const classification = idOf(
    await call("POST", `/repositories/${repo}/classifications`, { identifier: "F", title: "Fuzz classification" }),
  );
  if (classification !== undefined) {
    const classificationRef = { ref: `/repositories/${repo}/classifications/${classification}` };
    const term = idOf(
      await call("POST", `/repositories/${repo}/classification_terms`, {
        identifier: "F1",
        title: "Term",
        classification: classificationRef,
      }),
    );
    if (term !== undefined)
      await call("POST", `/repositories/${repo}/classification_terms`, {
        identifier: "F2",
        title: "Child term",
        classification: classificationRef,
        parent: { ref: `/repositories/${repo}/classification_terms/${term}` },
      });
  }
  await call("POST", `/repositories/${other}/accessions`, { title: "Other repository's accession", id_0: "O1" });

  // Every record that now exists, as uris (ref values) and ids (path parameters).
  const uris: string[] = [];
  const ids = new Set<number>([1, 2, 3]);
  const paths = isJson(document.paths) ? document.paths : {};
  for (const [template, item] of Object.entries(paths)) {
    if (!isJson(item) || !isJson(item.get) || !Array.isArray(item.get.parameters)) continue;
    if (!item.get.parameters.some((p) => isJson(p) && p.name === "all_ids")) continue;
    const path = template.replace("{repo_id}", String(repo));
    const listed = await call("GET", `${path}?all_ids=true`);
    if (!Array.isArray(listed.json)) continue;
    for (const id of listed.json.slice(0, 20)) {
      if (typeof id !== "number") continue;
      uris.push(`${path}/${id}`);
      ids.add(id);
    }
  }

  const linkFields = new Set<string>();
  const components = new Map<string, Json>();
  const schemas = isJson(document.components) && isJson(document.components.schemas) ? document.components.schemas : {};
  for (const [name, schema] of Object.entries(schemas)) {
    if (!isJson(schema)) continue;
    components.set(name, schema);
    for (const [field, property] of Object.entries(isJson(schema.properties) ? schema.properties : {})) {
      if (
        isJson(property) &&
        (property["x-ref-targets"] !== undefined ||
          (isJson(property.items) && property.items["x-ref-targets"] !== undefined))
      )
        linkFields.add(field);
    }
  }

  const credentials = new Map<Identity, { username: string; password: string }>([
    ["admin", { username: "admin", password: ADMIN_PASSWORD }],
    ["viewer", { username: "fuzz-viewer", password: USER_PASSWORD }],
    ["archivist", { username: "fuzz-archivist", password: USER_PASSWORD }],
  ]);
  return {
    context: {
      components,
      uris: uris.length > 0 ? uris : ["/repositories/2"],
      ids: [...ids].sort((a, b) => a - b).slice(0, 40),
      repoIds: [repo, other, 1],
      usernames: ["admin", "fuzz-viewer", "fuzz-archivist", "nobody"],
      protectedUserIds: userIds,
      protectedRepoIds: new Set([repo]),
      linkFields: [...linkFields],
      importSamples: samples.slice(0, 3),
    },
    credentials,
    notes,
  };
}
