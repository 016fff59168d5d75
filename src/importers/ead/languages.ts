// <langmaterial> as lang_materials: one per language (ISO 639-2 @langcode, else a known
// language name), and the element's prose ("Materials in English and German.") as a language
// note, as ArchivesSpace reads it. A language that cannot be coded is kept in that note.
import { lookupTable } from "../../registry/dictionary.js";
import type { XmlElement } from "../xml/xml-reader.js";
import type { LangMaterial, LanguageAndScript, NoteLangmaterial } from "../../../generated/types/index.js";
import { put } from "../record-draft.js";
import { publishOf } from "./context.js";
import { persistentId } from "./notes.js";
import { attribute, childrenNamed, elementChildren, markup, plain } from "./text.js";

/** Language names as finding aids write them, with their ISO 639-2/B codes. */
const LANGUAGE_NAMES: Readonly<Record<string, string>> = lookupTable({
  english: "eng",
  french: "fre",
  german: "ger",
  spanish: "spa",
  italian: "ita",
  latin: "lat",
  portuguese: "por",
  dutch: "dut",
  russian: "rus",
  chinese: "chi",
  japanese: "jpn",
  korean: "kor",
  hebrew: "heb",
  yiddish: "yid",
  greek: "gre",
  "ancient greek": "grc",
  arabic: "ara",
  polish: "pol",
  swedish: "swe",
  danish: "dan",
  norwegian: "nor",
  czech: "cze",
  hungarian: "hun",
  irish: "gle",
  welsh: "wel",
  "scottish gaelic": "gla",
  catalan: "cat",
  finnish: "fin",
  turkish: "tur",
  ukrainian: "ukr",
  hindi: "hin",
  persian: "per",
  vietnamese: "vie",
  swahili: "swa",
  icelandic: "ice",
  romanian: "rum",
  croatian: "hrv",
  serbian: "srp",
  slovak: "slo",
  slovenian: "slv",
  bulgarian: "bul",
  lithuanian: "lit",
  latvian: "lav",
  estonian: "est",
  armenian: "arm",
  tagalog: "tgl",
  "multiple languages": "mul",
  undetermined: "und",
  "no linguistic content": "zxx",
});

const LANGUAGE_CODE = /^[a-z]{3}$/;

function languageCode(element: XmlElement): string | undefined {
  const code = attribute(element, "langcode")?.toLowerCase();
  if (code !== undefined && LANGUAGE_CODE.test(code)) return code;
  return LANGUAGE_NAMES[
    plain(element)
      .toLowerCase()
      .replace(/[.;,]+$/, "")
  ];
}

function scriptCode(element: XmlElement | undefined): string | undefined {
  const raw =
    element === undefined
      ? undefined
      : (attribute(element, "scriptcode") ?? (element.name === "script" ? plain(element) : undefined));
  if (raw === undefined || !/^[a-z]{4}$/i.test(raw)) return undefined;
  return raw[0].toUpperCase() + raw.slice(1).toLowerCase();
}

/** The lang_materials of one <langmaterial>. */
export function langMaterials(element: XmlElement): LangMaterial[] {
  const materials: LangMaterial[] = [];
  const languages = elementChildren(element).flatMap((child) =>
    child.name === "language"
      ? [{ language: child, script: child }]
      : child.name === "languageset"
        ? childrenNamed(child, "language").map((language) => ({ language, script: childrenNamed(child, "script")[0] }))
        : [],
  );
  let uncoded = false;
  for (const { language, script } of languages) {
    const code = languageCode(language);
    if (code === undefined) {
      uncoded = true;
      continue;
    }
    const languageAndScript: LanguageAndScript = { jsonmodel_type: "language_and_script", language: code };
    put(languageAndScript, "script", scriptCode(script));
    materials.push({ jsonmodel_type: "lang_material", language_and_script: languageAndScript });
  }
  // The prose: everything but the language elements' own text, unless it says nothing more.
  const notes = childrenNamed(element, "descriptivenote").map((note) => markup(note, { breaks: true }));
  const prose = markup(element, {
    breaks: true,
    skip: (child) => child.name === "descriptivenote",
    unwrap: (child) => child.name === "language" || child.name === "languageset" || child.name === "script",
  });
  const languageText = languages
    .map(({ language, script }) =>
      script === language || script === undefined ? plain(language) : `${plain(language)} ${plain(script)}`,
    )
    .join(" ");
  const saysMore = prose.replace(/[\s.,;]+/g, "") !== languageText.replace(/[\s.,;]+/g, "");
  if (prose !== "" && (saysMore || uncoded)) notes.unshift(prose);
  for (const text of notes.filter(Boolean)) {
    const note: NoteLangmaterial = { jsonmodel_type: "note_langmaterial", type: "langmaterial", content: [text] };
    put(note, "label", attribute(element, "label"));
    put(note, "persistent_id", persistentId(element));
    put(note, "publish", publishOf(element));
    materials.push({ jsonmodel_type: "lang_material", notes: [note] });
  }
  return materials;
}
