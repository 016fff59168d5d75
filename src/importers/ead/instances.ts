// Instances: <container> elements become top containers and sub_container instances, <dao>,
// <daogrp> (EAD3 <daoset>) digital objects and digital object instances.
//
// Containers are grouped as ArchivesSpace groups them: a container with @parent joins the
// instance of the container it names; one without @parent joins the instance before it unless
// it has an @id (then it starts a new one), so the legacy `Box 1, Folder 2` pair is one
// instance. The top container of an instance is one pending record per distinct (type,
// indicator) or barcode in the file; only a barcode (unique in a repository) matches a stored
// container, since `Box 1` of another collection is another box. @label gives the instance
// type, and the barcode when it ends in brackets or parentheses (`Mixed materials [3914]`).
//
// Each dao, daogrp or daoset is one digital object (as in ArchivesSpace), its links file
// versions. Its digital_object_id is the (first) link's href, else its @id; a repeat within
// the file gets ` (2)`, ` (3)`, ... so each element keeps its own record; a digital object
// stored with that id is reused.
import type { XmlElement } from "../xml/xml-reader.js";
import type {
  DigitalObject,
  FileVersion,
  Instance,
  SubContainer,
  TopContainer,
} from "../../../generated/types/index.js";
import { put } from "../record-draft.js";
import { at, comparable, publishOf, type EadContext } from "./context.js";
import { attribute, childrenNamed, markup, plain } from "./text.js";

/** Container type words and the container_type value each means. */
const CONTAINER_SYNONYMS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    boxes: "box",
    folders: "folder",
    cartons: "carton",
    volumes: "volume",
    reels: "reel",
    items: "object",
    item: "object",
  }),
);

/** A container type the list lacks: the list value its name ends with (`halfbox` is a box, `flatfolder` a folder). */
function containerType(ctx: EadContext, raw: string, element: XmlElement): string | undefined {
  const direct = ctx.match("container_type", raw, CONTAINER_SYNONYMS);
  if (direct !== undefined) return direct;
  const word = comparable(raw).replace(/_/g, "");
  const kind = ctx
    .values("container_type")
    .find(
      (value) =>
        word.endsWith(value.replace(/_/g, "")) ||
        word.endsWith(`${value.replace(/_/g, "")}es`) ||
        word.endsWith(`${value.replace(/_/g, "")}s`),
    );
  return ctx.pick("container_type", raw, "container type", at(element), { fallback: kind });
}

/** "Mixed materials (31142046889807)" -> label and barcode. */
function labelParts(label: string): { label: string; barcode?: string } {
  const match = /^(.*?)\s*[[(]\s*([^\])]*?)\s*[\])]\s*$/.exec(label);
  if (match === null) return { label };
  return { label: match[1], barcode: match[2] === "" ? undefined : match[2] };
}

interface InstanceDraft {
  element: XmlElement;
  instanceType: string;
  top: string;
  levels: Array<{ type?: string; indicator: string }>;
}

function topContainerKey(
  ctx: EadContext,
  element: XmlElement,
  type: string | undefined,
  rawType: string | undefined,
  indicator: string,
  barcode: string | undefined,
): string {
  const identity =
    barcode !== undefined
      ? JSON.stringify(["top_container", "barcode", barcode])
      : JSON.stringify(["top_container", (rawType ?? "").toLowerCase(), indicator]);
  const known = ctx.known.get(identity);
  if (known !== undefined) return known;
  const key = ctx.nextKey("top_container");
  ctx.known.set(identity, key);
  const record: TopContainer = { indicator };
  put(record, "type", type);
  put(record, "barcode", barcode);
  ctx.need({
    key,
    type: "top_container",
    record,
    source: at(element),
    ...(barcode !== undefined && { match: { barcode }, onMatch: "reuse" as const }),
  });
  return key;
}

/** The container instances of one <did>'s <container> elements, in order. */
export function containerInstances(ctx: EadContext, containers: readonly XmlElement[]): Instance[] {
  const drafts: InstanceDraft[] = [];
  const byId = new Map<string, InstanceDraft>();
  for (const element of containers) {
    const indicator = plain(element);
    const rawType = attribute(element, "type") ?? attribute(element, "localtype");
    if (indicator === "") {
      if (rawType !== undefined)
        ctx.warn(
          `a <container> of type '${rawType}' without an indicator (its number or name): not imported`,
          at(element),
        );
      continue;
    }
    const id = attribute(element, "id");
    const parentId = attribute(element, "parent");
    let draft = parentId !== undefined ? byId.get(parentId) : id === undefined ? drafts.at(-1) : undefined;
    if (parentId !== undefined && draft === undefined)
      ctx.warn(
        `<container parent="${parentId}"> names no earlier container of this component: it starts an instance of its own`,
        at(element),
      );
    if (draft !== undefined && draft.levels.length >= 2) {
      ctx.warn(
        `a fourth container level ('${rawType ?? ""} ${indicator}') under one top container: ArchivesSpace instances hold three; it starts an instance of its own`,
        at(element),
      );
      draft = undefined;
    }
    const type = rawType === undefined ? undefined : containerType(ctx, rawType, element);
    if (draft !== undefined) {
      draft.levels.push({ type, indicator });
    } else {
      const label = attribute(element, "label");
      const parts: { label?: string; barcode?: string } = label === undefined ? {} : labelParts(label);
      const barcode = attribute(element, "containerid") ?? parts.barcode;
      const instanceType =
        parts.label === undefined || parts.label === ""
          ? "mixed_materials"
          : (ctx.pick("instance_instance_type", parts.label, "instance type (container @label)", at(element), {
              fallback: "mixed_materials",
            }) ?? "mixed_materials");
      draft = {
        element,
        instanceType,
        top: topContainerKey(ctx, element, type, rawType, indicator, barcode),
        levels: [],
      };
      drafts.push(draft);
    }
    if (id !== undefined) byId.set(id, draft);
  }
  return drafts.map((draft) => {
    const sub: SubContainer = { jsonmodel_type: "sub_container", top_container: { ref: draft.top } };
    const [second, third] = draft.levels;
    if (second !== undefined) {
      put(sub, "type_2", second.type);
      sub.indicator_2 = second.indicator;
    }
    if (third !== undefined) {
      put(sub, "type_3", third.type);
      sub.indicator_3 = third.indicator;
    }
    return { jsonmodel_type: "instance", instance_type: draft.instanceType, sub_container: sub };
  });
}

