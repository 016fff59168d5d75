// Names and subjects: <origination> and <controlaccess> persname/corpname/famname become agents
// linked as creators (or sources) and subjects; subject/geogname/genreform/occupation/function/
// title become subjects. One pending record per distinct agent or subject in the file, matched
// against what is stored (agents by sort name and authority id, subjects by vocabulary, source
// and exact terms or by authority id) so that other files and re-imports reuse them.
import type { LinkedAgent, Ref, Subject } from "../../../generated/types/index.js";
import { lookupTable } from "../../registry/dictionary.js";
import {
  agentRecord,
  PRIMARY_NAME_FIELD,
  sortNameOf,
  type AgentType,
  type NameDraft,
  type NameTextField,
} from "../agent-records.js";
import type { XmlElement } from "../xml/xml-reader.js";
import { put } from "../record-draft.js";
import { at, publishOf, type EadContext } from "./context.js";
import { relatorCode } from "./relator-terms.js";
import { attribute, childrenNamed, elementChildren, plain } from "./text.js";

export const AGENT_ELEMENTS: Readonly<Record<string, AgentType>> = lookupTable({
  persname: "agent_person",
  famname: "agent_family",
  corpname: "agent_corporate_entity",
  // ArchivesSpace reads a bare <name> as a person.
  name: "agent_person",
});

export const SUBJECT_ELEMENTS: Readonly<Record<string, string>> = lookupTable({
  subject: "topical",
  geogname: "geographic",
  genreform: "genre_form",
  occupation: "occupation",
  function: "function",
  title: "uniform_title",
});

const str = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;

/** How finding aids write the name sources of ArchivesSpace's list: LC's authority file is `naf` there. */
const NAME_SOURCE_SYNONYMS: ReadonlyMap<string, string> = new Map([
  ["lcnaf", "naf"],
  ["lcnamesauthority", "naf"],
  ["lc", "naf"],
]);

/** EAD3 <part localtype> values and the name field each fills, by agent type. */
const PART_FIELDS: Record<AgentType, Readonly<Record<string, NameTextField>>> = lookupTable({
  agent_person: lookupTable({
    surname: "primary_name",
    primary: "primary_name",
    primaryname: "primary_name",
    forename: "rest_of_name",
    restofname: "rest_of_name",
    existdates: "dates",
    dates: "dates",
    termsofaddress: "title",
    title: "title",
    numeration: "number",
    number: "number",
    fullerform: "fuller_form",
    qualifier: "qualifier",
    prefix: "prefix",
    suffix: "suffix",
  }),
  agent_family: lookupTable({
    surname: "family_name",
    familyname: "family_name",
    primarypart: "family_name",
    primary: "family_name",
    existdates: "dates",
    dates: "dates",
    qualifier: "qualifier",
    prefix: "prefix",
  }),
  agent_corporate_entity: lookupTable({
    primarypart: "primary_name",
    primary: "primary_name",
    primaryname: "primary_name",
    secondarypart: "subordinate_name_1",
    subordinate: "subordinate_name_1",
    existdates: "dates",
    dates: "dates",
    qualifier: "qualifier",
    number: "number",
    numeration: "number",
  }),
});

/**
 * The name subrecord: EAD 2002's text whole in the primary name (as ArchivesSpace does), EAD3's parts by @localtype.
 */
