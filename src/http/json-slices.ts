// A large JSON body written without holding the event loop for one long JSON.stringify, and
// without serializing twice what appears twice. resolve[] shares one object per target among
// every ref to it (records/operations/resolve.ts), so a response that shows a 1 MiB record
// three times costs one stringify and one UTF-8 encoding of it, written three times from the
// same Buffer; and the body is built in slices, yielding between the items of the top-level
// arrays, so every other request waits at most for one slice (bench:load, H3 in
// BENCHMARKS.md). The bytes are exactly those of JSON.stringify's output.

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
  /** The body so far, as UTF-8; `text` holds what is not yet encoded. */
  private readonly chunks: Buffer[] = [];
  private text: string[] = [];
  private sinceYield = 0;
  /** The UTF-8 of each repeated object, once it has been serialized. */
  private readonly encoded = new Map<object, Buffer>();

  constructor(private readonly repeated: ReadonlySet<object>) {}

  push(text: string): void {
    this.text.push(text);
    this.sinceYield += text.length;
  }

  /** A repeated object's bytes: encoded once, then the same Buffer wherever the object appears. */
  private pushShared(value: object): void {
    let bytes = this.encoded.get(value);
    if (bytes === undefined) this.encoded.set(value, (bytes = Buffer.from(JSON.stringify(value))));
    this.flush();
    this.chunks.push(bytes);
    this.sinceYield += bytes.length;
  }

  private flush(): void {
    if (this.text.length === 0) return;
    this.chunks.push(Buffer.from(this.text.join("")));
    this.text = [];
  }

  /** Every chunk of the body, in order. */
  finish(): Buffer[] {
    this.flush();
    return this.chunks;
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
    if (this.repeated.has(value)) return this.pushShared(value);
    if (depth >= WALK_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === "function")
      return this.push(JSON.stringify(value));
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
 * The UTF-8 of `JSON.stringify(body)`, as chunks to write in order, built in slices: an object
 * body's properties one by one, and the items of its array properties (a record's list of refs, a
 * page's results) one by one, yielding between them whenever a slice's worth of text is built. A
 * repeated object is one Buffer, shared by every place it appears: it is neither serialized nor
 * encoded twice, and the body is never joined into one string.
 */
export async function jsonChunks(body: Json, repeated: ReadonlySet<object> = repeatedObjects(body)): Promise<Buffer[]> {
  const out = new SliceWriter(repeated);
  if (Array.isArray(body)) {
    await writeItems(out, body, 1);
    return out.finish();
  }
  if (body === null || typeof body !== "object" || typeof (body as { toJSON?: unknown }).toJSON === "function") {
    out.write(body, 0);
    return out.finish();
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
  return out.finish();
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
