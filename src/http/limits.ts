/**
 * What an HTTP connection may cost before it is answered (issue #10 item 10). Node's own defaults
 * let a client hold a connection for 5 minutes trickling a body (Fastify even turns
 * `requestTimeout` off), so 1,100 slow connections without a token exhausted the process's file
 * limit and `/health` and MQTT with it. Here: headers must arrive within `headers_timeout_ms`, the
 * whole request within `request_timeout_ms`, an idle keep-alive connection closes after
 * `keep_alive_timeout_ms`, and at most `max_connections` are served, the last few of them kept
 * free. Served fairly (issue #35 items 7, 8, 10): a connection is served only once its first
 * request head has arrived, and a newcomer takes the place of a connection that may give way
 * (fair-share.ts) before it is ever refused; `/health` is answered at once either way. Only past
 * max_connections + OVERFLOW (bounded by the open-file limit, so MQTT and SQLite keep theirs) does
 * Node drop connections unanswered, and connections still sending their head are closed, oldest
 * first, before that.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import type { ServerResponse } from 'node:http';
import { makeRoom, type Served } from './fair-share.js';
import { answerHealth, type Head, readHead, refuse } from './triage.js';

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

/**
 * Connections the kernel queues before the hub accepts them (Node's default is 511). Under a flood of
 * reconnecting clients a full queue drops a monitor's SYN, which it resends only after 1 s, then 3 s.
 * The kernel caps it at net.core.somaxconn.
 */
export const LISTEN_BACKLOG = 4096;

/** Served slots kept free (a /health answer or a newcomer's first request fits without waiting for one to close). */
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
 * Connections past `max_connections` still taken in: reading their first head, or for one quick
 * answer (/health, or 503 with Retry-After) — so a client hammering the hub cannot push a monitor's
 * fresh connection out (Node drops what is past `server.maxConnections` without a word). Bounded by
 * the open-file limit less FD_HEADROOM.
 */
export const OVERFLOW = 1024;

/** Room kept under the hard cap: past it the oldest connection still sending its head is closed. */
export const PENDING_SLACK = 16;

export { IDLE_MS } from './fair-share.js';

/** Connections served at once to token holders: HOUSEHOLD_FACTOR × max_connections, within Node's hard cap. */
export const HOUSEHOLD_FACTOR = 8;
export const householdConnections = (max: number, hard: number) =>
  Math.max(max, Math.min(HOUSEHOLD_FACTOR * max, hard - PENDING_SLACK));

/** Node's hard cap: max_connections plus the overflow that fits the open-file limit. */
export function hardCap(max: number, files = openFileLimit()): number {
  const room = files === null ? OVERFLOW : Math.max(0, Math.min(OVERFLOW, files - FD_HEADROOM - max));
  return max + room;
}

const RETRY_AFTER_S = 1;

/** Whether a request (its URL and headers) carries the valid token; without a token set, everyone does. */
export type HouseholdTest = (url: string, headers: Record<string, string | string[] | undefined>) => boolean;

/**
 * Caps open connections fairly (issue #35 items 7, 8, 10). Every connection's first request head is
 * read before it is served (triage.ts): within `headers_timeout_ms`, else 408 — so a slow or silent
 * connection never holds a served slot, and within PENDING_SLACK of Node's hard cap the oldest
 * connection still sending its head is closed, so they cannot fill that either. Up to
 * `max - reserve` connections are served (Node's parser, keep-alive), and token holders beside them
 * up to `householdConnections` (the event loop serves every connection's request in turn); when
 * they are all taken, a newcomer takes the place of one (fair-share.ts: idle ones first, then, for a token holder, those
 * without the token, then the address holding most, then the connection served most), and only when
 * none may give way is it refused: 503 with Retry-After, and closed. `/health` is answered at once
 * on its own when no slot is free. Past the hard cap Node drops connections.
 */
