// ArchivesSnake (archivesspace-labs/ArchivesSnake) ported where it touches records: the client's paging
// (asnake/client/web_client.py, get_paged), JSONModelObject's attribute access, ref reification and save
// (asnake/jsonmodel/__init__.py), and the record helpers of asnake/utils/__init__.py. Each function carries the name
// of the Python one it mirrors. Keys are read as Python reads them (python.ts): a missing key raises.
import { at, get, has, isBlank, isDict, list, text, truthy, type Dict } from "./python.js";
import { Session, type Params } from "./http.js";
import type { Reply } from "../../support/service.js";

/** JSONModelObject.__getattr__'s answer for a key the record lacks and no route of that name serves. */
export class AttributeError extends Error {}

const COMPONENT_SIGNIFIERS = new Set(["archival_object", "archival_objects"]);

/** dispatch_type: which wrapper a JSON value gets (false: none, it stays plain data). */
export function dispatchType(value: unknown): "component" | "tree_node" | "jsonmodel" | false {
  if (!isDict(value)) return false;
  const ref = typeof value.ref === "string" ? value.ref : undefined;
  const refType =
    ref === undefined
      ? undefined
      : ref
          .split("/")
          .filter((part) => !/^\d+$/.test(part))
          .pop();
  const type = has(value, "jsonmodel_type") ? value.jsonmodel_type : refType;
  if (typeof type === "string" && COMPONENT_SIGNIFIERS.has(type)) return "component";
  if (has(value, "node_type") || has(value, "resource_uri") || refType === "tree") return "tree_node";
  if (has(value, "ref") || has(value, "jsonmodel_type")) return "jsonmodel";
  return false;
}

/** ASnakeClient: the HTTP verbs (a list parameter gets "[]" appended to its name) and get_paged. */
export class ASnakeClient {
  readonly session: Session;

  constructor(base: string) {
    this.session = new Session(base);
  }

  /** authorize: a non-200 answer is an ASnakeAuthError; the session is read from the answer. */
  async authorize(user: string, password: string): Promise<string> {
    const reply = await this.session.login(user, password);
    if (reply.status !== 200) throw new Error(`Failed to authorize ASnake with status: ${reply.status}`);
    return text(at(reply.body, "session"));
  }

  private static phpNames(params: Params): Params {
    return Object.fromEntries(
      Object.entries(params).map(([name, value]) => [
        Array.isArray(value) && !name.endsWith("[]") ? `${name}[]` : name,
        value,
      ]),
    );
  }

  get(url: string, params: Params = {}): Promise<Reply> {
    return this.session.send("GET", url, ASnakeClient.phpNames(params));
  }

  post(url: string, json: unknown): Promise<Reply> {
    return this.session.send("POST", url, undefined, json);
  }

  /** get_paged: pages of 100 followed to the last, or a bare list (of records, or of ids each fetched). */
  async *getPaged(url: string, params: Params = {}): AsyncGenerator<unknown> {
    const query: Record<string, Params[string]> = { ...params };
    // Special-cased there as here: all_ids is not sent to the repositories listing.
    if ("all_ids" in query && (url === "/repositories" || url === "repositories")) delete query.all_ids;
    query.page_size = 100;
    query.page = 1;
    let current = (await this.get(url, query)).body;
    if (isDict(current) && has(current, "results") && has(current, "this_page") && has(current, "last_page")) {
      while ((at(current, "this_page") as number) <= (at(current, "last_page") as number)) {
        for (const record of list(at(current, "results"))) yield record;
        if (at(current, "this_page") === at(current, "last_page")) break;
        query.page = (query.page as number) + 1;
        current = (await this.get(url, query)).body;
      }
    } else if (Array.isArray(current)) {
      if (current.length === 0) return;
      if (isDict(current[0])) yield* current;
      else if (typeof current[0] === "number") for (const id of current) yield (await this.get(`${url}/${id}`)).body;
      else throw new Error(`get_paged doesn't know how to handle ${JSON.stringify(current)}`);
    } else throw new Error(`get_paged doesn't know how to handle ${JSON.stringify(current)}`);
  }
}

