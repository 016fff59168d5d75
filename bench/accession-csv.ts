// A generated accession CSV for the import benchmark (bench/import.ts): rows in the layout of
// ArchivesSpace's accession import template as ../shared/data/csv/accessions_10_rows.csv has it
// (its 119 columns, in its order), filled as an archive's accession register would be: distinct
// identifiers (year and a running number, a third part on some rows), titles, accession dates
// (ISO and m/d/Y), acquisition and resource types, one or two dates, an extent, and on most rows
// an agent (person, corporate body or family) and a subject drawn with a skew from pools: 5,000
// rows name about 2,600 agents and 500 subjects, so a third of the agents and most subjects a row
// names were named on an earlier row (what the importer matches and reuses).
// Some rows also fill columns an accession has no place for (processing, acknowledgement,
// agent contact), as real registers do; the import reports those as warnings.
import { createWriteStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { ROOT } from "./common.js";

/** The template with ten rows that ships with the shared data: its header row is the layout. */
export const ACCESSION_TEMPLATE = join(ROOT, "..", "shared", "data", "csv", "accessions_10_rows.csv");

/** A list written as one string, its items between bars. */
const list = (items: string): readonly string[] => items.split("|");

const SURNAMES = list(
  "Abbott|Alvarez|Baker|Bernstein|Brennan|Castillo|Chen|Collins|Dubois|Duncan|Eriksen|Farrell|Fischer|Gallagher|Garcia|Goldberg|Hamilton|Hollis|Ibarra|Jansen|Kaminski|Kowalski|Larsen|Lindqvist|MacLeod|Marchetti|Morrison|Nakamura|Novak|O'Brien|Okafor|Patel|Petrov|Quinn|Ramirez|Rossi|Schneider|Sullivan|Takahashi|Van Buren|Vasquez|Wagner|Walsh|Weber|Whitfield|Yamamoto|Young|Zimmerman",
);
const GIVEN = list(
  "Ada|Albert|Anna|Arthur|Beatrice|Charles|Clara|Daniel|Dorothy|Edith|Edward|Eleanor|Frances|George|Grace|Harold|Helen|Henry|Irene|James|John|Josephine|Louise|Margaret|Martha|Mary|Oscar|Ruth|Samuel|Thomas|Walter|William",
);
const PLACES = list(
  "Albany|Hudson Valley|Kingston|Poughkeepsie|Saratoga|Troy|Ulster County|Catskill|Newburgh|Rhinebeck|Schenectady|Dutchess County",
);
const BODIES = list(
  "Historical Society|Garden Club|Board of Education|Public Library|Chamber of Commerce|Women's League|Iron Works|Savings Bank|Choral Society|Fire Company",
);
const TOPICS = list(
  "Agriculture|Architecture, Domestic|Banks and banking|Church records and registers|Civil rights|Clubs|Education|Families|Iron industry and trade|Land use|Music|Railroads|Women|Local history",
);
const PERIODS = ["", "19th century", "20th century"];
const GENRES = list("Correspondence|Diaries|Ledgers (account books)|Photographs|Scrapbooks");
const SUBORDINATES = ["", "Board of Trustees", "Building Committee", "Treasurer", "Archives"];
const EXTENT_TYPES = ["linear_feet", "cubic_feet", "Linear Feet", "volumes", "gigabytes", "photographic_prints"];
const TITLE_KINDS = ["Papers", "Records", "Collection", "Photographs", "Correspondence", "Diaries"];

/** A small seeded generator (mulberry32): the same file every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const quote = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

export interface AccessionCsv {
  bytes: number;
  rows: number;
  /** Distinct agents and subjects the rows name: what a first import creates. */
  agents: number;
  subjects: number;
}

