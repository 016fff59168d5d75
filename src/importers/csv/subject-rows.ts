// A row of ArchivesSpace's subject import template (aspace_subject_import_template.csv) as a
// subject: term_1..term_4 with their types, in order, in the import's vocabulary. External
// documents and metadata rights declarations have no place in a subject here: reported.
import type { PendingRecord } from "../pending.js";
import type { FileSubjects, SubjectFields, SubjectTerm } from "./subject-records.js";
import type { TemplateRow } from "./template-row.js";

export const SUBJECT_TEMPLATE_MARKERS = ["term_1", "term_type_1"];

export class SubjectRows {
  /** Subject key -> the line that first named it. */
  private readonly lines = new Map<string, number>();

  constructor(private readonly subjects: FileSubjects) {}

  /** The row's subject, or nothing when an earlier row of the file named the same subject (warned). */
  map(row: TemplateRow): PendingRecord | undefined {
    const terms: SubjectTerm[] = [];
    for (let n = 1; ; n += 1) {
      const column = `term_${n}`;
      if (n > 4 && !row.anyFilled([column, `term_type_${n}`])) break;
      const term = row.text(column);
      const typeText = row.text(`term_type_${n}`);
      if (term === undefined) {
        if (typeText !== undefined) row.warn(`term_type_${n} without term_${n}; left out`);
        continue;
      }
      const termType = row.enumerated(`term_type_${n}`, "subject_term_type");
      if (termType === undefined && typeText === undefined)
        row.warn(`term_type_${n} is empty; '${term}' is imported as topical`);
      else if (termType === undefined) row.warn(`'${term}' is imported as topical`);
      terms.push({ term, term_type: termType ?? "topical" });
    }
    const [first, ...more] = terms;
    if (first === undefined) row.fail("no term: a subject needs term_1 (and term_type_1)");
    const source = row.enumerated("subject_source", "subject_source") ?? "local";
    const subject: SubjectFields = {
      terms: [first, ...more],
      source,
      authority_id: row.text("subject_authority_id"),
      scope_note: row.text("subject_scope_note"),
    };
    const unread = row.unread();
    if (unread.length > 0) row.warn(`not imported, no field takes them: ${unread.join(", ")}`);
    const claimed = this.subjects.claim(subject, row.source);
    const earlier = this.lines.get(claimed.key);
    if (claimed.pending === undefined) {
      row.warn(`the same subject as line ${earlier ?? "?"}: not created twice`);
      return undefined;
    }
    this.lines.set(claimed.key, row.line);
    return claimed.pending;
  }
}
