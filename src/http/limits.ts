/**
 * What an HTTP connection may cost before it is answered (issue #10 item 10). Node's own defaults
 * let a client hold a connection for 5 minutes trickling a body (Fastify even turns
 * `requestTimeout` off), so 1,100 slow connections without a token exhausted the process's file
 * limit and `/health` and MQTT with it. Here: headers must arrive within `headers_timeout_ms`, the
 * whole request within `request_timeout_ms`, an idle keep-alive connection closes after
 * `keep_alive_timeout_ms`, and at most `max_connections` are served, the last few of them only for
 * `/health` (issue #26 item 18: under 500 busy or idle keep-alive clients a fresh /health answered
 * in seconds or not at all). Past the served ones a connection gets one quick answer and is closed —
 * /health, or 503 with Retry-After — idle keep-alive connections are closed to make room, and only
 * past max_connections + OVERFLOW (bounded by the open-file limit, so MQTT and SQLite keep theirs)
 * does Node drop connections unanswered.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import { triage } from './triage.js';

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

export const HTTP_LIMIT_DEFAULTS: ConnectionLimits = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 128,
};

/** How long a connection in the /health reserve may stay open. */
export const RESERVE_GRACE_MS = 2000;

/**
 * Connections the kernel queues before the hub accepts them (Node's default is 511). Under a flood of
 * reconnecting clients a full queue drops a monitor's SYN, which it resends only after 1 s, then 3 s.
 * The kernel caps it at net.core.somaxconn.
 */
export const LISTEN_BACKLOG = 4096;

/** Connections kept for /health once the rest are taken. */
export const healthReserve = (max: number) => Math.max(1, Math.min(8, Math.floor(max / 4)));

/** Fastify/Node server options for the limits; `https` options get the same parser settings. */
export function serverOptions(
  l: ConnectionLimits,
  https?: Record<string, unknown>,
): Partial<FastifyServerOptions> & Record<string, unknown> {
  const headersTimeout = Math.min(l.headersTimeoutMs, l.requestTimeoutMs);
  // Node checks both timeouts every connectionsCheckingInterval (default 30 s, which would let a
  // timed-out request linger that much longer).
  const node = {
    headersTimeout,
    requestTimeout: l.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
  };
  return {
    requestTimeout: l.requestTimeoutMs,
    keepAliveTimeout: l.keepAliveTimeoutMs,
    ...(https ? { https: { ...https, ...node } } : { http: node }),
  };
}

/**
 * Connections past `max_connections` still taken in, each for one quick answer (/health, or 503
 * with Retry-After) and closed — so a client hammering the hub cannot push a monitor's fresh
 * connection out (Node drops what is past `server.maxConnections` without a word). Bounded by the
 * open-file limit less FD_HEADROOM.
 */
export const OVERFLOW = 1024;

/** How often idle keep-alive connections may be closed to make room (closing them is a scan of all). */
export const EVICT_EVERY_MS = 100;

/** A keep-alive connection this long without a request is idle (a busy client's next request comes within milliseconds). */
export const IDLE_MS = 1000;

/** Node's hard cap: max_connections plus the overflow that fits the open-file limit. */
export function hardCap(max: number, files = openFileLimit()): number {
  const room = files === null ? OVERFLOW : Math.max(0, Math.min(OVERFLOW, files - FD_HEADROOM - max));
  return max + room;
}

const RETRY_AFTER_S = 1;

/**
 * Caps open connections: up to `max - reserve` are served; past that each request gets one answer
 * and its connection closes — /health answered, anything else 503 with `Retry-After` — and one
 * that sends nothing is closed after RESERVE_GRACE_MS. When new connections arrive past the served
 * ones, idle keep-alive connections (between requests, none in flight) are closed to make room: a
 * keep-alive client reconnects, and the newcomer is served. Past the hard cap Node drops them.
 */
export function capConnections(app: FastifyInstance, l: ConnectionLimits): void {
  const server = app.server;
  const files = openFileLimit();
  server.maxConnections = hardCap(l.maxConnections, files);
  if (files !== null && l.maxConnections > files - FD_HEADROOM) {
    app.log.warn(
      `http.max_connections = ${l.maxConnections} leaves fewer than ${FD_HEADROOM} of the ${files} open files this process may have for MQTT and SQLite: lower it, or raise the limit (systemd LimitNOFILE=)`,
    );
  }
  // Fastify sets only requestTimeout on its server; Node's own headersTimeout must not exceed it.
  server.headersTimeout = Math.min(l.headersTimeoutMs, l.requestTimeoutMs);
  let open = 0;
  const soft = l.maxConnections - healthReserve(l.maxConnections);
  // A connection past the served ones lives a moment only (a /health answer takes milliseconds), so
  // slow clients cannot sit on it as they can on the rest until their timeouts.
  const grace = Math.min(RESERVE_GRACE_MS, l.headersTimeoutMs);
  /** Served connections: requests in flight and answered on each (idle = between requests of a keep-alive client). */
  const served = new Map<Socket, { inFlight: number; answered: number; since: number }>();
  /** Idle connections closed to make room whose 'close' has not come yet: their slots are free already. */
  const closing = new Set<Socket>();
  let evictedAt = 0;
  function evictIdle() {
    const now = Date.now();
    if (now - evictedAt < EVICT_EVERY_MS) return;
    evictedAt = now;
    // Never a connection that has not had its first answer yet (its request may be on the way), nor
    // one of a busy client (answered a moment ago, its next request on the way).
    for (const [socket, s] of served) {
      if (s.inFlight || !s.answered || now - s.since < IDLE_MS || closing.has(socket)) continue;
      closing.add(socket);
      socket.destroy();
    }
  }
  const refusal = () => ({
    message: `too many open connections (${open}; http.max_connections = ${l.maxConnections}, the last ones kept for /health); retry in ${RETRY_AFTER_S} s`,
    retryAfterS: RETRY_AFTER_S,
  });
  // The connection event Node's HTTP parser takes sockets from (over TLS the TLS socket, once the
  // handshake is done): a connection past the served ones never reaches it.
  const event = server instanceof TlsServer ? 'secureConnection' : 'connection';
  const parsers = server.listeners(event) as ((socket: Socket) => void)[];
  for (const f of parsers) server.removeListener(event, f);
  server.on(event, (socket: Socket) => {
    open++;
    socket.once('close', () => {
      open--;
      served.delete(socket);
      closing.delete(socket);
    });
    if (open - closing.size > soft) evictIdle();
    if (open - closing.size > soft) {
      setTimeout(() => socket.destroy(), grace).unref();
      triage(app, socket, refusal);
      return;
    }
    served.set(socket, { inFlight: 0, answered: 0, since: 0 });
    for (const f of parsers) f.call(server, socket);
  });
  app.addHook('onRequest', async (req, reply) => {
    const s = served.get(req.raw.socket as Socket);
    if (!s) return; // app.inject (a triaged /health): no socket of the server
    s.inFlight++;
    reply.raw.once('close', () => {
      s.inFlight--;
      s.answered++;
      s.since = Date.now();
    });
  });
}
