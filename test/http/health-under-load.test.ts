/**
 * Issue 26, item 18, and issue 35 item 10: `/health` answers promptly while 500 HTTP clients hold or
 * hammer the hub (the busy ones posting /record, as in issue 35: p50 1.7 s, up to 6.3 s before —
 * a client told to reconnect waited in the kernel's accept queue, which Node drains one connection
 * per event-loop turn; token holders are now served beside the rest, limits.ts).
 * The load runs in a worker thread (its own event loop, as separate clients would be): 500
 * keep-alive clients over real sockets against a hub listening on port 0 with a token, its
 * connection cap at 64 (the repro: 96 keep-alive clients on a cap of 64 made a fresh /health take
 * 3.2–4.8 s, or was dropped) and at the default. A fresh connection's /health must answer 200, every
 * time (one not answered in DROPPED_MS counts as dropped). How fast — the median of five against an idle
 * hub's, 1–300 ms on a quiet machine (docs/http-api.md "Many clients") — is a row of `npm run bench`
 * (scripts/bench/stopwatch-io.ts), not a bound here: this runs beside other e2e files on a shared 2-core
 * machine. In the e2e tier (vitest.config.ts): 500 clients are heavy.
 */
import { request } from 'node:http';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { IDLE_MS } from '../../src/http/limits.js';
import { buildTestHub, type TestHub } from '../helpers/hub.js';

const TOKEN = 'load-token';
/** Answers one load client may have while a fresh /health waits (a few event-loop turns' worth). */
const ROUNDS = 20;
/** No answer in this long: dropped (sized for a loaded 2-core machine; the speed is the bench's). */
const DROPPED_MS = 15_000;

/**
 * The load: `clients` keep-alive connections, each sending authenticated GETs, the next one `pauseMs`
 * after an answer (0: as fast as the hub answers; 2,000: a poller that keeps its connection open
 * under the 5 s keep-alive timeout and is idle in between). A refused client tries again at once.
 */
