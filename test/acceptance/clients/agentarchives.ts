// agentarchives' ArchivesSpace client (artefactual-labs/agentarchives, agentarchives/archivesspace/client.py), the one
// Archivematica uploads with, ported method by method: the same requests, the same keys read (record["key"] raises
// when the key is missing, record.get("key") does not: see python.ts), the same mutation and the same write back.
// Each method carries the name of the Python method it mirrors. Methods whose endpoint Arca lacks (/search,
// find_by_id) are ported only for the part that reads records: see recordPartOf*.
import { at, get, has, isDict, list, PyIndexError, PyKeyError, text, truthy, type Dict } from "./python.js";
import { Session, type Params } from "./http.js";

/** A reply other than 200, or one whose JSON holds "error" (the client's CommunicationError / ArchivesSpaceError). */
export class CommunicationError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`ArchivesSpace server responded ${status}: ${JSON.stringify(body)}`);
  }
}

/** One note of _format_notes' simplified list. */
export interface FormattedNote {
  type: unknown;
  content: unknown;
}

/** What _get_components answers for one record (sort_by aside). */
export interface FormattedComponent {
  id: unknown;
  type: "resource_component";
  sortPosition: number;
  identifier: unknown;
  title: unknown;
  display_title: unknown;
  dates: unknown;
  date_expression: unknown;
  levelOfDescription: unknown;
  notes: FormattedNote[];
  children: FormattedComponent[] | false;
  has_children: boolean;
}

export interface DigitalObjectOptions {
  title?: string;
  uri?: string;
  location_of_originals?: string;
  object_type?: string;
  xlink_show?: string;
  xlink_actuate?: string;
  restricted?: boolean;
  use_statement?: string;
  use_conditions?: string;
  access_conditions?: string;
  size?: number;
  format_name?: string;
  format_version?: string;
  inherit_dates?: boolean;
  inherit_notes?: boolean;
}

export interface ChildOptions {
  title?: string;
  level?: string;
  start_date?: string;
  end_date?: string;
  date_expression?: string;
  notes?: Dict[];
}

/** The note types a digital object's note may have; add_digital_object maps any other inherited type to "note". */
const NOTE_DIGITAL_OBJECT_TYPES = new Set([
  "summary",
  "bioghist",
  "accessrestrict",
  "userestrict",
  "custodhist",
  "dimensions",
  "edition",
  "extent",
  "altformavail",
  "originalsloc",
  "note",
  "acqinfo",
  "inscription",
  "langmaterial",
  "legalstatus",
  "physdesc",
  "prefercite",
  "processinfo",
  "relatedmaterial",
]);

export class AgentArchivesClient {
  readonly session: Session;
  /** The answer to the last write (the client ignores it; the tests read its warnings). */
  lastWrite: unknown;

  constructor(
    base: string,
    private readonly repository = "/repositories/2",
  ) {
    this.session = new Session(base);
  }

  /** _login: an answer holding "error" is an AuthenticationError. */
  async login(user: string, password: string): Promise<void> {
    const reply = await this.session.login(user, password);
    if (!isDict(reply.body) || has(reply.body, "error")) throw new CommunicationError(reply.status, reply.body);
    at(reply.body, "session");
  }

  /** _request: anything but the expected 200, a body that is not JSON, or JSON holding "error", raises. */
  private async call(method: string, url: string, params?: Params, body?: unknown): Promise<unknown> {
    const reply = await this.session.send(method, url, params, body);
    if (reply.status !== 200 || reply.body === undefined) throw new CommunicationError(reply.status, reply.text);
    if (isDict(reply.body) && has(reply.body, "error")) throw new CommunicationError(reply.status, reply.body);
    return reply.body;
  }

  /** resource_type */
  resourceType(resourceId: string): "resource" | "resource_component" {
    const match = /repositories\/\d+\/(resources|archival_objects)\/\d+/.exec(resourceId);
    if (match === null) throw new Error(`Unable to determine type of provided ID: ${resourceId}`);
    return match[1] === "resources" ? "resource" : "resource_component";
  }

  /** get_record */
  getRecord(recordId: string): Promise<unknown> {
    return this.call("GET", recordId);
  }

