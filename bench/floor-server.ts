// The floor of a lookup round trip, for `npm run bench:engine`: a wire server that answers
// every `find` with the same canned reply, doing no query and no encoding. Everything else
// (the handshake, monitoring, endSessions) is relayed to a real engine, and the first find's
// reply from that engine becomes the canned one. What the driver sees is byte-for-byte what
// the engine sends; what the server spends per find is framing, decoding the request (as any
// engine must) and one socket write. So its ops/s bound what any engine on this machine, this
// Node and this driver could reach, however fast its query path.
//
//   node dist-bench/bench/floor-server.js <engine port> [<unix socket path>]
//
// Prints `listening on 127.0.0.1:<port>` when ready (after the Unix socket, if one was given,
// is listening too); exits when its stdin closes.
import { createServer, connect, type Socket } from "node:net";
import { LOOPBACK } from "../src/embedded-mongo/server.js";
import { parseMessage } from "../src/embedded-mongo/wire/message.js";

const upstreamPort = Number(process.argv[2]);
const socketPath = process.argv[3];
if (!Number.isInteger(upstreamPort) || upstreamPort <= 0) {
  process.stderr.write("usage: bench-floor-server <engine port>\n");
  process.exit(2);
}

let canned: Buffer | undefined;

/** Calls `onMessage` with each complete wire message arriving on `socket`. */
function frames(socket: Socket, onMessage: (message: Buffer) => void): void {
  let pending: Buffer = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
      const length = pending.readInt32LE(0);
      onMessage(pending.subarray(0, length));
      pending = pending.subarray(length);
    }
  });
}

/** One client connection: finds answered from the canned reply, the rest relayed. */
function serve(client: Socket): void {
  client.setNoDelay(true);
  const upstream = connect({ port: upstreamPort, host: LOOPBACK, noDelay: true });
  let findRequestId: number | undefined;
  frames(upstream, (reply) => {
    if (findRequestId !== undefined && reply.readInt32LE(8) === findRequestId) {
      canned = Buffer.from(reply);
      findRequestId = undefined;
    }
    client.write(reply);
  });
  frames(client, (message) => {
    const request = parseMessage(message);
    if (request.command.find === undefined) return void upstream.write(message);
    if (!canned) {
      findRequestId = request.requestId;
      return void upstream.write(message);
    }
    const reply = Buffer.from(canned);
    reply.writeInt32LE(request.requestId, 8); // responseTo
    client.write(reply);
  });
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on("error", close).on("close", close);
  upstream.on("error", close).on("close", close);
}

const tcp = createServer(serve);
await new Promise<void>((resolve) => tcp.listen(0, LOOPBACK, resolve));
if (socketPath) {
  const unix = createServer(serve);
  await new Promise<void>((resolve) => unix.listen(socketPath, resolve));
}
const address = tcp.address();
process.stdout.write(`listening on ${LOOPBACK}:${typeof address === "object" && address ? address.port : 0}\n`);
process.stdin.on("close", () => process.exit(0));
process.stdin.resume();
