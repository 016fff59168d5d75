// The part of busboy's API (1.6, no published types of its own here) that form-body.ts and the job uploads use.
declare module "busboy" {
  import type { IncomingHttpHeaders } from "node:http";
  import type { Readable, Writable } from "node:stream";

  export interface BusboyLimits {
    fieldNameSize?: number;
    fieldSize?: number;
    fields?: number;
    fileSize?: number;
    files?: number;
    parts?: number;
    headerPairs?: number;
  }

  export interface BusboyConfig {
    headers: IncomingHttpHeaders;
    limits?: BusboyLimits;
    defCharset?: string;
    defParamCharset?: string;
  }

  export interface FieldInfo {
    nameTruncated: boolean;
    valueTruncated: boolean;
    encoding: string;
    mimeType: string;
  }

  export interface FileInfo {
    /** As the part's Content-Disposition gives it: the sender's, unchecked. */
    filename: string | undefined;
    encoding: string;
    mimeType: string;
  }

  export interface Busboy extends Writable {
    on(event: "file", listener: (name: string, stream: Readable, info: FileInfo) => void): this;
    /** `name` is undefined for a part whose Content-Disposition names none. */
    on(event: "field", listener: (name: string | undefined, value: string, info: FieldInfo) => void): this;
    on(event: "partsLimit" | "filesLimit" | "fieldsLimit" | "close" | "finish", listener: () => void): this;
    on(event: "error", listener: (error: Error) => void): this;
    on(event: string | symbol, listener: (...args: never[]) => void): this;
  }

  export default function busboy(config: BusboyConfig): Busboy;
}
