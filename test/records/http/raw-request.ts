// Requests fetch cannot make: a GET with a body, a body with no Content-Type at all (fetch
// labels a string body text/plain; agentarchives sends no Content-Type).
import { request } from "node:http";

export interface RawReply {
  status: number;
  body: unknown;
}

export function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method,
        headers: body === undefined ? headers : { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown,
          }),
        );
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}
