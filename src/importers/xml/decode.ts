// Bytes to text for an XML file, as XML 1.0 Appendix F detects it: a byte order mark first,
// then the encoding the XML declaration names, else UTF-8. Decoding is incremental (a chunk may
// end inside a character) and fatal: a byte sequence the encoding does not allow is an error,
// never a silent replacement character.
import { TextDecoder } from "node:util";
import { ImportError } from "../pending.js";

/** How many leading bytes are looked at for the byte order mark and the XML declaration. */
const SNIFF_BYTES = 1024;

const DECLARED_ENCODING = /^<\?xml\s[^>]*?\bencoding\s*=\s*(["'])([^"']*)\1/;

/** The encoding label the start of a file asks for, and whether the bytes start with a BOM. */
export function sniffEncoding(head: Uint8Array): string {
  const [b0, b1, b2, b3] = head;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return "utf-8";
  if (b0 === 0xfe && b1 === 0xff) return "utf-16be";
  if (b0 === 0xff && b1 === 0xfe) return "utf-16le";
  // `<?` in UTF-16 without a byte order mark.
  if (b0 === 0x3c && b1 === 0x00 && b2 === 0x3f && b3 === 0x00) return "utf-16le";
  if (b0 === 0x00 && b1 === 0x3c && b2 === 0x00 && b3 === 0x3f) return "utf-16be";
  if ((b0 === 0x00 && b1 === 0x00) || (b2 === 0x00 && b3 === 0x00)) {
    throw new ImportError("the file looks like UCS-4/UTF-32, which is not supported; convert it to UTF-8", {
      line: 1,
      column: 1,
    });
  }
  // An ASCII-compatible encoding: the declaration, read as latin-1, names it.
  const start = Buffer.from(head.subarray(0, SNIFF_BYTES)).toString("latin1");
  const declared = DECLARED_ENCODING.exec(start)?.[2]?.trim();
  if (declared === undefined || declared === "") return "utf-8";
  // The bytes are ASCII-compatible, so a UTF-16 declaration is wrong about them.
  if (/^utf-?16/i.test(declared)) return "utf-8";
  return declared;
}

/** A streaming decoder for the encoding; an encoding this runtime does not know is an ImportError naming it. */
export function decoderFor(label: string): TextDecoder {
  try {
    return new TextDecoder(label, { fatal: true });
  } catch {
    throw new ImportError(`unknown or unsupported encoding '${label}' in the XML declaration`, { line: 1, column: 1 });
  }
}