  /** _format_notes: a note with a type, reduced to its first paragraph ("" when the shape does not have one). */
  formatNotes(record: unknown): FormattedNote[] {
    const notes: FormattedNote[] = [];
    for (const note of list(at(record, "notes"))) {
      if (!truthy(get(note, "type"))) continue;
      let content: unknown;
      try {
        content =
          at(note, "jsonmodel_type") === "note_singlepart"
            ? at(note, "content", 0)
            : at(note, "subnotes", 0, "content");
      } catch (error) {
        if (!(error instanceof PyIndexError || error instanceof PyKeyError)) throw error;
        content = "";
      }
      notes.push({ type: at(note, "type"), content });
    }
    return notes;
  }

  /** _process_notes: notes given replace the record's, keeping only odd and accessrestrict ones with content. */
  private processNotes(record: Dict, newRecord: Dict): boolean {
    if (!has(newRecord, "notes") || !truthy(newRecord.notes)) return false;
    const notes: Dict[] = [];
    for (const note of list(newRecord.notes)) {
      const type = at(note, "type");
      if ((type === "odd" || type === "accessrestrict") && truthy(get(note, "content"))) {
        notes.push({
          jsonmodel_type: "note_multipart",
          publish: true,
          subnotes: [{ content: at(note, "content"), jsonmodel_type: "note_text", publish: true }],
          type,
        });
      }
    }
    record.notes = notes;
    return true;
  }

  /** edit_record: read the record, set title, "levelOfDescription" (sic), notes and the first date, post it back. */
  async editRecord(newRecord: Dict): Promise<void> {
    const recordId = text(at(newRecord, "id"));
    const record = await this.getRecord(recordId);
    if (!isDict(record)) throw new Error("not a record");
    let updated = false;
    // The client's field map writes the level into "levelOfDescription", a field no ArchivesSpace record has.
    for (const [field, target] of [
      ["title", "title"],
      ["level", "levelOfDescription"],
    ] as const) {
      if (!has(newRecord, field)) continue;
      record[target] = newRecord[field];
      updated = true;
    }
    if (this.processNotes(record, newRecord)) updated = true;
    if (has(newRecord, "start_date") || has(newRecord, "end_date") || has(newRecord, "date_expression")) {
      const date: Dict = { jsonmodel_type: "date", date_type: "inclusive", label: "creation" };
      if (has(newRecord, "date_expression")) date.expression = newRecord.date_expression;
      if (has(newRecord, "start_date")) date.begin = newRecord.start_date;
      if (has(newRecord, "end_date")) date.end = newRecord.end_date;
      const dates = list(at(record, "dates"));
      if (dates.length === 0) record.dates = [date];
      else dates[0] = date;
      updated = true;
    }
    if (!updated) throw new Error("No fields to update specified!");
    this.lastWrite = await this.call("POST", recordId, undefined, record);
  }

  /** get_levels_of_description: the values of enumeration 32 (hard-coded: archival_record_level). */
  async getLevelsOfDescription(): Promise<unknown[]> {
    return list(at(await this.call("GET", "/config/enumerations/32"), "values"));
  }

  /** _fetch_date_expression_from_record */
  fetchDateExpressionFromRecord(record: unknown): unknown {
    if (!truthy(get(record, "dates"))) return "";
    const first = at(record, "dates", 0);
    return has(first, "expression") ? at(first, "expression") : "";
  }

  /** _fetch_dates_from_record: the expression, else "begin-end" (or begin), else "". */
  fetchDatesFromRecord(record: unknown): unknown {
    const expression = this.fetchDateExpressionFromRecord(record);
    if (truthy(expression)) return expression;
    let start: unknown;
    try {
      start = at(record, "dates", 0, "begin");
    } catch (error) {
      if (!(error instanceof PyIndexError || error instanceof PyKeyError)) throw error;
      return "";
    }
    const end = get(at(record, "dates", 0), "end");
    return end !== undefined && end !== null ? `${String(start)}-${String(end)}` : start;
  }