function nameOf(ctx: EadContext, type: AgentType, element: XmlElement): NameDraft | undefined {
  const name: NameDraft = {};
  const parts = childrenNamed(element, "part");
  // keys: AgentType, the code's own union
  const primary = PRIMARY_NAME_FIELD[type];
  if (parts.length === 0) {
    const text = plain(element);
    if (text === "") return undefined;
    name[primary] = text;
  } else {
    const loose: string[] = [];
    for (const part of parts) {
      const text = plain(part);
      if (text === "") continue;
      const field = PART_FIELDS[type][(part.attributes.localtype ?? "").toLowerCase().replace(/[^a-z]/g, "")];
      if (field === undefined) loose.push(text);
      else if (field === "subordinate_name_1" && name.subordinate_name_1 !== undefined)
        name.subordinate_name_2 = name.subordinate_name_2 === undefined ? text : `${name.subordinate_name_2}. ${text}`;
      else name[field] = name[field] === undefined ? text : `${name[field]} ${text}`;
    }
    // Parts without a known @localtype: the first is the name itself when nothing else is, the
    // rest its subdivisions, as EAD 2002 writes them (`Name -- Subdivision`).
    if (loose.length > 0) name[primary] = [name[primary], ...loose].filter(Boolean).join(" -- ");
    if (name[primary] === undefined) {
      ctx.warn(
        `<${element.name}> has no part that is the name itself (surname, primaryPart, or a part without @localtype): its parts are joined as the name`,
        at(element),
      );
      name[primary] = parts
        .map((part) => plain(part))
        .filter(Boolean)
        .join(" ");
      if (name[primary] === "") return undefined;
    }
  }
  if (type === "agent_person") {
    name.name_order = "inverted";
    // A primary name is at most 255 characters: a longer one is split at its first comma.
    const full = name.primary_name ?? "";
    if (full.length > 255 && full.includes(", ") && name.rest_of_name === undefined) {
      const cut = full.indexOf(", ");
      name.primary_name = full.slice(0, cut);
      name.rest_of_name = full.slice(cut + 2);
    }
  }
  const where = at(element);
  const rules = attribute(element, "rules");
  if (rules !== undefined) put(name, "rules", ctx.pick("name_rule", rules, "name rules", where));
  const source = attribute(element, "source");
  if (source !== undefined)
    put(name, "source", ctx.pick("name_source", source, "name source", where, { synonyms: NAME_SOURCE_SYNONYMS }));
  put(name, "authority_id", attribute(element, "authfilenumber") ?? attribute(element, "identifier"));
  return name;
}

/** A name as compared within a file: its letters and digits, lower case. */
export const sameName = (name: string): string => name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

/** The key of the agent an access element names (its pending record handed on the first time). */
function agentKey(ctx: EadContext, type: AgentType, element: XmlElement): string | undefined {
  const name = nameOf(ctx, type, element);
  if (name === undefined) {
    ctx.warn(`an empty <${element.name}>: no agent`, at(element));
    return undefined;
  }
  const sort = sortNameOf(type, name);
  const authorityId = str(name.authority_id);
  // Punctuation and spacing do not tell names apart within a file: an <origination>'s
  // "Slytherin Salazar d. circa 1100" in loose parts is the <controlaccess>'s "Slytherin, Salazar, d. circa 1100".
  const identity = JSON.stringify(["agent", type, sameName(sort), authorityId ?? null]);
  const known = ctx.known.get(identity);
  if (known !== undefined) return known;
  const key = ctx.nextKey(type);
  ctx.known.set(identity, key);
  const publish = publishOf(element);
  const record = agentRecord(type, { names: [name], ...(publish !== undefined && { publish }) });
  const match: Record<string, string> = { "names.sort_name": sort };
  if (authorityId !== undefined) match["names.authority_id"] = authorityId;
  ctx.need({ key, type, record, source: at(element), match, onMatch: "reuse" });
  return key;
}

/** A MARC relator code from @role/@relator: `cre`, the code in "Creator (cre)", or a term's ("Photographer"). */
function relatorOf(ctx: EadContext, element: XmlElement): string | undefined {
  const raw = attribute(element, "relator") ?? attribute(element, "role");
  if (raw === undefined) return undefined;
  const code = /^([a-z]{3})$/i.exec(raw)?.[1] ?? /\(([a-z]{3})\)\s*$/i.exec(raw)?.[1];
  if (code !== undefined) return code.toLowerCase();
  const termCode = relatorCode(raw);
  if (termCode !== undefined) return termCode;
  ctx.warnOnce(
    `relator ${raw}`,
    `role '${raw}' is not a MARC relator code or term (three letters, alone or in parentheses, or a term such as photographer): the agent is linked without a relator`,
    at(element),
  );
  return undefined;
}

/** A linked agent (`{ref, role, relator}`) for a name element, or undefined when it names nobody. */
export function linkedAgent(
  ctx: EadContext,
  element: XmlElement,
  role: "creator" | "source" | "subject",
): LinkedAgent | undefined {
  const type = AGENT_ELEMENTS[element.name];
  if (type === undefined) return undefined;
  const ref = agentKey(ctx, type, element);
  if (ref === undefined) return undefined;
  const link: LinkedAgent = { ref, role };
  put(link, "relator", relatorOf(ctx, element));
  return link;
}

