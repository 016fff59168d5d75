// The warnings and errors of an import summary, bounded: a file decides what its messages echo
// (element names, values, paths) and how many there are, so each message is cut to a length and
// a list to a count, with one closing message saying how many more there were. A hostile file
// cannot make a summary (an HTTP answer, the command's output) larger than a few hundred KB.
import type { ImportMessage } from "./pending.js";

/** The most messages of one kind a summary lists. */
export const MAX_MESSAGES = 1000;
/** The longest message text kept; the rest is cut and marked. */
export const MAX_MESSAGE_CHARS = 1000;
/** The longest path or file name kept (paths repeat element names, which a file chooses). */
export const MAX_PLACE_CHARS = 300;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** The message with its text, path and file name cut to their bounds. */
export function boundedMessage(message: ImportMessage): ImportMessage {
  const bounded: ImportMessage = {
    ...message,
    message: cut(message.message, MAX_MESSAGE_CHARS),
    file: cut(message.file, MAX_PLACE_CHARS),
  };
  if (message.path !== undefined) bounded.path = cut(message.path, MAX_PLACE_CHARS);
  return bounded;
}

export class MessageList {
  readonly items: ImportMessage[] = [];
  private left = 0;

  constructor(
    /** "warnings" or "errors", for the closing message. */
    private readonly kind: string,
    private readonly max = MAX_MESSAGES,
    /** Told of every message, past the count too (each cut to its length): `npm run import --report`. */
    private readonly onAdd?: (message: ImportMessage) => void,
  ) {}

  add(message: ImportMessage): void {
    const bounded = boundedMessage(message);
    this.onAdd?.(bounded);
    if (this.items.length < this.max) this.items.push(bounded);
    else this.left += 1;
  }

  /** The messages kept, and one more saying how many were left out. */
  list(file: string): ImportMessage[] {
    if (this.left === 0) return [...this.items];
    return [
      ...this.items,
      boundedMessage({
        message: `${this.left} more ${this.kind} not listed (a summary lists at most ${this.max})`,
        file,
      }),
    ];
  }
}