/** wrap_json_object */
export function wrap(value: unknown, client: ASnakeClient): unknown {
  return dispatchType(value) === false ? value : new JSONModelObject(value as Dict, client);
}

/** JSONModelRelation: a listing route, iterated page by page, or called with an id. */
export class JSONModelRelation {
  constructor(
    readonly uri: string,
    readonly client: ASnakeClient,
    readonly params: Params = {},
  ) {}

  /** __iter__ */
  async *[Symbol.asyncIterator](): AsyncGenerator<JSONModelObject> {
    for await (const record of this.client.getPaged(this.uri, this.params)) {
      const wrapped = wrap(record, this.client);
      if (!(wrapped instanceof JSONModelObject)) throw new Error(`not a JSONModel record: ${JSON.stringify(record)}`);
      yield wrapped;
    }
  }

  /** __call__(id, resolve=[...]): one record of the listing. */
  async call(id: number, resolve?: string[]): Promise<JSONModelObject> {
    const params: Params = resolve === undefined ? {} : { "resolve[]": resolve };
    const reply = await this.client.get(`${this.uri.replace(/\/$/, "")}/${id}`, params);
    const wrapped = wrap(reply.body, this.client);
    if (!(wrapped instanceof JSONModelObject)) throw new Error(`not a JSONModel record: ${reply.text}`);
    return wrapped;
  }
}

/** JSONModelObject: a record (or a ref to one), its keys read as attributes. */
export class JSONModelObject {
  private isRef: boolean;
  private diff: Dict | undefined;

  constructor(
    private data: Dict,
    readonly client: ASnakeClient,
  ) {
    this.isRef = has(data, "ref");
  }

  /** reify: a ref becomes its record (its _resolved one, or a GET of the ref). */
  async reify(): Promise<this> {
    if (this.isRef) {
      this.data = has(this.data, "_resolved")
        ? (at(this.data, "_resolved") as Dict)
        : ((await this.client.get(text(at(this.data, "ref")))).body as Dict);
      this.isRef = false;
    }
    return this;
  }

  /**
   * __getattr__: a key of the record, lists of records and refs wrapped; a key the record lacks is looked up as a
   * route under its uri (`<uri>/<key>?all_ids=True`): a 404 there is an AttributeError, anything else a relation.
   */
  async attr(key: string): Promise<unknown> {
    if (!has(this.data, key) && this.isRef) {
      if (key === "uri") return at(this.data, "ref");
      await this.reify();
    }
    if (!has(this.data, key) && has(this.data, "uri")) {
      const uri = `${text(at(this.data, "uri")).replace(/\/$/, "")}/${key}`;
      const reply = await this.client.get(uri, { all_ids: true });
      if (reply.status === 404) throw new AttributeError(`'${text(at(this.data, "uri"))}' has no attribute '${key}'`);
      return dispatchType(reply.body) !== false
        ? wrap(reply.body, this.client)
        : new JSONModelRelation(uri, this.client);
    }
    const value = at(this.data, key);
    if (Array.isArray(value) && value.length > 0) {
      return dispatchType(value[0]) !== false ? value.map((item) => wrap(item, this.client)) : value;
    }
    return dispatchType(value) !== false ? wrap(value, this.client) : value;
  }

  /** An attribute that must be one record (a ref, a subrecord). */
  async record(key: string): Promise<JSONModelObject> {
    const value = await this.attr(key);
    if (!(value instanceof JSONModelObject)) throw new Error(`${key} is not a record: ${JSON.stringify(value)}`);
    return value;
  }

  /** An attribute that must be a list of records (an empty list reads as []). */
  async records(key: string): Promise<JSONModelObject[]> {
    const value = await this.attr(key);
    if (!Array.isArray(value)) throw new Error(`${key} is not a list: ${JSON.stringify(value)}`);
    return value.map((item) => {
      if (!(item instanceof JSONModelObject)) throw new Error(`${key} holds ${JSON.stringify(item)}`);
      return item;
    });
  }

