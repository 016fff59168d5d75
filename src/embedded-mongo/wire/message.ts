// MongoDB wire protocol framing: the subset a modern driver speaks. The first message on a
// connection is a legacy OP_QUERY handshake (answered with OP_REPLY); everything after it is
// OP_MSG. Replies are always a single kind-0 section.
import { deserialize, type Document } from "bson";
import { serializeAnySize } from "../bson-large.js";
import { crc32c } from "../durability/crc32c.js";
import { ReplyWriter, Unwritable, type WrittenReply } from "./reply-writer.js";

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_COMPRESSED = 2012;
export const OP_MSG = 2013;

const FLAG_CHECKSUM_PRESENT = 1 << 0;
const FLAG_MORE_TO_COME = 1 << 1;
const KNOWN_FLAGS = FLAG_CHECKSUM_PRESENT | FLAG_MORE_TO_COME | (1 << 16); // exhaustAllowed

export const HEADER_SIZE = 16;
export const MAX_MESSAGE_SIZE = 48_000_000;

// Int64 from the wire stays a Long only when it does not fit a double; Int32 and Double
// become JS numbers so that mingo can compare them.
const DESERIALIZE_OPTIONS = { promoteValues: true, promoteLongs: true, promoteBuffers: false } as const;

export interface RequestMessage {
  requestId: number;
  opCode: typeof OP_QUERY | typeof OP_MSG;
  /** The command document, with OP_MSG kind-1 sequences folded in as arrays. */
  command: Document;
  /** Database named by the message (OP_QUERY's namespace or OP_MSG's `$db`). */
  db: string;
  /** moreToCome: the client expects no reply. */
  noReply: boolean;
  /** The message's length in bytes: no document in it is longer. */
  bytes: number;
}

export class ProtocolError extends Error {}

export function readDocument(buf: Buffer, offset: number): { doc: Document; end: number } {
  const size = buf.readInt32LE(offset);
  if (size < 5 || offset + size > buf.length) throw new ProtocolError("document overruns message");
  const doc = deserialize(buf.subarray(offset, offset + size), DESERIALIZE_OPTIONS);
  return { doc, end: offset + size };
}

export function parseMessage(message: Buffer): RequestMessage {
  const requestId = message.readInt32LE(4);
  const opCode = message.readInt32LE(12);
  if (opCode === OP_MSG) return parseOpMsg(message, requestId);
  if (opCode === OP_QUERY) return parseOpQuery(message, requestId);
  if (opCode === OP_COMPRESSED) throw new ProtocolError("compression is not supported");
  throw new ProtocolError(`unsupported opCode ${opCode}`);
}

function parseOpQuery(message: Buffer, requestId: number): RequestMessage {
  let offset = HEADER_SIZE + 4; // flags
  const nsEnd = message.indexOf(0, offset);
  if (nsEnd < 0) throw new ProtocolError("unterminated namespace");
  const ns = message.toString("utf8", offset, nsEnd);
  offset = nsEnd + 1 + 8; // numberToSkip, numberToReturn
  let { doc } = readDocument(message, offset);
  // Legacy drivers wrap the command as {$query: {...}, $readPreference: ...}.
  if (doc.$query && typeof doc.$query === "object") doc = doc.$query as Document;
  const db = ns.endsWith(".$cmd") ? ns.slice(0, -5) : ns;
  return { requestId, opCode: OP_QUERY, command: doc, db, noReply: false, bytes: message.length };
}

function parseOpMsg(message: Buffer, requestId: number): RequestMessage {
  const flags = message.readUInt32LE(HEADER_SIZE);
  if ((flags & ~KNOWN_FLAGS & 0xffff) !== 0) throw new ProtocolError(`unknown required OP_MSG flags ${flags}`);
  let end = message.length;
  if (flags & FLAG_CHECKSUM_PRESENT) {
    end -= 4;
    const expected = message.readUInt32LE(end);
    if (crc32c(message.subarray(0, end)) !== expected) throw new ProtocolError("OP_MSG checksum mismatch");
  }
  let offset = HEADER_SIZE + 4;
  let body: Document | undefined;
  const sequences: Array<[string, Document[]]> = [];
  while (offset < end) {
    const kind = message[offset++];
    if (kind === 0) {
      if (body) throw new ProtocolError("OP_MSG has more than one body section");
      const read = readDocument(message, offset);
      body = read.doc;
      offset = read.end;
    } else if (kind === 1) {
      const size = message.readInt32LE(offset);
      const sectionEnd = offset + size;
      const idEnd = message.indexOf(0, offset + 4);
      const identifier = message.toString("utf8", offset + 4, idEnd);
      const docs: Document[] = [];
      let cursor = idEnd + 1;
      while (cursor < sectionEnd) {
        const read = readDocument(message, cursor);
        docs.push(read.doc);
        cursor = read.end;
      }
      sequences.push([identifier, docs]);
      offset = sectionEnd;
    } else {
      throw new ProtocolError(`unknown OP_MSG section kind ${kind}`);
    }
  }
  if (!body) throw new ProtocolError("OP_MSG without a body section");
  for (const [identifier, docs] of sequences) body[identifier] = docs;
  const db = typeof body.$db === "string" ? body.$db : "admin";
  return {
    requestId,
    opCode: OP_MSG,
    command: body,
    db,
    noReply: (flags & FLAG_MORE_TO_COME) !== 0,
    bytes: message.length,
  };
}

let nextResponseId = 1;
const writer = new ReplyWriter();

/** The reply's message header, and for OP_REPLY its fixed fields, before the document. */
function replyPrefix(request: RequestMessage): Buffer {
  const legacy = request.opCode === OP_QUERY;
  // OP_REPLY: flags, cursorId (int64), startingFrom, numberReturned = 1. OP_MSG: flags 0, section kind 0.
  const prefix = Buffer.alloc(HEADER_SIZE + (legacy ? 20 : 5));
  prefix.writeInt32LE(nextResponseId++ & 0x7fffffff, 4);
  prefix.writeInt32LE(request.requestId, 8);
  prefix.writeInt32LE(legacy ? OP_REPLY : OP_MSG, 12);
  if (legacy) prefix.writeInt32LE(1, HEADER_SIZE + 16);
  return prefix;
}

/** The reply message; `release()` once the socket has written its bytes (the buffer is reused). */
export function encodeReply(request: RequestMessage, reply: Document): WrittenReply {
  const prefix = replyPrefix(request);
  let message: WrittenReply;
  try {
    message = writer.write(prefix, reply);
  } catch (error) {
    if (!(error instanceof Unwritable)) throw error;
    // bson writes what the writer does not, or says why it cannot; into a buffer of the reply's own size, since
    // bson's shared one holds only 17 MiB (a reply may be larger: a 16 MiB batch and its envelope).
    message = { bytes: Buffer.concat([prefix, serializeAnySize(reply)]), release: () => undefined };
  }
  message.bytes.writeInt32LE(message.bytes.length, 0);
  return message;
}