/** A subject link (`{ref}`) for a subject element. */
export function subjectLink(ctx: EadContext, element: XmlElement): Ref | undefined {
  const defaultType = SUBJECT_ELEMENTS[element.name];
  if (defaultType === undefined) return undefined;
  const where = at(element);
  const parts = childrenNamed(element, "part");
  const termTypes = ctx.values("subject_term_type");
  const terms: Array<{ term: string; term_type: string }> = [];
  if (parts.length === 0) {
    const text = plain(element);
    if (text !== "") terms.push({ term: text, term_type: defaultType });
  } else {
    for (const part of parts) {
      const text = plain(part);
      const localtype = part.attributes.localtype;
      if (text === "") continue;
      terms.push({
        term: text,
        term_type: localtype !== undefined && termTypes.includes(localtype) ? localtype : defaultType,
      });
    }
  }
  if (terms.length === 0) {
    ctx.warn(`an empty <${element.name}>: no subject`, where);
    return undefined;
  }
  const rawSource = attribute(element, "source");
  const source =
    rawSource === undefined
      ? "local"
      : (ctx.pick("subject_source", rawSource, "subject source", where, { fallback: "local" }) ?? "local");
  const authorityId = attribute(element, "authfilenumber") ?? attribute(element, "identifier");
  const vocabulary = ctx.vocabulary;
  const match: Record<string, string | null> =
    authorityId !== undefined ? { authority_id: authorityId, vocabulary } : { vocabulary, source };
  if (authorityId === undefined) {
    terms.forEach((term, i) => {
      match[`terms.${i}.term`] = term.term;
      match[`terms.${i}.term_type`] = term.term_type;
    });
    // Exactly these terms: a stored subject with one more is another subject.
    match[`terms.${terms.length}`] = null;
  }
  const identity = JSON.stringify(["subject", match]);
  const known = ctx.known.get(identity);
  if (known !== undefined) return { ref: known };
  const key = ctx.nextKey("subject");
  ctx.known.set(identity, key);
  const [first, ...more] = terms.map((term) => ({ jsonmodel_type: "term" as const, ...term, vocabulary }));
  const record: Subject = { source, vocabulary, terms: [first, ...more] };
  put(record, "authority_id", authorityId);
  put(record, "publish", publishOf(element));
  ctx.need({ key, type: "subject", record, source: where, match, onMatch: "reuse" });
  return { ref: key };
}

export interface AccessLinks {
  agents: LinkedAgent[];
  subjects: Ref[];
}

/** A <controlaccess> (nested ones included): agents linked as subjects, and subjects. */
export function controlaccess(
  ctx: EadContext,
  element: XmlElement,
  into: AccessLinks = { agents: [], subjects: [] },
): AccessLinks {
  const refs = new Set(into.subjects.map((subject) => subject.ref));
  // Nested <controlaccess> in document order, with a stack rather than recursion (nesting is as deep as the file's).
  const stack: XmlElement[] = [...elementChildren(element)].reverse();
  while (stack.length > 0) {
    const child = stack.pop() as XmlElement;
    if (child.name === "controlaccess") stack.push(...elementChildren(child).reverse());
    else if (AGENT_ELEMENTS[child.name] !== undefined) {
      const link = linkedAgent(ctx, child, "subject");
      if (link !== undefined) into.agents.push(link);
    } else if (SUBJECT_ELEMENTS[child.name] !== undefined) {
      const link = subjectLink(ctx, child);
      if (link !== undefined && !refs.has(link.ref)) {
        refs.add(link.ref);
        into.subjects.push(link);
      }
    } else if (child.name !== "head" && plain(child) !== "") {
      ctx.warn(`<${child.name}> in <controlaccess> is not an agent or subject: not imported`, at(child));
    }
  }
  return into;
}

/** An <origination>: its names as creators (or sources, when its @label says so). */
export function origination(ctx: EadContext, element: XmlElement): LinkedAgent[] {
  const role = attribute(element, "label")?.toLowerCase() === "source" ? "source" : "creator";
  const links: LinkedAgent[] = [];
  for (const child of elementChildren(element)) {
    const link = linkedAgent(ctx, child, role);
    if (link !== undefined) links.push(link);
    else if (plain(child) !== "") ctx.warn(`<${child.name}> in <origination> is not a name: not imported`, at(child));
  }
  if (links.length === 0 && elementChildren(element).length === 0 && plain(element) !== "") {
    ctx.warn(`<origination> has text but no name element: not imported`, at(element));
  }
  return links;
}
