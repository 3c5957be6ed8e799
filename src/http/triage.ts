/**
 * The door before Node's HTTP parser (limits.ts): each connection's first request head is read here
 * (at most 16 KiB, within `http.headers_timeout_ms`) so the hub knows who is asking before it gives
 * the connection a served slot — a connection that never finishes its headers never holds one
 * (issue #35 item 7). Quick answers without the parser or Fastify's pipeline: `GET`/`HEAD /health`
 * with what /health answers (through `app.inject`, so the same hooks — auth, the browser guard —
 * apply), 503 with Retry-After, 408, 431; each closes the connection. A flood of reconnecting clients
 * costs the hub an accept, a read and a write each (issue #26 item 18).
 */
import type { FastifyInstance } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

const MAX_HEAD = 16 * 1024;
const HEALTH = /^(GET|HEAD) \/health(?:\?\S*)? HTTP\/1\.[01]$/;
/** Headers a quick /health answer and the served-or-not decision read. */
const KEPT = new Set(['host', 'authorization', 'origin', 'forwarded', 'x-forwarded-for', 'cf-connecting-ip']);

export interface Head {
  /** The request line: `GET /health HTTP/1.1`. */
  line: string;
  url: string;
  /** Lower-case names; only those in KEPT. */
  headers: Record<string, string>;
  /** Whether it is `GET`/`HEAD /health`. */
  health: boolean;
  /** The bytes read so far (the head and whatever followed it), handed back to the parser. */
  raw: Buffer;
}

/** Writes one whole answer and closes the connection. */
export function respond(
  socket: Socket,
  status: number,
  body: string,
  extra: Record<string, string> = {},
  head = false,
): void {
  if (socket.destroyed) return;
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    ...extra,
    connection: 'close',
  };
  const lines = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines}\r\n${head ? '' : body}`);
}

/** `{ok:false}` answer in the hub's error shape, then closed. */
export function refuse(socket: Socket, status: number, error: string, message: string, retryAfterS?: number): void {
  respond(
    socket,
    status,
    JSON.stringify({ ok: false, error, message }),
    retryAfterS ? { 'retry-after': String(retryAfterS) } : {},
  );
}

/**
 * Reads the first request head of `socket`, then calls `done` with it (the socket paused, its data
 * listener removed), or answers 408 after `timeoutMs` / 431 past 16 KiB and closes it.
 */
export function readHead(socket: Socket, timeoutMs: number, done: (head: Head) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  socket.on('error', () => undefined);
  const timer = setTimeout(() => {
    socket.off('data', onData);
    refuse(socket, 408, 'timeout', 'request: not received in time (http.headers_timeout_ms)');
    setTimeout(() => socket.destroy(), 1000).unref();
  }, timeoutMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  function onData(chunk: Buffer) {
    chunks.push(chunk);
    size += chunk.length;
    const raw = chunks.length === 1 ? chunk : Buffer.concat(chunks);
    const end = raw.indexOf('\r\n\r\n');
    if (end < 0 && size <= MAX_HEAD) return;
    socket.off('data', onData);
    clearTimeout(timer);
    if (end < 0 || end > MAX_HEAD) return refuse(socket, 431, 'too_large', 'headers: larger than the 16 KiB limit');
    socket.pause();
    const [line = '', ...rest] = raw.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const h of rest) {
      const i = h.indexOf(':');
      const k = h.slice(0, i).trim().toLowerCase();
      if (i > 0 && KEPT.has(k)) headers[k] = h.slice(i + 1).trim();
    }
    done({ line, url: line.split(' ')[1] ?? '/', headers, health: HEALTH.test(line), raw });
  }
  socket.on('data', onData);
}

/** Answers a `/health` head on its own (the served connections all taken) and closes the connection. */
export function answerHealth(app: FastifyInstance, socket: Socket, head: Head): void {
  const headers = { ...head.headers };
  app.inject({ method: 'GET', url: head.url, headers, remoteAddress: socket.remoteAddress }).then(
    (res) =>
      respond(
        socket,
        res.statusCode,
        res.body,
        { 'content-type': String(res.headers['content-type'] ?? 'application/json') },
        head.line.startsWith('HEAD'),
      ),
    () => refuse(socket, 503, 'unavailable', 'health: no answer; retry shortly', 1),
  );
}
