// A large JSON body written without holding the event loop for one long JSON.stringify, and
// without serializing twice what appears twice. resolve[] shares one object per target among
// every ref to it (records/operations/resolve.ts), so a response that shows a 1 MiB record
// three times costs one stringify of it and three copies of the text; and the text is built
// in slices, yielding between the items of the top-level arrays, so every other request
// waits at most for one slice (bench:load, H3 in BENCHMARKS.md). The output is exactly
// JSON.stringify's.

/** Text built between two yields to the event loop, at most (a slice may be one larger item). */
const SLICE_CHARS = 256 * 1024;

/** Below this depth the walk goes value by value, finding shared objects; at it, JSON.stringify takes the rest. */
const WALK_DEPTH = 6;

type Json = unknown;

/** The objects found more than once within WALK_DEPTH of the top (by identity): resolve[]'s shared targets. */
export function repeatedObjects(body: Json): Set<object> {
  const seen = new Set<object>();
  const repeated = new Set<object>();
  const stack: Array<[Json, number]> = [[body, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== "object") continue;
    if (seen.has(value)) {
      repeated.add(value);
      continue;
    }
    seen.add(value);
    if (depth >= WALK_DEPTH) continue;
    for (const inner of Array.isArray(value) ? value : Object.values(value)) stack.push([inner, depth + 1]);
  }
  return repeated;
}

class SliceWriter {
  readonly pieces: string[] = [];
  private sinceYield = 0;
  /** The text of each repeated object, once it has been serialized. */
  private readonly texts = new Map<object, string>();

  constructor(private readonly repeated: ReadonlySet<object>) {}

  push(text: string): void {
    this.pieces.push(text);
    this.sinceYield += text.length;
  }

  /** Yields to the event loop once a slice's worth of text has been built. */
  async breathe(): Promise<void> {
    if (this.sinceYield < SLICE_CHARS) return;
    this.sinceYield = 0;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /** One value, walked to WALK_DEPTH; synchronous (the caller yields between values). */
  write(value: Json, depth: number): void {
    if (value === null || typeof value !== "object") {
      // As JSON.stringify writes a value inside an array: undefined, functions and symbols are null.
      this.push(JSON.stringify(value) ?? "null");
      return;
    }
    if (this.repeated.has(value)) {
      let text = this.texts.get(value);
      if (text === undefined) this.texts.set(value, (text = JSON.stringify(value)));
      return this.push(text);
    }
    if (depth >= WALK_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === "function") return this.push(JSON.stringify(value));
    if (Array.isArray(value)) {
      this.push("[");
      value.forEach((item: Json, i) => {
        if (i > 0) this.push(",");
        this.write(item, depth + 1);
      });
      this.push("]");
      return;
    }
    this.push("{");
    let first = true;
    for (const [key, inner] of Object.entries(value)) {
      if (!writable(inner)) continue;
      this.push(`${first ? "" : ","}${JSON.stringify(key)}:`);
      this.write(inner, depth + 1);
      first = false;
    }
    this.push("}");
  }
}

/** Whether JSON.stringify writes this property at all (it leaves out undefined, functions and symbols). */
function writable(value: Json): boolean {
  return value !== undefined && typeof value !== "function" && typeof value !== "symbol";
}

/**
 * `JSON.stringify(body)`, built in slices: an object body's properties one by one, and the items
 * of its array properties (a record's list of refs, a page's results) one by one, yielding
 * between them whenever a slice's worth of text is built.
 */
export async function jsonInSlices(body: Json, repeated: ReadonlySet<object> = repeatedObjects(body)): Promise<string> {
  const out = new SliceWriter(repeated);
  if (Array.isArray(body)) {
    await writeItems(out, body, 1);
    return out.pieces.join("");
  }
  if (body === null || typeof body !== "object" || typeof (body as { toJSON?: unknown }).toJSON === "function") {
    out.write(body, 0);
    return out.pieces.join("");
  }
  out.push("{");
  let first = true;
  for (const [key, inner] of Object.entries(body)) {
    if (!writable(inner)) continue;
    out.push(`${first ? "" : ","}${JSON.stringify(key)}:`);
    first = false;
    if (!Array.isArray(inner)) {
      out.write(inner, 1);
      await out.breathe();
      continue;
    }
    await writeItems(out, inner, 2);
  }
  out.push("}");
  return out.pieces.join("");
}

async function writeItems(out: SliceWriter, items: readonly Json[], depth: number): Promise<void> {
  out.push("[");
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out.push(",");
    out.write(items[i], depth);
    await out.breathe();
  }
  out.push("]");
}
