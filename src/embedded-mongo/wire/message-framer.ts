// Cuts a connection's byte stream into wire messages. A socket hands over 64 KiB at a time, so a 1 MiB insert (a
// GridFS chunk) or a 16 MiB batch arrives in 16 to 256 pieces: the pieces are kept as they come and each message is
// copied once, when its last byte is in. (Appending every piece to one buffer copied a message of n pieces n times
// over: about 8 MiB of copying per 1 MiB chunk, 2 GiB for a 16 MiB batch.)
import { HEADER_SIZE, MAX_MESSAGE_SIZE, ProtocolError } from "./message.js";

/** A message's first four bytes: its length, header included. */
const LENGTH_BYTES = 4;

export class MessageFramer {
  private pieces: Buffer[] = [];
  private buffered = 0;
  /** The length of the message being gathered, once its first four bytes are in; 0 before. */
  private expected = 0;

  /** The messages `piece` completes, in order. Throws ProtocolError for a length out of bounds. */
  push(piece: Buffer): Buffer[] {
    if (piece.length === 0) return [];
    this.pieces.push(piece);
    this.buffered += piece.length;
    const messages: Buffer[] = [];
    for (;;) {
      if (this.expected === 0) {
        if (this.buffered < LENGTH_BYTES) break;
        const length = this.peekLength();
        if (length < HEADER_SIZE || length > MAX_MESSAGE_SIZE) throw new ProtocolError(`bad message length ${length}`);
        this.expected = length;
      }
      if (this.buffered < this.expected) break;
      messages.push(this.take(this.expected));
      this.expected = 0;
    }
    return messages;
  }

  private peekLength(): number {
    const first = this.pieces[0]!;
    // Only a piece cut inside the length needs its first bytes gathered.
    const head = first.length >= LENGTH_BYTES ? first : Buffer.concat(this.pieces, LENGTH_BYTES);
    return head.readInt32LE(0);
  }

  /** The next `bytes` bytes: a view of the first piece when it holds them all, else one copy of the pieces. */
  private take(bytes: number): Buffer {
    this.buffered -= bytes;
    const first = this.pieces[0]!;
    if (first.length >= bytes) {
      if (first.length === bytes) this.pieces.shift();
      else this.pieces[0] = first.subarray(bytes);
      return first.subarray(0, bytes);
    }
    const message = Buffer.allocUnsafe(bytes);
    let filled = 0;
    while (filled < bytes) {
      const piece = this.pieces[0]!;
      const used = Math.min(piece.length, bytes - filled);
      piece.copy(message, filled, 0, used);
      filled += used;
      if (used === piece.length) this.pieces.shift();
      else this.pieces[0] = piece.subarray(used);
    }
    return message;
  }
}
