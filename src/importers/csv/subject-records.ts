// Subjects as the parsers hand them on: one pending record per distinct subject of a file,
// matched against the stored subjects of the vocabulary so that importing again links the
// existing subject. Shared by the CSV and MARCXML parsers.
import type { Subject, Term } from "../../../generated/types/index.js";
import type { PendingRecord, SourceLocation } from "../pending.js";
import { untyped } from "../record-draft.js";

/** A term as a source gives it: `term_type` a subject_term_type value; the vocabulary is the file's. */
export type SubjectTerm = Pick<Term, "term" | "term_type">;

export interface SubjectFields {
  /** At least one, as a subject has. */
  terms: [SubjectTerm, ...SubjectTerm[]];
  /** A subject_source value. */
  source: string;
  authority_id?: string;
  scope_note?: string;
}

/**
 * The subjects one file names, in one vocabulary. The first time the file names a subject (same
 * authority id, or else the same source and terms in order), `claim` gives its pending record;
 * later, only its key. A subject with an authority id matches the stored subject with that id
 * in the vocabulary (ids are unique there); one without matches a stored subject with exactly
 * these terms, in order, and this source.
 */
export class FileSubjects {
  private readonly keys = new Map<string, string>();
  private created = 0;

  constructor(
    private readonly prefix: string,
    /** The vocabulary's uri, e.g. `/vocabularies/1`. */
    readonly vocabulary: string,
  ) {}

  /** The key of a subject the file named before with these fields, if any. */
  known(subject: SubjectFields): string | undefined {
    return this.keys.get(this.identity(subject));
  }

  claim(subject: SubjectFields, source: SourceLocation): { key: string; pending?: PendingRecord } {
    const identity = this.identity(subject);
    const known = this.keys.get(identity);
    if (known !== undefined) return { key: known };
    this.created += 1;
    const key = `${this.prefix}:subject:${this.created}`;
    this.keys.set(identity, key);
    const vocabulary = this.vocabulary;
    const [first, ...more] = subject.terms.map((term): Term => ({
      term: term.term,
      term_type: term.term_type,
      vocabulary,
    }));
    const record: Subject = { source: subject.source, vocabulary, terms: [first, ...more] };
    if (subject.authority_id !== undefined) record.authority_id = subject.authority_id;
    if (subject.scope_note !== undefined) record.scope_note = subject.scope_note;
    const match = this.matchOf(subject);
    return { key, pending: untyped({ key, type: "subject", record, source, match, onMatch: "reuse" }) };
  }

  private identity(subject: SubjectFields): string {
    if (subject.authority_id !== undefined) return JSON.stringify(["authority", subject.authority_id]);
    return JSON.stringify([subject.source, subject.terms.map((term) => [term.term, term.term_type])]);
  }

  private matchOf(subject: SubjectFields): Record<string, string | null> {
    if (subject.authority_id !== undefined) return { authority_id: subject.authority_id, vocabulary: this.vocabulary };
    const match: Record<string, string | null> = { vocabulary: this.vocabulary, source: subject.source };
    subject.terms.forEach((term, i) => {
      match[`terms.${i}.term`] = term.term;
      match[`terms.${i}.term_type`] = term.term_type;
    });
    // Exactly these terms: a stored subject with one more term is another subject.
    match[`terms.${subject.terms.length}`] = null;
    return match;
  }
}