  /** An attribute that must be a listing route. */
  async relation(key: string): Promise<JSONModelRelation> {
    const value = await this.attr(key);
    if (!(value instanceof JSONModelRelation)) throw new Error(`${key} is not a relation`);
    return value;
  }

  /** __setattr__: the value is set and remembered as a change. */
  set(key: string, value: unknown): void {
    this.diff ??= {};
    this.data[key] = value;
    this.diff[key] = value;
  }

  /** save: the whole record as held (read, plus changes) posted to its uri; re-read on success. */
  async save(): Promise<Reply | false> {
    if (this.diff === undefined) return false;
    Object.assign(this.data, this.diff);
    const uri = text(await this.attr("uri"));
    const reply = await this.client.post(uri, this.data);
    if (reply.status !== 200) return reply;
    this.diff = undefined;
    this.data = (await this.client.get(uri)).body as Dict;
    return reply;
  }

  /** json(): a copy of the record (a ref reified first). */
  async json(): Promise<Dict> {
    await this.reify();
    return structuredClone(this.data);
  }
}

// ---------------------------------------------------------------------------------------------
// asnake/utils

/** resolve_to_uri */
export function resolveToUri(thing: unknown): string {
  if (typeof thing === "string") return thing;
  const uri = isDict(thing) ? get(thing, "uri", get(thing, "ref")) : undefined;
  if (typeof uri !== "string") throw new Error(`Could not resolve ${JSON.stringify(thing)} to a URI`);
  return uri;
}

/** resolve_to_json */
async function resolveToJson(thing: unknown, client: ASnakeClient): Promise<Dict> {
  if (isDict(thing)) return thing;
  if (thing instanceof JSONModelObject) return thing.json();
  const body = (await client.get(resolveToUri(thing))).body;
  if (!isDict(body)) throw new Error(`Could not resolve ${String(thing)} to JSON.`);
  return body;
}

/** get_note_text's parse_subnote */
function parseSubnote(subnote: unknown): unknown[] {
  const type = at(subnote, "jsonmodel_type");
  if (type === "note_orderedlist" || type === "note_index") return list(at(subnote, "items"));
  if (type === "note_chronology" || type === "note_definedlist") {
    const content: unknown[] = [];
    for (const item of list(at(subnote, "items"))) {
      for (const key of Object.keys(item as Dict)) {
        const value = get(item, key);
        if (Array.isArray(value)) content.push(...(value as unknown[]));
        else content.push(value);
      }
    }
    return content;
  }
  const content = at(subnote, "content");
  return Array.isArray(content) ? content : [content];
}

/** get_note_text: a note's text, by note type. */
export function getNoteText(note: Dict): unknown[] {
  const type = at(note, "jsonmodel_type");
  if (type === "note_singlepart" || type === "note_langmaterial") return list(at(note, "content"));
  if (type === "note_bibliography") return [...list(at(note, "content")), ...list(at(note, "items"))];
  if (type === "note_index") return list(at(note, "items")).map((item) => at(item, "value"));
  return list(at(note, "subnotes")).flatMap(parseSubnote);
}

/**
 * text_in_note: whether the note's text holds `query` (rapidfuzz's partial_ratio at 97 there; a case-blind substring
 * here, which is what a perfect partial match is).
 */
export function textInNote(note: Dict, query: string): boolean {
  const joined = getNoteText(note)
    .map((part) => text(part).toLowerCase())
    .join(" ");
  return joined.includes(query.toLowerCase());
}

/** format_resource_id: id_0..id_3 joined, up to the first missing part. */
export function formatResourceId(resource: Dict, separator = ":"): string {
  const parts: string[] = [];
  for (let x = 0; x < 4; x++) {
    if (!has(resource, `id_${x}`)) break;
    parts.push(text(at(resource, `id_${x}`)));
  }
  return parts.join(separator);
}

/**
 * find_closest_value: the key's value on the archival object, else on its nearest ancestor that has one (read with
 * resolve[]=ancestors).
 */