  /**
   * get_resource_component_and_children for an archival object (_get_components): the record, then each level of
   * children from <uri>/children, down to recurseMaxLevel (false: all the way).
   */
  async getComponents(resourceId: string, recurseMaxLevel: number | false = false): Promise<FormattedComponent> {
    const formatRecord = async (record: unknown, level: number): Promise<FormattedComponent> => {
      const uri = text(at(record, "uri"));
      const result: FormattedComponent = {
        id: uri,
        type: "resource_component",
        sortPosition: level,
        identifier: get(record, "component_id", ""),
        title: get(record, "title", ""),
        display_title: get(record, "display_string", ""),
        dates: this.fetchDatesFromRecord(record),
        date_expression: this.fetchDateExpressionFromRecord(record),
        levelOfDescription: at(record, "level"),
        notes: this.formatNotes(record),
        children: false,
        has_children: false,
      };
      const children = list(await this.call("GET", `${uri}/children`));
      if (children.length > 0 && recurseMaxLevel !== level) {
        result.children = [];
        for (const child of children) result.children.push(await formatRecord(child, level + 1));
        result.has_children = true;
      } else if (children.length > 0) {
        result.children = [];
        result.has_children = true;
      }
      return result;
    };
    return formatRecord(await this.getRecord(resourceId), 1);
  }

  /** collection_list: every record_uri under the resource's legacy tree, depth first (children where has_children). */
  async collectionList(resourceId: string): Promise<unknown[]> {
    const fetchChildren = (children: unknown[]): unknown[] => {
      const results: unknown[] = [];
      for (const child of children) {
        results.push(at(child, "record_uri"));
        if (truthy(at(child, "has_children"))) results.push(...fetchChildren(list(at(child, "children"))));
      }
      return results;
    };
    const tree = await this.call("GET", `${resourceId}/tree`);
    return fetchChildren(list(at(tree, "children")));
  }

  /**
   * _get_resources: the resource's legacy tree (<uri>/tree), each node's record fetched by its record_uri; the level
   * comes from the tree node. sortPosition is one more than the depth (the client counts up before it builds), every
   * node's type is "resource", and children stop (present but empty) at recurseMaxLevel.
   */
  async getResources(resourceId: string, recurseMaxLevel: number | false = false): Promise<Dict> {
    const formatRecord = async (record: unknown, level: number): Promise<Dict> => {
      const descend = recurseMaxLevel !== level;
      level += 1;
      const fullRecord = await this.getRecord(text(at(record, "record_uri")));
      const result: Dict = {
        ...this.recordPartOfGetResources(fullRecord, at(record, "level")),
        id: at(record, "record_uri"),
        sortPosition: level,
      };
      const children = list(at(record, "children"));
      if (children.length > 0 && descend) {
        const formatted: Dict[] = [];
        for (const child of children) formatted.push(await formatRecord(child, level));
        result.children = formatted;
        result.has_children = true;
      } else if (children.length > 0) {
        result.children = [];
        result.has_children = true;
      } else {
        result.children = false;
        result.has_children = false;
      }
      return result;
    };
    return formatRecord(await this.call("GET", `${resourceId}/tree`), 1);
  }

  /** get_resource_component_and_children: _get_resources for a resource, _get_components for an archival object. */
  getResourceComponentAndChildren(resourceId: string, recurseMaxLevel: number | false = false): Promise<unknown> {
    return this.resourceType(resourceId) === "resource"
      ? this.getResources(resourceId, recurseMaxLevel)
      : this.getComponents(resourceId, recurseMaxLevel);
  }

  /** augment_resource_ids: each one's record and children, two levels deep. */
  async augmentResourceIds(resourceIds: readonly string[]): Promise<unknown[]> {
    const augmented: unknown[] = [];
    for (const id of resourceIds) augmented.push(await this.getResourceComponentAndChildren(id, 2));
    return augmented;
  }

  /** find_resource_id_for_component */
  async findResourceIdForComponent(componentId: string): Promise<unknown> {
    return at(await this.getRecord(componentId), "resource", "ref");
  }

  /** find_parent_id_for_component: the parent if the record has one, else its resource, else itself. */
  async findParentIdForComponent(componentId: string): Promise<[string, unknown]> {
    const record = await this.getRecord(componentId);
    if (has(record, "parent")) return ["resource_component", at(record, "parent", "ref")];
    if (has(record, "resource")) return ["resource", at(record, "resource", "ref")];
    return ["resource", componentId];
  }

