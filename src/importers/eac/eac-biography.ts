// An EAC-CPF biogHist as an agent's biographical note (note_bioghist): paragraphs, abstracts and
// citations as text subnotes, a chronList as a chronology (each item's date and event, its
// place after the event), a list as an ordered list. Inline markup (span) is flattened to text.
import type { NoteBioghist, NoteChronology } from "../../../generated/types/index.js";
import { childElement, childElements, textOf } from "../xml/xml-element.js";
import type { XmlElement } from "../xml/xml-reader.js";
import { dateText } from "./eac-dates.js";

function chronology(list: XmlElement): NoteChronology {
  const items = childElements(list, "chronItem").map((item) => {
    const event = childElement(item, "event");
    const place = childElement(item, "placeEntry");
    const text = [event === undefined ? "" : textOf(event), place === undefined ? "" : `(${textOf(place)})`]
      .filter((part) => part !== "")
      .join(" ");
    return { event_date: dateText(item), events: text === "" ? [] : [text] };
  });
  return { jsonmodel_type: "note_chronology", items };
}

/** The note, or undefined when the biogHist holds no text. Elements it does not know are read as text. */
export function biographicalNote(biogHist: XmlElement): NoteBioghist | undefined {
  const subnotes: NonNullable<NoteBioghist["subnotes"]> = [];
  for (const child of childElements(biogHist)) {
    if (child.name === "chronList") subnotes.push(chronology(child));
    else if (child.name === "list")
      subnotes.push({
        jsonmodel_type: "note_orderedlist",
        enumeration: "null",
        items: childElements(child, "item").map(textOf),
      });
    else {
      const text = textOf(child);
      if (text !== "") subnotes.push({ jsonmodel_type: "note_text", content: text });
    }
  }
  return subnotes.length === 0 ? undefined : { jsonmodel_type: "note_bioghist", subnotes };
}
