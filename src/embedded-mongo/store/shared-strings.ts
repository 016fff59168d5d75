// One copy of each short string index keys hold. A words index holds the same few thousand words millions of
// times: shared, a comparison of two entries with the same word is a pointer test over strings already in the
// cache, where a copy per entry meant reading both from memory (inserting a key is memory-latency bound: a descent
// compares about twenty scattered entries). It saves no memory yet: the documents still hold their own copies.
/** Longer strings (titles, uris) are rarely repeated: sharing them would only grow the table. */
const MAX_LENGTH = 48;
/** The table's bound: past it, strings not yet shared stay as they are. */
const MAX_STRINGS = 1 << 18;

const table = new Map<string, string>();

export function shared(value: string): string {
  if (value.length > MAX_LENGTH) return value;
  const found = table.get(value);
  if (found !== undefined) return found;
  if (table.size < MAX_STRINGS) table.set(value, value);
  return value;
}