  /**
   * add_digital_object: a digital object built from the archival object read (its subjects, linked agents and, if
   * asked, dates and notes), then an instance linking it appended to the archival object, posted back whole.
   */
  async addDigitalObject(parent: string, identifier: string, options: DigitalObjectOptions = {}): Promise<Dict> {
    const o = {
      object_type: "text",
      xlink_show: "embed",
      xlink_actuate: "onLoad",
      restricted: false,
      use_statement: "",
      ...options,
    };
    const parentRecord = await this.getRecord(parent);
    const repository = text(at(parentRecord, "repository", "ref"));
    const language = get(parentRecord, "language", "");
    let title: unknown = o.title;
    if (!truthy(title)) {
      const filename = o.uri !== undefined ? (o.uri.split("/").pop() ?? "") : "Untitled";
      title = get(parentRecord, "display_string", filename);
    }
    const notes: Dict[] = [];
    const newObject: Dict = {
      title,
      digital_object_id: identifier,
      digital_object_type: o.object_type,
      language,
      notes,
      restrictions: o.restricted,
      subjects: at(parentRecord, "subjects"),
      linked_agents: at(parentRecord, "linked_agents"),
    };
    if (o.inherit_dates) newObject.dates = at(parentRecord, "dates");
    if (o.location_of_originals !== undefined) {
      notes.push({
        jsonmodel_type: "note_digital_object",
        type: "originalsloc",
        content: [o.location_of_originals],
        publish: false,
      });
    }
    const fileVersions: Dict[] = [];
    if (o.uri !== undefined) {
      fileVersions.push({
        file_uri: o.uri,
        use_statement: o.use_statement,
        xlink_show_attribute: o.xlink_show,
        xlink_actuate_attribute: o.xlink_actuate,
      });
      newObject.file_versions = fileVersions;
    }
    if (o.inherit_notes) {
      for (const note of list(at(parentRecord, "notes"))) {
        const type = at(note, "type");
        let content: unknown;
        if (has(note, "subnotes")) {
          content = list(at(note, "subnotes"))
            .filter((subnote) => has(subnote, "content"))
            .map((subnote) => at(subnote, "content"));
        } else content = get(note, "content", "");
        notes.push({
          jsonmodel_type: "note_digital_object",
          type: NOTE_DIGITAL_OBJECT_TYPES.has(text(type)) ? type : "note",
          label: get(note, "label", ""),
          content,
          publish: at(note, "publish"),
        });
      }
    }
    if (truthy(o.use_conditions)) {
      notes.push({
        jsonmodel_type: "note_digital_object",
        type: "userestrict",
        content: [o.use_conditions],
        publish: true,
      });
    }
    if (truthy(o.access_conditions)) {
      notes.push({
        jsonmodel_type: "note_digital_object",
        type: "accessrestrict",
        content: [o.access_conditions],
        publish: true,
      });
    }
    if (o.restricted) {
      (at(newObject, "file_versions", 0) as Dict).publish = false;
      newObject.publish = false;
    }
    if (truthy(o.size)) (at(newObject, "file_versions", 0) as Dict).file_size_bytes = o.size;
    if (truthy(o.format_name)) (at(newObject, "file_versions", 0) as Dict).file_format_name = o.format_name;
    if (truthy(o.format_version)) (at(newObject, "file_versions", 0) as Dict).file_format_version = o.format_version;

    const created = await this.call("POST", `${repository}/digital_objects`, undefined, newObject);
    this.lastWrite = created;
    const newObjectUri = at(created, "uri");
    list(at(parentRecord, "instances")).push({
      instance_type: "digital_object",
      digital_object: { ref: newObjectUri },
    });
    await this.call("POST", parent, undefined, parentRecord);
    newObject.id = newObjectUri;
    return newObject;
  }

  /** add_digital_object_component */
  async addDigitalObjectComponent(
    parentDigitalObject: string,
    parentComponent?: string,
    label?: string,
    title?: string,
  ): Promise<Dict> {
    const parentRecord = await this.getRecord(parentDigitalObject);
    const repository = text(at(parentRecord, "repository", "ref"));
    const newObject: Dict = {
      digital_object: { ref: parentDigitalObject },
      jsonmodel_type: "digital_object_component",
    };
    if (parentComponent !== undefined) newObject.parent = { ref: parentComponent };
    if (label !== undefined) newObject.label = label;
    if (title !== undefined) newObject.title = title;
    newObject.id = at(await this.call("POST", `${repository}/digital_object_components`, undefined, newObject), "uri");
    return newObject;
  }

