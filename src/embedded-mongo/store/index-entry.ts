// An entry of an index: a key and the record holding it.

export interface IndexEntry {
  k: unknown[];
  r: number;
  /** `k[0]`, held on the entry itself: most comparisons are decided by the leading field, now one read nearer. */
  h: unknown;
}

export function indexEntry(k: unknown[], r: number): IndexEntry {
  return { k, r, h: k[0] };
}