export function capConnections(app: FastifyInstance, l: ConnectionLimits, household: HouseholdTest = () => true): void {
  const server = app.server;
  const files = openFileLimit();
  const hard = hardCap(l.maxConnections, files);
  server.maxConnections = hard;
  if (files !== null && l.maxConnections > files - FD_HEADROOM) {
    app.log.warn(
      `http.max_connections = ${l.maxConnections} leaves fewer than ${FD_HEADROOM} of the ${files} open files this process may have for MQTT and SQLite: lower it, or raise the limit (systemd LimitNOFILE=)`,
    );
  }
  // Fastify sets only requestTimeout on its server; Node's own headersTimeout must not exceed it.
  server.headersTimeout = Math.min(l.headersTimeoutMs, l.requestTimeoutMs);
  const soft = l.maxConnections - healthReserve(l.maxConnections);
  const householdCap = householdConnections(l.maxConnections, hard);
  let open = 0;
  /** Served connections (Node's parser has them). */
  const served = new Map<Socket, Served & { res?: ServerResponse }>();
  let retiring = 0;
  /** Connections reading their first head, oldest first. */
  const pending = new Set<Socket>();
  const refusal = () =>
    `too many open connections (http.max_connections = ${l.maxConnections}, the last ones kept for /health); retry in ${RETRY_AFTER_S} s`;
  function retire(s: Served & { res?: ServerResponse }) {
    s.retiring = true;
    retiring++;
    // The answer in flight says Connection: close (Node then closes after it); one between requests
    // closes on its next answer, or at keep_alive_timeout_ms.
    if (s.res && !s.res.headersSent) s.res.setHeader('connection', 'close');
  }
  function admit(socket: Socket, head: Head) {
    const s = {
      addr: socket.remoteAddress ?? '',
      household: household(head.url, head.headers),
      inFlight: 0,
      answered: 0,
      since: 0,
      retiring: false,
    };
    const busy = served.size - retiring;
    // A token holder past the soft cap is served beside the rest rather than in a place taken from
    // another: a client made to reconnect waits in the kernel's accept queue, which Node drains one
    // connection per event-loop turn — behind it a fresh /health waited seconds (issue #35 item 10).
    if (busy >= soft && !(s.household && busy < householdCap)) {
      const room = makeRoom(served, s, Date.now());
      if (!room) {
        if (head.health) return answerHealth(app, socket, head);
        return refuse(socket, 503, 'unavailable', refusal(), RETRY_AFTER_S);
      }
      const victim = served.get(room.key)!;
      retire(victim);
      if (room.how === 'close') room.key.destroy();
    }
    served.set(socket, s);
    socket.once('close', () => {
      if (served.get(socket)?.retiring) retiring--;
      served.delete(socket);
    });
    socket.unshift(head.raw);
    for (const f of parsers) f.call(server, socket);
    socket.resume();
  }
  // The connection event Node's HTTP parser takes sockets from (over TLS the TLS socket, once the
  // handshake is done): a connection reaches it only once admitted.
  const event = server instanceof TlsServer ? 'secureConnection' : 'connection';
  const parsers = server.listeners(event) as ((socket: Socket) => void)[];
  for (const f of parsers) server.removeListener(event, f);
  // Connections still sending their head are unknown to Node's server, whose close would wait for them.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    for (const socket of pending) socket.destroy();
    done();
  });
  server.on(event, (socket: Socket) => {
    if (closing) return void socket.destroy();
    open++;
    if (open > hard - PENDING_SLACK) pending.values().next().value?.destroy();
    pending.add(socket);
    socket.once('close', () => {
      open--;
      pending.delete(socket);
    });
    readHead(socket, server.headersTimeout, (head) => {
      pending.delete(socket);
      admit(socket, head);
    });
  });
  app.addHook('onRequest', async (req, reply) => {
    const s = served.get(req.raw.socket as Socket);
    if (!s) return; // app.inject (a /health answered on its own): no socket of the server
    s.inFlight++;
    s.household = household(req.url, req.headers);
    s.res = reply.raw;
    if (s.retiring) reply.raw.setHeader('connection', 'close');
    reply.raw.once('close', () => {
      s.inFlight--;
      s.answered++;
      s.since = Date.now();
      s.res = undefined;
    });
  });
}
