// A request body's bytes, at most `limit` of them whatever the transfer: a declared length
// past the limit is refused before a byte is read, a chunked body as soon as it passes the
// limit, and a gzip/deflate/br body counts its bytes after inflation (a 9 KB gzip of 9 MB
// of `[` is 9 MB), so no body costs more than `limit` bytes of memory and of inflating.
// A refused body is left unread and the connection closed after the answer, rather than
// drained to its end.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Readable, Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { ApiError, badRequest } from "../errors/api-error.js";

export const tooLarge = (limit: number) => new ApiError(413, `Request body too large (over ${limit} bytes)`);

/** Whether a request carries a body at all (a length over 0, or a chunked transfer). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/** The body will not be read: the socket is not kept for another request, so it is never drained. */
export function closeAfterAnswer(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader("Connection", "close");
}

function decoder(encoding: string): Transform | undefined {
  switch (encoding) {
    case "gzip":
    case "x-gzip":
      return createGunzip();
    case "deflate":
      return createInflate();
    case "br":
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

/**
 * `inspect` sees each chunk (after inflation) as it arrives; an error it throws stops the read
 * there, leaving the rest unread and uninflated, and is what the read rejects with.
 * @throws ApiError 413 past the limit, 415 for an unknown Content-Encoding, 400 for a corrupt one
 */
export async function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  inspect?: (chunk: Buffer) => void,
): Promise<Buffer> {
  const encoding = (req.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (declared > limit) {
    closeAfterAnswer(res);
    throw tooLarge(limit);
  }
  let source: Readable = req;
  let inflate: Transform | undefined;
  if (encoding !== "identity") {
    inflate = decoder(encoding);
    if (inflate === undefined) {
      closeAfterAnswer(res);
      throw new ApiError(
        415,
        `Unsupported Content-Encoding "${encoding.slice(0, 40)}": send identity, gzip, deflate or br`,
      );
    }
    source = inflate;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let inflated = 0;
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const detach = () => {
      settled = true;
      req.off("data", onRaw);
      source.off("data", onData);
      source.off("end", onEnd);
      inflate?.off("error", onInflateError);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const stop = (error: Error) => {
      if (settled) return;
      detach();
      if (inflate) {
        req.unpipe(inflate);
        inflate.destroy();
      }
      req.pause();
      closeAfterAnswer(res);
      reject(error);
    };
    const onRaw = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) stop(tooLarge(limit));
    };
    const onData = (chunk: Buffer) => {
      inflated += chunk.length;
      if (inflated > limit) return stop(tooLarge(limit));
      try {
        inspect?.(chunk);
      } catch (error) {
        return stop(error instanceof Error ? error : new Error(String(error)));
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      if (settled) return;
      detach();
      resolve();
    };
    const onInflateError = (error: Error) =>
      stop(
        badRequest(`Had some trouble parsing your request: could not ${encoding}-decode the body (${error.message})`),
      );
    const onError = (error: Error) => stop(badRequest(`Had some trouble parsing your request: ${error.message}`));
    const onClose = () => {
      if (!req.complete) stop(badRequest("Had some trouble parsing your request: the body ended early"));
    };
    if (inflate) {
      req.on("data", onRaw);
      inflate.on("error", onInflateError);
      req.pipe(inflate);
    }
    source.on("data", onData);
    source.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
  return Buffer.concat(chunks, inflated);
}
