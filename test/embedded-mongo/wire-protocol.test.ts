// The wire protocol spoken byte by byte: what drivers send, and what a broken or hostile
// client might. A bad frame closes that connection only; the engine keeps serving others.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { connect, type Socket } from "node:net";
import { deserialize, serialize, type Document } from "bson";
import { crc32c } from "../../src/embedded-mongo/durability/crc32c.js";
import { startEngine, type RunningEngine } from "../../src/embedded-mongo/index.js";

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_COMPRESSED = 2012;
const OP_MSG = 2013;

function header(length: number, requestId: number, opCode: number): Buffer {
  const head = Buffer.alloc(16);
  head.writeInt32LE(length, 0);
  head.writeInt32LE(requestId, 4);
  head.writeInt32LE(opCode, 12);
  return head;
}

interface MsgOptions {
  flags?: number;
  checksum?: "valid" | "wrong";
  sequence?: { identifier: string; docs: Document[] };
}

function opMsg(body: Document, requestId = 1, options: MsgOptions = {}): Buffer {
  const parts: Buffer[] = [Buffer.from([0]), Buffer.from(serialize(body))];
  if (options.sequence) {
    const docs = Buffer.concat(options.sequence.docs.map((d) => Buffer.from(serialize(d))));
    const id = Buffer.from(`${options.sequence.identifier}\0`);
    const size = Buffer.alloc(4);
    size.writeInt32LE(4 + id.length + docs.length);
    parts.push(Buffer.from([1]), size, id, docs);
  }
  let flags = options.flags ?? 0;
  if (options.checksum) flags |= 1;
  const flagBytes = Buffer.alloc(4);
  flagBytes.writeUInt32LE(flags >>> 0);
  const payload = Buffer.concat([flagBytes, ...parts]);
  const length = 16 + payload.length + (options.checksum ? 4 : 0);
  const message = Buffer.concat([header(length, requestId, OP_MSG), payload]);
  if (!options.checksum) return message;
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE(options.checksum === "valid" ? crc32c(message) : (crc32c(message) ^ 1) >>> 0);
  return Buffer.concat([message, crc]);
}

function opQuery(ns: string, query: Document, requestId = 1): Buffer {
  const body = Buffer.concat([Buffer.alloc(4), Buffer.from(`${ns}\0`), Buffer.alloc(8), Buffer.from(serialize(query))]);
  body.writeInt32LE(-1, 4 + ns.length + 1 + 4); // numberToReturn
  return Buffer.concat([header(16 + body.length, requestId, OP_QUERY), body]);
}

interface Reply {
  opCode: number;
  responseTo: number;
  doc: Document;
}

/** A raw connection that collects replies and notices when the server closes it. */
class RawClient {
  private buffered = Buffer.alloc(0);
  private readonly replies: Reply[] = [];
  private waiters: Array<() => void> = [];
  closed = false;

  private constructor(private readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      while (this.buffered.length >= 4 && this.buffered.length >= this.buffered.readInt32LE(0)) {
        const length = this.buffered.readInt32LE(0);
        const message = this.buffered.subarray(0, length);
        this.buffered = this.buffered.subarray(length);
        const opCode = message.readInt32LE(12);
        const docStart = opCode === OP_REPLY ? 36 : 21;
        this.replies.push({ opCode, responseTo: message.readInt32LE(8), doc: deserialize(message.subarray(docStart)) });
      }
      this.wake();
    });
    socket.on("close", () => {
      this.closed = true;
      this.wake();
    });
    socket.on("error", () => undefined);
  }

  static open(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => resolve(new RawClient(socket)));
      socket.once("error", reject);
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private async until(condition: () => boolean, ms = 3000): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!condition() && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return condition();
  }

  send(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  async reply(): Promise<Reply> {
    if (!(await this.until(() => this.replies.length > 0 || this.closed)) || this.replies.length === 0)
      throw new Error("no reply");
    return this.replies.shift()!;
  }

  /** True when the server closed the connection within the time. */
  async closedByServer(ms = 3000): Promise<boolean> {
    return this.until(() => this.closed, ms);
  }

  /** True when no reply arrived within the time. */
  async silentFor(ms: number): Promise<boolean> {
    return !(await this.until(() => this.replies.length > 0, ms));
  }

  end(): void {
    this.socket.destroy();
  }
}

let engine: RunningEngine;
beforeAll(async () => {
  engine = await startEngine({ inMemory: true, port: 0 });
});
afterAll(() => engine.close());

async function withClient<T>(run: (client: RawClient) => Promise<T>): Promise<T> {
  const client = await RawClient.open(engine.port);
  try {
    return await run(client);
  } finally {
    client.end();
  }
}

