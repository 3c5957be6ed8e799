/**
 * What an HTTP connection may cost before it is answered (issue #10 item 10). Node's own defaults
 * let a client hold a connection for 5 minutes trickling a body (Fastify even turns
 * `requestTimeout` off), so 1,100 slow connections without a token exhausted the process's file
 * limit and `/health` and MQTT with it. Here: headers must arrive within `headers_timeout_ms`, the
 * whole request within `request_timeout_ms`, an idle keep-alive connection closes after
 * `keep_alive_timeout_ms`, and at most `max_connections` are open (Node's `server.maxConnections`
 * drops the rest) — the last few of them kept for `/health`, so a monitor still gets through while
 * the rest answer 503, and the file descriptors left for MQTT and SQLite stay free.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';

/** File descriptors left beside HTTP's for MQTT clients, SQLite (WAL, -shm) and logs. */
export const FD_HEADROOM = 256;

/** The soft open-file limit (Linux /proc), or null where it cannot be read. */
export function openFileLimit(): number | null {
  try {
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m && m[1] !== 'unlimited' ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export interface ConnectionLimits {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
}

export const HTTP_LIMIT_DEFAULTS: ConnectionLimits = { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000, maxConnections: 512 };

/** How long a connection in the /health reserve may stay open. */
export const RESERVE_GRACE_MS = 2000;

/** Connections kept for /health once the rest are taken. */
export const healthReserve = (max: number) => Math.max(1, Math.min(8, Math.floor(max / 4)));

/** Fastify/Node server options for the limits; `https` options get the same parser settings. */
export function serverOptions(l: ConnectionLimits, https?: Record<string, unknown>): Partial<FastifyServerOptions> & Record<string, unknown> {
  const headersTimeout = Math.min(l.headersTimeoutMs, l.requestTimeoutMs);
  // Node checks both timeouts every connectionsCheckingInterval (default 30 s, which would let a
  // timed-out request linger that much longer).
  const node = { headersTimeout, requestTimeout: l.requestTimeoutMs, connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))) };
  return {
    requestTimeout: l.requestTimeoutMs,
    keepAliveTimeout: l.keepAliveTimeoutMs,
    ...(https ? { https: { ...https, ...node } } : { http: node }),
  };
}

/** Caps open connections and answers 503 to all but /health on the reserved last few. */
export function capConnections(app: FastifyInstance, l: ConnectionLimits): void {
  const server = app.server;
  server.maxConnections = l.maxConnections;
  const files = openFileLimit();
  if (files !== null && l.maxConnections > files - FD_HEADROOM) {
    app.log.warn(`http.max_connections = ${l.maxConnections} leaves fewer than ${FD_HEADROOM} of the ${files} open files this process may have for MQTT and SQLite: lower it, or raise the limit (systemd LimitNOFILE=)`);
  }
  // Fastify sets only requestTimeout on its server; Node's own headersTimeout must not exceed it.
  server.headersTimeout = Math.min(l.headersTimeoutMs, l.requestTimeoutMs);
  let open = 0;
  const soft = l.maxConnections - healthReserve(l.maxConnections);
  // A reserved connection lives a moment only (a /health answer takes milliseconds), so slow
  // clients cannot sit on the reserve as they can on the rest until their timeouts.
  const grace = Math.min(RESERVE_GRACE_MS, l.headersTimeoutMs);
  server.on('connection', (socket: Socket) => {
    open++;
    socket.once('close', () => open--);
    if (open > soft) setTimeout(() => socket.destroy(), grace).unref();
  });
  app.addHook('onRequest', async (req, reply) => {
    if (open <= soft || req.url.split('?')[0] === '/health') return;
    reply.header('connection', 'close');
    return reply.code(503).send({
      ok: false,
      error: 'unavailable',
      message: `too many open connections (${open} of http.max_connections = ${l.maxConnections}; the last ones are kept for /health); retry shortly`,
    });
  });
}