/** Writes `rows` accession rows under the template's header to `path`. */
export async function writeAccessionCsv(path: string, rows: number): Promise<AccessionCsv> {
  const [headerLine] = (await readFile(ACCESSION_TEMPLATE, "utf8")).split(/\r?\n/);
  const columns = (headerLine as string).split(",");
  const next = random(12);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  // Skewed: a few agents and subjects are named often, most rarely, as in a real register.
  const skewed = (size: number): number => Math.floor(next() ** 1.5 * size);
  const agents = new Set<string>();
  const subjects = new Set<string>();
  const out = createWriteStream(path);
  const write = (text: string) =>
    out.write(text) ? Promise.resolve() : new Promise<void>((done) => out.once("drain", () => done()));
  await write(`${headerLine as string}\r\n`);
  const lines: string[] = [];
  for (let row = 1; row <= rows; row++) {
    const cells = new Map<string, string>();
    const set = (column: string, value: string | number) => cells.set(column, String(value));
    const year = 1995 + Math.floor((row - 1) / 250);
    set("accession_number_1", year);
    set("accession_number_2", String(((row - 1) % 250) + 1).padStart(3, "0"));
    if (row % 7 === 0) set("accession_number_3", pick(["a", "b", "c"]));
    const month = 1 + Math.floor(next() * 12);
    const day = 1 + Math.floor(next() * 28);
    set(
      "accession_accession_date",
      row % 3 === 0
        ? `${month}/${day}/${year}`
        : `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`,
    );
    set("accession_acquisition_type", pick(["gift", "Gift", "purchase", "deposit", "transfer"]));
    set("accession_resource_type", pick(["collection", "papers", "records"]));
    set("accession_publish", pick(["1", "0", "TRUE"]));
    set("accession_content_description", `Letters, ledgers and photographs; accession ${row} of the register.`);
    if (row % 4 === 0) set("accession_provenance", "Received from the creator's family.");
    if (row % 5 === 0) set("accession_general_note", "Housed in acid-free folders on receipt.");
    set("accession_restrictions_apply", row % 9 === 0 ? "1" : "0");
    set("lang_material_language", pick(["eng", "eng", "eng", "fre", "ger"]));
    set("lang_material_script", "Latn");
    const begin = 1850 + Math.floor(next() * 120);
    const end = begin + Math.floor(next() * 40);
    set("date_1_label", "creation");
    set("date_1_expression", `${begin}-${end}`);
    set("date_1_begin", begin);
    set("date_1_end", end);
    set("date_1_type", "inclusive");
    if (row % 6 === 0) {
      set("date_2_label", "creation");
      set("date_2_begin", begin + 1);
      set("date_2_end", Math.min(end, begin + 10));
      set("date_2_type", "bulk");
    }
    set("extent_type", pick(EXTENT_TYPES));
    set("extent_number", (0.25 + Math.floor(next() * 80) / 4).toString());
    set("extent_container_summary", `${1 + Math.floor(next() * 30)} boxes`);
    if (row % 10 === 0) {
      set("accession_processing_status", "new");
      set("accession_acknowledgement_sent", "1");
      set("accession_acknowledgement_sent_date", `${year}-06-30`);
    }

    let title = `Accession ${row}`;
    if (next() < 0.8) {
      const kind = next();
      if (kind < 0.6) {
        const n = skewed(4000);
        const surname = SURNAMES[n % SURNAMES.length] as string;
        const given = GIVEN[Math.floor(n / SURNAMES.length) % GIVEN.length] as string;
        const initial = String.fromCharCode(65 + (Math.floor(n / (SURNAMES.length * GIVEN.length)) % 26));
        const born = 1800 + ((n * 37) % 150);
        set("agent_type", "agent_person");
        set("agent_name_primary_name", surname);
        set("agent_name_rest_of_name", `${given} ${initial}.`);
        set("agent_name_dates", `${born}-${born + 40 + (n % 45)}`);
        set("agent_name_name_order", "inverted");
        set("agent_name_source", n % 3 === 0 ? "naf" : "local");
        set("agent_name_rules", "dacs");
        agents.add(`person ${n}`);
        title = `${given} ${surname} ${pick(TITLE_KINDS).toLowerCase()}`;
      } else if (kind < 0.85) {
        const n = skewed(PLACES.length * BODIES.length * SUBORDINATES.length);
        const place = PLACES[n % PLACES.length] as string;
        const body = `${place} ${BODIES[Math.floor(n / PLACES.length) % BODIES.length] as string}`;
        const subordinate = SUBORDINATES[Math.floor(n / (PLACES.length * BODIES.length))] as string;
        set("agent_type", "agent_corporate_entity");
        set("agent_name_primary_name", body);
        if (subordinate !== "") set("agent_name_subordinate_name_1", subordinate);
        set("agent_name_source", "local");
        agents.add(`body ${n}`);
        title = `${body} records`;
      } else {
        const n = skewed(SURNAMES.length * PLACES.length);
        const surname = SURNAMES[n % SURNAMES.length] as string;
        set("agent_type", "agent_family");
        set("agent_name_primary_name", surname);
        set("agent_name_qualifier", PLACES[Math.floor(n / SURNAMES.length)] as string);
        set("agent_name_source", "local");
        agents.add(`family ${n}`);
        title = `${surname} family papers`;
      }
      set("agent_role", pick(["creator", "creator", "source", "subject"]));
      if (next() < 0.3) set("agent_relator", "Creator (cre)");
      if (row % 25 === 0) {
        set("agent_contact_name", "Estate office");
        set("agent_contact_city", pick(PLACES));
      }
    }
    set("accession_title", `${title}, ${begin}-${end}`);
    if (next() < 0.75) {
      // Topical headings subdivided by place and period, as LCSH headings are; genre terms alone.
      const n = skewed(TOPICS.length * PLACES.length * PERIODS.length + GENRES.length);
      const topical = n < TOPICS.length * PLACES.length * PERIODS.length;
      const term = topical
        ? [
            TOPICS[n % TOPICS.length] as string,
            PLACES[Math.floor(n / TOPICS.length) % PLACES.length] as string,
            PERIODS[Math.floor(n / (TOPICS.length * PLACES.length))] as string,
          ]
            .filter(Boolean)
            .join(" -- ")
        : (GENRES[n % GENRES.length] as string);
      const [type, source] = topical ? ["topical", n % 5 === 0 ? "local" : "lcsh"] : ["genre_form", "aat"];
      set("subject_term", term);
      set("subject_term_type", type);
      set("subject_source", source);
      subjects.add(JSON.stringify([term, type, source]));
    }
    lines.push(columns.map((column) => quote(cells.get(column) ?? "")).join(",") + "\r\n");
    if (lines.length === 500) await write(lines.splice(0).join(""));
  }
  await write(lines.join(""));
  await new Promise<void>((done) => out.end(() => done()));
  return { bytes: (await stat(path)).size, rows, agents: agents.size, subjects: subjects.size };
}