  /** add_child: a new archival object under a resource or an archival object; answers its uri. */
  async addChild(parent: string, options: ChildOptions = {}): Promise<string> {
    const o = { title: "", level: "", start_date: "", end_date: "", date_expression: "", notes: [], ...options };
    const parentRecord = await this.getRecord(parent);
    const recordType = this.resourceType(parent);
    const repository = text(at(parentRecord, "repository", "ref"));
    const resource = recordType === "resource" ? parent : at(parentRecord, "resource", "ref");
    const newObject: Dict = {
      title: o.title,
      level: o.level,
      jsonmodel_type: "archival_object",
      resource: { ref: resource },
    };
    if (o.date_expression || o.start_date || o.end_date) {
      const date: Dict = { jsonmodel_type: "date", date_type: "inclusive", label: "creation" };
      if (o.date_expression) date.expression = o.date_expression;
      if (o.start_date) date.begin = o.start_date;
      if (o.end_date) date.end = o.end_date;
      newObject.dates = [date];
    }
    const notes: Dict[] = [];
    for (const note of o.notes) {
      const content = get(note, "content");
      if (!truthy(content)) continue;
      notes.push({
        jsonmodel_type: "note_multipart",
        publish: true,
        subnotes: [{ content, jsonmodel_type: "note_text", publish: true }],
        type: get(note, "type", "odd"),
      });
    }
    newObject.notes = notes;
    if (recordType === "resource_component") newObject.parent = { ref: parent };
    return text(at(await this.call("POST", `${repository}/archival_objects`, undefined, newObject), "uri"));
  }

  /** delete_record */
  deleteRecord(recordId: string): Promise<unknown> {
    return this.call("DELETE", recordId);
  }

  // -------------------------------------------------------------------------------------------
  // The parts that read records, of methods whose endpoint Arca lacks.

  /**
   * _get_resources' format_record, for the record it fetches at each node of <resource>/tree (the legacy tree):
   * `level` is the tree node's.
   */
  recordPartOfGetResources(fullRecord: unknown, level: unknown): Dict {
    const result: Dict = {
      id: at(fullRecord, "uri"),
      type: "resource",
      identifier: has(fullRecord, "id_0") ? at(fullRecord, "id_0") : get(fullRecord, "component_id", ""),
      title: get(fullRecord, "title", ""),
      dates: this.fetchDatesFromRecord(fullRecord),
      date_expression: this.fetchDateExpressionFromRecord(fullRecord),
      levelOfDescription: level,
      notes: this.formatNotes(fullRecord),
    };
    const display = get(fullRecord, "display_string");
    if (display !== undefined && display !== null) result.display_title = display;
    return result;
  }

  /** find_collections' format_record, for a resource's JSON (its has_children asks <uri>/tree: left out). */
  recordPartOfFindCollections(record: unknown): Dict {
    return {
      id: at(record, "uri"),
      type: "resource",
      sortPosition: 1,
      identifier: has(record, "id_0") ? at(record, "id_0") : get(record, "component_id", ""),
      title: get(record, "title", ""),
      dates: this.fetchDatesFromRecord(record),
      date_expression: this.fetchDateExpressionFromRecord(record),
      levelOfDescription: at(record, "level"),
      notes: this.formatNotes(record),
    };
  }

  /**
   * find_by_id: one field of archival objects or digital object components, each hit resolved and formatted
   * (format_record below).
   */
  async findById(objectType: string, field: string, value: string): Promise<Dict[]> {
    if (objectType !== "digital_object_components" && objectType !== "archival_objects")
      throw new Error("object_type must be 'digital_object_components' or 'archival_objects'");
    if (field !== "ref_id" && field !== "component_id") throw new Error("field must be 'component_id' or 'ref_id'");
    const hits = await this.call("GET", `${this.repository}/find_by_id/${objectType}`, {
      [`${field}[]`]: value,
      "resolve[]": objectType,
    });
    return list(at(hits, objectType)).map((hit) => this.recordPartOfFindById(hit));
  }

  /** find_by_id's format_record, for one hit: a ref with its _resolved record. */
  recordPartOfFindById(hit: unknown): Dict {
    const resolved = at(hit, "_resolved");
    const ref = text(at(hit, "ref"));
    return {
      id: ref,
      type: this.resourceType(ref),
      identifier: has(resolved, "ref_id") ? at(resolved, "ref_id") : get(resolved, "component_id", ""),
      title: get(resolved, "title", ""),
      levelOfDescription: get(resolved, "level", ""),
      fullrecord: resolved,
    };
  }
}