/** After a bad frame, the engine still answers a fresh connection. */
async function stillServing(): Promise<void> {
  await withClient(async (client) => {
    client.send(opMsg({ ping: 1, $db: "admin" }, 99));
    const reply = await client.reply();
    expect(reply.doc.ok).toBe(1);
    expect(reply.responseTo).toBe(99);
  });
}

describe("wire protocol", () => {
  it("answers the legacy OP_QUERY handshake with OP_REPLY", async () => {
    await withClient(async (client) => {
      client.send(opQuery("admin.$cmd", { isMaster: 1 }, 7));
      const reply = await client.reply();
      expect(reply.opCode).toBe(OP_REPLY);
      expect(reply.responseTo).toBe(7);
      expect(reply.doc.ismaster).toBe(true);
      expect(reply.doc.maxWireVersion).toBeGreaterThanOrEqual(9);
    });
  });

  it("answers OP_MSG with OP_MSG, and verifies a CRC-32C checksum", async () => {
    await withClient(async (client) => {
      client.send(opMsg({ ping: 1, $db: "admin" }, 11, { checksum: "valid" }));
      const reply = await client.reply();
      expect(reply.opCode).toBe(OP_MSG);
      expect(reply.responseTo).toBe(11);
      expect(reply.doc.ok).toBe(1);
    });
  });

  it("folds a kind-1 document sequence into the command", async () => {
    await withClient(async (client) => {
      const docs = [{ _id: 1 }, { _id: 2 }, { _id: 3 }];
      client.send(opMsg({ insert: "seq", $db: "wire" }, 1, { sequence: { identifier: "documents", docs } }));
      expect((await client.reply()).doc).toMatchObject({ ok: 1, n: 3 });
    });
  });

  it("sends no reply to a moreToCome message, but runs it", async () => {
    await withClient(async (client) => {
      client.send(
        opMsg({ insert: "quiet", documents: [{ _id: "q" }], writeConcern: { w: 0 }, $db: "wire" }, 1, { flags: 2 }),
      );
      expect(await client.silentFor(300)).toBe(true);
      client.send(opMsg({ find: "quiet", filter: {}, $db: "wire" }, 2));
      const reply = await client.reply();
      expect(reply.responseTo).toBe(2);
      expect(reply.doc.cursor.firstBatch).toEqual([{ _id: "q" }]);
    });
  });

  it("reassembles a message that arrives a byte at a time, and answers pipelined messages in order", async () => {
    await withClient(async (client) => {
      const message = opMsg({ ping: 1, $db: "admin" }, 21);
      for (const byte of message) client.send(Buffer.from([byte]));
      expect((await client.reply()).responseTo).toBe(21);
      client.send(Buffer.concat([opMsg({ ping: 1, $db: "admin" }, 22), opMsg({ buildInfo: 1, $db: "admin" }, 23)]));
      const [first, second] = [await client.reply(), await client.reply()];
      expect([first.responseTo, second.responseTo]).toEqual([22, 23]);
      expect(typeof second.doc.version).toBe("string");
    });
  });

  const badFrames: Array<[string, () => Buffer]> = [
    ["a wrong checksum", () => opMsg({ ping: 1, $db: "admin" }, 1, { checksum: "wrong" })],
    ["a length below the header size", () => header(8, 1, OP_MSG)],
    ["a length above 48 MB", () => header(64 * 1024 * 1024, 1, OP_MSG)],
    ["an unsupported opCode (legacy OP_INSERT)", () => Buffer.concat([header(26, 1, 2002), Buffer.alloc(10)])],
    ["a compressed message", () => Buffer.concat([header(25, 1, OP_COMPRESSED), Buffer.alloc(9)])],
    [
      "a body whose BSON length overruns the message",
      () => {
        const message = opMsg({ ping: 1, $db: "admin" });
        message.writeInt32LE(10_000, 21);
        return message;
      },
    ],
    [
      "an unknown section kind",
      () => {
        const message = opMsg({ ping: 1, $db: "admin" });
        message[20] = 7;
        return message;
      },
    ],
    ["an OP_MSG with no body section", () => Buffer.concat([header(20, 1, OP_MSG), Buffer.alloc(4)])],
  ];

  for (const [name, frame] of badFrames) {
    it(`closes the connection on ${name} and keeps serving others`, async () => {
      await withClient(async (client) => {
        client.send(frame());
        expect(await client.closedByServer()).toBe(true);
      });
      await stillServing();
    });
  }

  it("answers a command document that is not a command with an error, not a crash", async () => {
    await withClient(async (client) => {
      client.send(opMsg({ $db: "admin" }, 31));
      const reply = await client.reply();
      expect(reply.doc.ok).toBe(0);
      expect(reply.doc.code).toBe(59);
    });
  });
});
