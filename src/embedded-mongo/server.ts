// The TCP side: frames wire messages off each connection, hands their commands to the
// engine in arrival order, and writes the replies back. It listens on loopback only: the
// engine has no authentication, so it must never be reachable from another machine.
import { chmod, rm } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import type { Document } from "bson";
import type { Engine } from "./engine.js";
import { CommandError, ErrorCodes } from "./errors.js";
import { ProtocolError, encodeReply, parseMessage, type RequestMessage } from "./wire/message.js";
import { MessageFramer } from "./wire/message-framer.js";
import type { WrittenReply } from "./wire/reply-writer.js";

export const LOOPBACK = "127.0.0.1";

export class WireServer {
  private readonly servers: Server[] = [];
  private readonly sockets = new Set<Socket>();
  private nextConnectionId = 1;

  constructor(
    private readonly engine: Engine,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  private open(bind: (server: Server, ready: () => void) => void): Promise<Server> {
    const server = createServer((socket) => this.accept(socket));
    this.servers.push(server);
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      bind(server, () => {
        server.off("error", reject);
        resolve(server);
      });
    });
  }

  async listen(port: number): Promise<number> {
    const server = await this.open((s, ready) => s.listen(port, LOOPBACK, ready));
    const address = server.address();
    const bound = typeof address === "object" && address ? address.port : port;
    this.engine.info.hostAndPort = `${LOOPBACK}:${bound}`;
    return bound;
  }

  /**
   * Also listen on a Unix domain socket, as mongod does by default: a co-located client
   * (the service and its embedded store) skips the TCP stack. Whoever can open the path can
   * use the engine: the socket is made accessible to the engine's own user only.
   */
  async listenUnix(path: string): Promise<void> {
    // a socket file left by a killed engine; the data dir lock guards against a live one
    await rm(path, { force: true });
    await this.open((s, ready) => s.listen(path, ready));
    await chmod(path, 0o600); // only the engine's own user may connect: there is no authentication
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }

  private accept(socket: Socket): void {
    const connectionId = this.nextConnectionId++;
    this.sockets.add(socket);
    socket.setNoDelay(true);
    const framer = new MessageFramer();
    // Replies go out in request order; a connection's commands never overlap.
    let queue: Promise<void> = Promise.resolve();
    socket.on("data", (chunk: Buffer) => {
      let messages: Buffer[];
      try {
        messages = framer.push(chunk);
      } catch (error) {
        this.log(`connection ${connectionId}: ${error instanceof Error ? error.message : String(error)}, closing`);
        socket.destroy();
        return;
      }
      for (const message of messages) queue = queue.then(() => this.serve(socket, message, connectionId));
    });
    socket.on("error", () => socket.destroy());
    socket.on("close", () => {
      this.sockets.delete(socket);
      // After the connection's queued commands, so none runs on a transaction aborted under it.
      const closed = () => this.engine.connectionClosed(connectionId);
      queue = queue.then(closed, closed);
    });
  }

  private async serve(socket: Socket, message: Buffer, connectionId: number): Promise<void> {
    let request: RequestMessage;
    try {
      request = parseMessage(message);
    } catch (error) {
      this.log(
        `connection ${connectionId}: ${error instanceof ProtocolError ? error.message : String(error)}, closing`,
      );
      socket.destroy();
      return;
    }
    let reply: Document;
    try {
      reply = await this.engine.execute(request.command, request.db, connectionId, request.bytes);
    } catch (error) {
      reply = new CommandError(
        ErrorCodes.InternalError,
        error instanceof Error ? error.message : String(error),
      ).toReply();
    }
    if (request.noReply || socket.destroyed) return;
    let encoded: WrittenReply;
    try {
      encoded = encodeReply(request, reply);
    } catch (error) {
      const fallback = new CommandError(
        ErrorCodes.BSONObjectTooLarge,
        `reply could not be encoded: ${error instanceof Error ? error.message : String(error)}`,
      ).toReply();
      encoded = encodeReply(request, fallback);
    }
    // Called once the bytes are written, or with an error if the socket closes first.
    socket.write(encoded.bytes, () => encoded.release());
  }
}
