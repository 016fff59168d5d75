// The values a dotted path reaches in a document, with MongoDB's array rules: what sorts and
// index keys (store/index-keys.ts) both read.
import { isDocument } from "../bson-values.js";

/** What a path's walk met beside its values. */
export interface PathState {
  /** An array was expanded. */
  arrays: boolean;
  /** An array was met before the path's last field, or held null (or undefined): set only, never cleared. */
  unusualArrays?: boolean;
}

/** Every value a dotted path reaches in a document; `arrays` is set when an array was expanded. */
export function pathValues(doc: unknown, path: string[], state: PathState, depth = 0): unknown[] {
  if (depth === path.length) {
    if (Array.isArray(doc)) {
      state.arrays = true;
      if (doc.some((element) => element === null || element === undefined)) state.unusualArrays = true;
      // An empty array indexes as undefined in MongoDB; null keeps it in the null bucket,
      // which only ever serves inexact bounds that are re-checked against the document.
      return doc.length === 0 ? [null] : doc;
    }
    return [doc === undefined ? null : doc];
  }
  if (Array.isArray(doc)) {
    state.arrays = true;
    state.unusualArrays = true;
    const out: unknown[] = [];
    const segment = path[depth];
    // A numeric segment addresses an element positionally as well as fanning out.
    if (/^\d+$/.test(segment) && Number(segment) < doc.length)
      out.push(...pathValues(doc[Number(segment)], path, state, depth + 1));
    for (const element of doc) if (isDocument(element)) out.push(...pathValues(element, path, state, depth));
    return out.length === 0 ? [null] : out;
  }
  if (!isDocument(doc)) return [null];
  return pathValues(doc[path[depth]], path, state, depth + 1);
}
