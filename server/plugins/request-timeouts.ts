import type { FastifyInstance, FastifyServerOptions } from 'fastify';

/**
 * How long a client may take to send a request. Fastify's defaults are "forever" (it sets Node's
 * requestTimeout to 0), so a client that trickles its headers or body a byte at a time held a
 * connection open indefinitely; a few hundred such clients hold them all.
 *
 * The figures let a 10 MB upload (the largest body we accept) through on a slow link:
 * 10 MB at 16 KB/s (≈130 kbit/s, a weak mobile signal) is 640 s, under the 11.5-minute body
 * deadline and the 12-minute request limit. A small body (sign-in, a check-in) gets 30 s.
 */
export type RequestTimeouts = {
  /** The whole header block (Node's headersTimeout). */
  headersMs: number;
  /** The whole request, headers and body, from its first byte (Node's requestTimeout). Not the handler's time. */
  requestMs: number;
  /** A body gets this long, plus its declared length at the slowest rate we serve. */
  bodyBaseMs: number;
  bodyMinBytesPerSecond: number;
  /** Bodies without a declared length (chunked) are given the deadline of this many bytes. */
  bodyMaxBytes: number;
  /**
   * A socket with no traffic either way for this long is closed (a client that stopped reading a
   * download, a dead peer). Longer than any handler runs before its first byte (a large import).
   */
  idleMs: number;
  /** How often Node checks the header and request deadlines; they hold to within this. */
  checkEveryMs: number;
};

export const REQUEST_TIMEOUTS: RequestTimeouts = {
  headersMs: 20_000,
  requestMs: 12 * 60_000,
  bodyBaseMs: 30_000,
  bodyMinBytesPerSecond: 16 * 1024,
  bodyMaxBytes: 10 * 1024 * 1024,
  idleMs: 5 * 60_000,
  checkEveryMs: 5_000,
};

/** The Fastify (and Node http server) options for these timeouts. */
export function timeoutServerOptions(
  t: RequestTimeouts,
): Pick<FastifyServerOptions, 'requestTimeout' | 'connectionTimeout'> & { http: { headersTimeout: number; connectionsCheckingInterval: number } } {
  return {
    requestTimeout: t.requestMs,
    connectionTimeout: t.idleMs,
    http: { headersTimeout: t.headersMs, connectionsCheckingInterval: t.checkEveryMs },
  };
}

const TIMEOUT_BODY = JSON.stringify({ message: 'Request Timeout: the request body came too slowly', code: 'REQUEST_TIMEOUT' });
const TIMEOUT_RESPONSE =
  `HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(TIMEOUT_BODY)}\r\n\r\n` +
  TIMEOUT_BODY;

/**
 * The body deadline: from the end of the headers, `bodyBaseMs` plus the declared length at
 * `bodyMinBytesPerSecond`. When it passes before the body is in, the client gets a 408 (as Node
 * answers its own request timeout) and the connection is closed, which ends the body's parsing.
 */
export function registerBodyTimeout(app: FastifyInstance, t: RequestTimeouts): void {
  app.addHook('onRequest', (req, reply, done) => {
    const raw = req.raw;
    const declared = Number(raw.headers['content-length']);
    const hasBody = declared > 0 || raw.headers['transfer-encoding'] !== undefined;
    if (!hasBody || raw.complete) return done();
    const bytes = Number.isFinite(declared) ? Math.min(declared, t.bodyMaxBytes) : t.bodyMaxBytes;
    const timer = setTimeout(
      () => {
        const socket = raw.socket;
        if (raw.complete || socket.destroyed) return;
        req.log.info({ declaredBytes: Number.isFinite(declared) ? declared : null }, 'request body timed out');
        socket.end(TIMEOUT_RESPONSE);
        // Drop what the client still trickles, and the socket once the answer is out.
        socket.once('finish', () => socket.destroy());
      },
      Math.min(t.bodyBaseMs + (bytes / t.bodyMinBytesPerSecond) * 1000, t.requestMs),
    );
    timer.unref();
    const clear = () => clearTimeout(timer);
    raw.once('end', clear);
    raw.once('close', clear);
    // Answered before the body was read (a 401, a 415…): a 408 now would be a second answer on the
    // connection; what is left of the body is Node's to drain (its requestTimeout still applies).
    reply.raw.once('finish', clear);
    done();
  });
}