/** A link of a digital object: <dao>, <daoloc> (EAD 2002) or an EAD3 <dao> in a <daoset>. */
function fileVersion(ctx: EadContext, link: XmlElement): FileVersion | undefined {
  const href = attribute(link, "href");
  if (href === undefined) return undefined;
  const where = at(link);
  const version: FileVersion = { jsonmodel_type: "file_version", file_uri: href };
  const role = attribute(link, "role") ?? attribute(link, "localtype");
  if (role !== undefined)
    put(version, "use_statement", ctx.pick("file_version_use_statement", role, "digital object use (@role)", where));
  const actuate = attribute(link, "actuate");
  if (actuate !== undefined)
    put(
      version,
      "xlink_actuate_attribute",
      ctx.pick("file_version_xlink_actuate_attribute", actuate, "xlink:actuate", where),
    );
  const show = attribute(link, "show");
  if (show !== undefined)
    put(version, "xlink_show_attribute", ctx.pick("file_version_xlink_show_attribute", show, "xlink:show", where));
  put(version, "caption", link.name === "daoloc" ? attribute(link, "title") : undefined);
  put(version, "publish", publishOf(link));
  return version;
}

/** The digital object instance of a <dao>, <daogrp> or <daoset>. */
export function digitalObjectInstance(ctx: EadContext, element: XmlElement): Instance | undefined {
  const where = at(element);
  const links = element.name === "dao" ? [element] : childrenNamed(element, "daoloc", "dao");
  const description =
    childrenNamed(element, "daodesc", "descriptivenote")[0] ??
    links.map((link) => childrenNamed(link, "daodesc", "descriptivenote")[0]).find(Boolean);
  const descriptionText = description === undefined ? undefined : markup(description, { breaks: true }) || undefined;
  const title =
    attribute(element, "title") ??
    attribute(element, "linktitle") ??
    attribute(element, "label") ??
    descriptionText ??
    links.map((link) => attribute(link, "title") ?? attribute(link, "linktitle")).find(Boolean) ??
    attribute(links[0] ?? element, "href");
  const versions = links
    .map((link) => fileVersion(ctx, link))
    .filter((version): version is FileVersion => version !== undefined);
  const baseId =
    attribute(links[0] ?? element, "href") ??
    attribute(element, "id")?.replace(/^aspace_/, "") ??
    `${ctx.fileIdentity} ${ctx.nextKey("digital_object_id").replace(/^ead:digital_object_id:/, "dao ")}`;
  if (title === undefined) {
    ctx.warn(`<${element.name}> has no title, description or link: no digital object`, where);
    return undefined;
  }
  let id = baseId;
  for (let n = 2; ctx.known.has(JSON.stringify(["digital_object_id", id])); n++) id = `${baseId} (${n})`;
  if (id !== baseId)
    ctx.warnOnce(
      `dao id ${baseId}`,
      `several digital objects in the file link '${baseId}': each is its own digital object, identified '${baseId} (2)', ...`,
      where,
    );
  const key = ctx.nextKey("digital_object");
  ctx.known.set(JSON.stringify(["digital_object_id", id]), key);
  const record: DigitalObject = { title, digital_object_id: id };
  put(record, "file_versions", versions);
  put(record, "publish", publishOf(element));
  const typed = [element, ...links].find(
    (link) => attribute(link, "otherdaotype") !== undefined || attribute(link, "daotype") !== undefined,
  );
  const daotype = typed === undefined ? undefined : (attribute(typed, "otherdaotype") ?? attribute(typed, "daotype"));
  if (daotype !== undefined && !["unknown", "otherdaotype", "derived", "borndigital"].includes(daotype)) {
    put(
      record,
      "digital_object_type",
      ctx.pick("digital_object_digital_object_type", daotype, "digital object type", where),
    );
  }
  if (descriptionText !== undefined && descriptionText !== title)
    record.notes = [{ jsonmodel_type: "note_digital_object", type: "note", content: [descriptionText] }];
  ctx.need({ key, type: "digital_object", record, source: where, match: { digital_object_id: id }, onMatch: "reuse" });
  return { jsonmodel_type: "instance", instance_type: "digital_object", digital_object: { ref: key } };
}