export async function findClosestValue(archivalObject: unknown, key: string, client: ASnakeClient): Promise<unknown> {
  const record = (await client.get(resolveToUri(archivalObject), { resolve: ["ancestors"] })).body;
  if (!isBlank(get(record, key))) return at(record, key);
  for (const ancestor of list(get(record, "ancestors"))) {
    const resolved = get(ancestor, "_resolved");
    if (!isBlank(get(resolved, key))) return at(resolved, key);
  }
  return undefined;
}

/** closest_value (the JSONModelObject version): the key's attribute, else the first ancestor's, recursively. */
export async function closestValue(archivalObject: JSONModelObject, key: string): Promise<unknown> {
  const value = await archivalObject.attr(key);
  if (!isBlank(value)) return value;
  for (const ancestor of await archivalObject.records("ancestors")) return closestValue(ancestor, key);
  return undefined;
}

/** get_orphans: the objects whose `nullAttribute` has no value. */
export async function* getOrphans(
  objects: AsyncIterable<unknown>,
  nullAttribute: string,
  client: ASnakeClient,
): AsyncGenerator<Dict> {
  for await (const thing of objects) {
    const record = await resolveToJson(thing, client);
    if (isBlank(get(record, nullAttribute))) yield record;
  }
}

/** get_date_display: a date's expression, else "begin-end", else begin. */
export function getDateDisplay(date: Dict): unknown {
  if (has(date, "expression")) return at(date, "expression");
  const end = get(date, "end");
  return end !== undefined && end !== null && end !== ""
    ? `${String(at(date, "begin"))}-${String(end)}`
    : at(date, "begin");
}

/** is_expired: a date before today (a missing date raises, as date.fromisoformat(None) does). */
export function isExpired(date: unknown, today = new Date().toISOString().slice(0, 10)): boolean {
  return text(date) < today;
}

/** indicates_restriction */
export function indicatesRestriction(rightsStatement: Dict, restrictionActs: string[]): boolean {
  if (isExpired(get(rightsStatement, "end_date"))) return false;
  for (const act of list(get(rightsStatement, "acts"))) {
    const restriction = get(act, "restriction");
    if (typeof restriction === "string" && restrictionActs.includes(restriction) && !isExpired(get(act, "end_date")))
      return true;
  }
  return false;
}

/** is_restricted: an accessrestrict note holding the query, or a restricting rights statement. */
export function isRestricted(archivalObject: Dict, query: string, restrictionActs: string[]): boolean {
  for (const note of list(at(archivalObject, "notes"))) {
    if (at(note, "type") === "accessrestrict" && textInNote(note as Dict, query.toLowerCase())) return true;
  }
  for (const statement of list(at(archivalObject, "rights_statements"))) {
    if (indicatesRestriction(statement as Dict, restrictionActs)) return true;
  }
  return false;
}

/** get_object_locations: the locations of the archival object's containers (resolve[]=top_container::...). */
export async function* getObjectLocations(archivalObject: unknown, client: ASnakeClient): AsyncGenerator<unknown> {
  const reply = await client.get(resolveToUri(archivalObject), { resolve: ["top_container::container_locations"] });
  if (reply.status !== 200) throw new Error("Unable to fetch archival object with resolved container locations");
  for (const instance of list(at(reply.body, "instances"))) {
    const locations = at(instance, "sub_container", "top_container", "_resolved", "container_locations");
    for (const location of list(locations)) yield at(location, "_resolved");
  }
}

/** walk_tree: every record of a resource's tree (or of an archival object's subtree), in order, through waypoints. */
export async function* walkTree(thing: unknown, client: ASnakeClient): AsyncGenerator<unknown> {
  const uri = resolveToUri(thing);
  const params: Record<string, string | number> = { offset: 0 };
  let resourceUri: string;
  if (!uri.includes("archival_object")) resourceUri = uri;
  else {
    params.node_uri = uri;
    resourceUri =
      isDict(thing) && has(thing, "resource")
        ? text(at(thing, "resource", "ref"))
        : text(at((await client.get(uri)).body, "resource", "ref"));
  }
  const waypointsUri = `${resourceUri}/tree/waypoint`;
  const starting = (await client.get(`${resourceUri}/tree/${"node_uri" in params ? "node" : "root"}`, params)).body;
  yield* handleWaypoint(waypointsUri, starting, client);
}

