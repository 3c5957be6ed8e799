/**
 * One quick answer on a connection past the served ones (limits.ts), without Node's HTTP parser or
 * Fastify's request pipeline: its request head is read (at most 16 KiB), `GET`/`HEAD /health` is
 * answered with what /health answers (through `app.inject`, so the same hooks — auth, the browser
 * guard — apply), anything else gets 503 with Retry-After, and the connection closes. A flood of
 * reconnecting clients costs the hub an accept, a read and a write each, so a monitor's fresh
 * connection is answered within a turn or two of the event loop (issue #26 item 18).
 */
import type { FastifyInstance } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

const MAX_HEAD = 16 * 1024;
const HEALTH = /^(GET|HEAD) \/health(?:\?\S*)? HTTP\/1\.[01]$/;

function respond(socket: Socket, status: number, body: string, extra: Record<string, string> = {}, head = false) {
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

/** Answers the one request of `socket` (/health, or `refusal` as a 503 with Retry-After) and closes it. */
export function triage(
  app: FastifyInstance,
  socket: Socket,
  refusal: () => { message: string; retryAfterS: number },
): void {
  let head = '';
  socket.on('error', () => undefined);
  const onData = (chunk: Buffer) => {
    head += chunk.toString('latin1');
    const end = head.indexOf('\r\n\r\n');
    if (end < 0 && head.length <= MAX_HEAD) return;
    socket.off('data', onData);
    const [line = '', ...rest] = head.slice(0, end < 0 ? MAX_HEAD : end).split('\r\n');
    const m = end < 0 ? null : HEALTH.exec(line);
    if (!m) {
      const r = refusal();
      respond(socket, 503, JSON.stringify({ ok: false, error: 'unavailable', message: r.message }), {
        'retry-after': String(r.retryAfterS),
      });
      return;
    }
    const headers: Record<string, string> = {};
    for (const h of rest) {
      const i = h.indexOf(':');
      const k = h.slice(0, i).trim().toLowerCase();
      if (i > 0 && (k === 'host' || k === 'authorization' || k === 'origin')) headers[k] = h.slice(i + 1).trim();
    }
    app.inject({ method: 'GET', url: line.split(' ')[1], headers, remoteAddress: socket.remoteAddress }).then(
      (res) =>
        respond(
          socket,
          res.statusCode,
          res.body,
          { 'content-type': String(res.headers['content-type'] ?? 'application/json') },
          m[1] === 'HEAD',
        ),
      () =>
        respond(
          socket,
          503,
          JSON.stringify({ ok: false, error: 'unavailable', message: 'health: no answer; retry shortly' }),
          { 'retry-after': '1' },
        ),
    );
  };
  socket.on('data', onData);
}
