/**
 * A lingering close, as nginx does it (`lingering_close`): an answer given before the request's body
 * was read (413 for a body over its route's limit) ends with `Connection: close`, and Node then closes
 * the socket at once. The client is still sending; the kernel answers the rest of its body with a
 * reset, and a browser or Node's fetch, still writing, may report "connection reset" instead of the
 * 413 `{code, message}` that had arrived. So such a socket closes in stages: the answer, then our half
 * of the connection (FIN), then whatever the client still sends is read and dropped until it stops (its
 * FIN), for at most LINGER.maxMs and LINGER.maxBytes, silent at most LINGER.idleMs; then the close.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

export const LINGER = {
  /** The longest a refused request's remaining body is read and dropped (nginx: lingering_time 30 s). */
  maxMs: 30_000,
  /** A client silent this long while lingering is cut (nginx: lingering_timeout 5 s). */
  idleMs: 5_000,
  /** Bytes dropped at most: a client still sending after this much is cut. */
  maxBytes: 64 * 1024 * 1024,
};

type Lingering = typeof LINGER;

/** The libuv handle under a socket: Node's HTTP parser may have stopped reading it (backpressure). */
type Handle = { reading?: boolean; readStart?: () => number };

function linger(socket: Socket, o: Lingering): void {
  let dropped = 0;
  const close = () => {
    clearTimeout(deadline);
    socket.destroy();
  };
  const deadline = setTimeout(close, o.maxMs);
  deadline.unref();
  socket.setTimeout(o.idleMs);
  socket.once('timeout', close);
  socket.on('data', (d: Buffer) => {
    dropped += d.length;
    if (dropped > o.maxBytes) close();
  });
  socket.once('end', close);
  socket.once('close', () => clearTimeout(deadline));
  // FIN after the answer; an HTTP server's sockets allow half-open, so ours stays readable.
  socket.end();
  socket.resume();
  // The parser stopped reading when the unread body filled the request's buffer (http's readStop):
  // the body is dropped from here, so reading starts again.
  const h = (socket as unknown as { _handle?: Handle | null })._handle;
  if (h && !h.reading && h.readStart) {
    h.reading = true;
    h.readStart();
  }
}

/**
 * Makes every connection of `server` close in stages when its last request was answered before its
 * body was read; a request read to its end closes at once, as before.
 */
export function installLingeringClose(server: Server, o: Lingering = LINGER): void {
  const current = new WeakMap<Socket, IncomingMessage>();
  server.on('request', (req: IncomingMessage) => current.set(req.socket, req));
  server.on('connection', (socket: Socket) => {
    // Node's HTTP server ends a `Connection: close` answer with destroySoon (_http_server.js, resOnFinish).
    const destroySoon = socket.destroySoon.bind(socket);
    socket.destroySoon = () => {
      const req = current.get(socket);
      if (!req || req.complete || socket.destroyed || !socket.readable) return destroySoon();
      linger(socket, o);
    };
  });
}