/** _page_waypoint_children */
async function* pageWaypointChildren(waypointsUri: string, waypoint: unknown, client: ASnakeClient) {
  const params: Record<string, string | number> = {};
  const uri = text(at(waypoint, "uri"));
  if (!uri.includes("resources")) params.parent_node = uri;
  const count = at(waypoint, "waypoints");
  if (typeof count !== "number") throw new Error(`waypoints is ${JSON.stringify(count)}`);
  for (let i = 0; i < count; i++) {
    params.offset = i;
    yield* list((await client.get(waypointsUri, params)).body);
  }
}

/** _handle_waypoint: the record itself, then its children's subtrees. */
async function* handleWaypoint(waypointsUri: string, waypoint: unknown, client: ASnakeClient): AsyncGenerator<unknown> {
  yield (await client.get(text(at(waypoint, "uri")))).body;
  for await (const child of pageWaypointChildren(waypointsUri, waypoint, client))
    yield* handleWaypoint(waypointsUri, child, client);
}

/** ASpace.__init__'s version: `re.match(r'\(v?(.+\))', text)`, which matches only at the start of the text. */
export async function aspaceVersion(client: ASnakeClient): Promise<string> {
  const found = /^\(v?(.+\))/.exec((await client.get("version")).text);
  return found?.[1] ?? "unknown version";
}

/** ASpace.by_external_id: 404 none; 300 the listed uris (distinct, in order) as refs; 200 (303 followed) the record. */
export async function* byExternalId(
  client: ASnakeClient,
  externalId: string,
  recordTypes?: string[],
): AsyncGenerator<unknown> {
  const params: Params = recordTypes ? { eid: externalId, "type[]": recordTypes } : { eid: externalId };
  const reply = await client.get("by-external-id", params);
  if (reply.status === 404) return;
  if (reply.status === 300) {
    for (const uri of new Set(list(reply.body))) yield wrap({ ref: uri }, client);
  } else if (reply.status === 200) yield wrap(reply.body, client);
  else throw new Error(`by-external-id call returned '${reply.status}'`);
}

// ---------------------------------------------------------------------------------------------
// asnake/jsonmodel: the legacy tree (<resource>/tree) as TreeNode and ComponentObject read it.

/**
 * find_subtree: the node of `uri` among the tree's children, searched depth first. As in ArchivesSnake, the search
 * below a child is handed that child's list of children where a tree is expected, so it raises (TypeError) once it
 * must look below a node that is not the one wanted: only nodes found before that are found.
 */
export function findSubtree(tree: unknown, uri: string): unknown {
  let subtree: unknown = null;
  for (const child of list(at(tree, "children"))) {
    if (at(child, "record_uri") === uri) {
      subtree = child;
      break;
    }
    if (!truthy(at(child, "has_children"))) continue;
    subtree = findSubtree(at(child, "children"), uri);
  }
  return subtree;
}

/** TreeNode.record: the full record of a node, from its record_uri. */
export async function treeNodeRecord(node: JSONModelObject): Promise<unknown> {
  return wrap((await node.client.get(text(await node.attr("record_uri")))).body, node.client);
}

/** TreeNode.walk: the node's record, then each child's walk (depth first). */
export async function* walkTreeNode(node: JSONModelObject): AsyncGenerator<unknown> {
  yield await treeNodeRecord(node);
  for (const child of list(await node.attr("children"))) {
    if (!(child instanceof JSONModelObject)) throw new Error(`a tree node's child is ${JSON.stringify(child)}`);
    yield* walkTreeNode(child);
  }
}

/** ComponentObject.tree: the archival object's node of its resource's tree (resource.tree.json()), wrapped. */
export async function componentTree(component: JSONModelObject): Promise<unknown> {
  let treeObject: unknown;
  try {
    const tree = await (await component.record("resource")).record("tree");
    treeObject = findSubtree(await tree.json(), text(await component.attr("uri")));
  } catch {
    throw new AttributeError(`'${text(await component.attr("uri"))}' has no attribute 'tree'`);
  }
  return wrap(treeObject, component.client);
}