const LOAD = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { port, clients, pauseMs, token, record } = workerData;
let n = 0;
let stop = false, ok = 0, refused = 0, failed = 0;
const agents = [];
/** Answers each client has had. */
const per = new Array(clients).fill(0);
function one(agent, i) {
  if (stop) return;
  // record: POST /record, a reading each (issue 35 item 10); else GET /entities.
  const body = record ? JSON.stringify({ entity_name: 'Kitchen', metric: 'temperature', value: 20 + (n++ % 10) }) : undefined;
  const req = http.request({ port, host: '127.0.0.1', path: record ? '/record' : '/entities?limit=5', method: record ? 'POST' : 'GET', agent, headers: { authorization: 'Bearer ' + token, ...(record && { 'content-type': 'application/json' }) } }, (res) => {
    res.resume();
    res.on('end', () => {
      if (res.statusCode === 200) ok++; else refused++;
      per[i]++;
      if (res.statusCode === 200 && pauseMs) setTimeout(() => one(agent, i), pauseMs);
      else setImmediate(() => one(agent, i));
    });
  });
  req.on('error', () => { failed++; setTimeout(() => one(agent, i), 5); });
  req.end(body);
}
for (let i = 0; i < clients; i++) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  one(agent, i);
}
parentPort.on('message', (m) => {
  if (m === 'stats') parentPort.postMessage({ ok, refused, failed, per });
  if (m === 'stop') { stop = true; for (const a of agents) a.destroy(); parentPort.postMessage({ ok, refused, failed, done: true }); }
});
`;

function load(port: number, clients: number, pauseMs: number, record = false) {
  const w = new Worker(LOAD, { eval: true, workerData: { port, clients, pauseMs, token: TOKEN, record } });
  const ask = (m: string) =>
    new Promise<{ ok: number; refused: number; failed: number; per: number[] }>(
      (r) => w.once('message', r) && w.postMessage(m),
    );
  return {
    stats: () => ask('stats'),
    async stop() {
      const s = await ask('stop');
      await w.terminate();
      return s;
    },
  };
}

/** One request on a fresh connection (no keep-alive): status and ms to the whole answer, or 0 when refused or past `DROPPED_MS`. */
function fresh(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; ms: number; retryAfter?: string }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        port,
        host: '127.0.0.1',
        path,
        agent: false,
        headers: { connection: 'close', ...headers },
        timeout: DROPPED_MS,
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, retryAfter: res.headers['retry-after'] }),
        );
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, ms: performance.now() - t0 }));
    req.end();
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Load = ReturnType<typeof load>;
type Stats = Awaited<ReturnType<Load['stats']>>;
/** Waits (at most 30 s: a loaded machine ramps 500 clients up slowly) until the load's counts satisfy `ready`. */
async function settled(l: Load, ready: (s: Stats) => boolean): Promise<Stats> {
  const until = performance.now() + 30_000;
  for (;;) {
    const s = await l.stats();
    if (ready(s) || performance.now() > until) return s;
    await sleep(100);
  }
}

describe('/health under 500 concurrent clients (issue 26 item 18)', () => {
  let hub: TestHub | undefined;
  afterEach(async () => {
    await hub?.close();
    hub = undefined;
  });

  async function start(maxConnections?: number) {
    hub = await buildTestHub({
      config: { http: { token: TOKEN, ...(maxConnections && { max_connections: maxConnections }) } },
    });
    await hub.start();
    return (hub.app.server.address() as { port: number }).port;
  }

  async function probe(port: number, label: string) {
    for (let i = 0; i < 5; i++) {
      const h = await fresh(port, '/health');
      expect(h.status, `${label}: /health #${i} (${h.ms.toFixed(0)} ms)`).toBe(200);
      await sleep(100);
    }
    // Every one answered. How fast (the median against an idle hub's) is a row of `npm run bench`
    // (scripts/bench/stopwatch-io.ts), not a bound here: this tier runs beside others on a shared machine.
  }

  it.each([64])(
    '500 polling keep-alive clients (max_connections %s): a fresh /health answers at once, a fresh authenticated request is served or refused with Retry-After at once',
    async (max) => {
      const port = await start(max);
      const l = load(port, 500, 2000);
      try {
        await settled(l, (x) => x.ok >= 500); // the clients have their answers and hold (or have taken turns on) their connections
        await sleep(IDLE_MS + 100); // idle between polls
        await probe(port, `polling, cap ${max ?? 'default'}`);
        // 500 clients want more than the cap serves: a newcomer is served, or told at once when to retry
        for (let i = 0; i < 3; i++) {
          const api = await fresh(port, '/entities', { authorization: `Bearer ${TOKEN}` });
          expect([200, 503], `a fresh authenticated request #${i} (${api.ms.toFixed(0)} ms)`).toContain(api.status);
          if (api.status === 503) expect(api.retryAfter).toBe('1');
        }
      } finally {
        await l.stop();
      }
    },
    180_000,
  );

  it.each([64, undefined])(
    '500 busy keep-alive clients posting /record (max_connections %s): a fresh /health answers at once while they are served (issue 35 item 10)',
    async (max) => {
      const port = await start(max);
      const l = load(port, 500, 0, true);
      try {
        const before = await settled(l, (x) => x.ok + x.refused >= 1000); // every client is in its loop
        // Not queued behind the load (issue 35 item 10), told by order, not by a clock: while a fresh
        // /health waits for its answer, no client of the load is answered more than ROUNDS times.
        // Before, clients refused past the cap reconnected, the kernel's accept queue filled with
        // them (Node takes one connection from it per event-loop turn) and /health waited behind
        // them all while the served clients were answered hundreds of times.
        // The median of five probes: one probe that lost its turn to another process on a shared machine
        // (the e2e tier runs beside other files) is not the hub queueing /health.
        const rounds: number[] = [];
        for (let i = 0; i < 5; i++) {
          const from = (await l.stats()).per;
          const h = await fresh(port, '/health');
          const to = (await l.stats()).per;
          rounds.push(Math.max(...to.map((v, k) => v - from[k])));
          expect(h.status, `busy, cap ${max ?? 'default'}: /health #${i}`).toBe(200);
        }
        const median = [...rounds].sort((a, b) => a - b)[2];
        expect(
          median,
          `busy, cap ${max ?? 'default'}: the most a load client was answered while a /health waited: ${rounds.join(', ')}`,
        ).toBeLessThan(ROUNDS);
        const after = await l.stats();
        expect(after.ok).toBeGreaterThan(before.ok); // the hub kept serving the household meanwhile
      } finally {
        await l.stop();
      }
    },
    180_000,
  );
});
