/**
 * Issue #35 items 7 and 8: one client must not starve the others. Connections were first come, first
 * served: a tokenless client holding keep-alive connections busy with `GET /health` (never idle for a
 * second), connections that never finish their headers, or a runaway token holder keeping more
 * requests in flight than the hub serves, kept every other token holder at 503. Real HTTP on
 * loopback against a hub capped at 12 connections (9 served), the floods a few times that; other
 * client addresses are 127.0.0.2… (Linux routes all of 127/8 to loopback). Every assertion is about
 * who was answered what, none about time.
 */
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { IDLE_MS, makeRoom, type Served } from '../../src/http/fair-share.js';
import { buildTestHub, type TestHub } from '../helpers/hub.js';

const TOKEN = 'fair-share-token-0123456789abcdef';
let hub: TestHub | undefined;
let port = 0;
const stops: (() => void)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0)) s();
  await hub?.close();
  hub = undefined;
});

async function start() {
  hub = await buildTestHub({ config: { http: { token: TOKEN, max_connections: 12 } } });
  await hub.start();
  port = (hub.app.server.address() as { port: number }).port;
}

/** One request; resolves with its status (0 when the connection failed). */
function send(
  path: string,
  opts: { method?: string; body?: unknown; token?: boolean; agent?: Agent | false; from?: string } = {},
): Promise<number> {
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: opts.method ?? 'GET',
        agent: opts.agent ?? false,
        localAddress: opts.from,
        headers: {
          ...(opts.token !== false && { authorization: `Bearer ${TOKEN}` }),
          ...(body && { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

let n = 0;
const reading = () => ({ entity_name: 'Kitchen', metric: 'temperature', value: 20, ts: 1_764_633_600 + n++ });

/**
 * `clients` keep-alive clients, each sending `path` again `pauseMs` after each answer (a refused
 * or dropped one too), until stopped; counts answers by status.
 */
function flood(
  clients: number,
  path: string,
  opts: { pauseMs: number; token: boolean; method?: string; from?: string },
) {
  const counts = new Map<number, number>();
  let stopped = false;
  const agents: Agent[] = [];
  for (let i = 0; i < clients; i++) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    const loop = async () => {
      while (!stopped) {
        const status = await send(path, {
          agent,
          token: opts.token,
          method: opts.method,
          from: opts.from,
          body: opts.method === 'POST' ? reading() : undefined,
        });
        counts.set(status, (counts.get(status) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, opts.pauseMs));
      }
    };
    void loop();
  }
  const stop = () => {
    stopped = true;
    for (const a of agents) a.destroy();
  };
  stops.push(stop);
  return { counts, stop, answered: () => [...counts.values()].reduce((a, b) => a + b, 0) };
}

async function until(check: () => boolean) {
  await expect.poll(check, { timeout: 20_000, interval: 50 }).toBe(true);
}

/** A token holder's `count` readings, one at a time, each on a fresh connection (a script, a cron job). */
async function household(count: number, from?: string) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push(await send('/record', { method: 'POST', body: reading(), from }));
  return statuses;
}

describe('fair share of the served connections (issue #35 items 7 and 8)', () => {
  it('a tokenless client holding every connection busy with /health never keeps a token holder out', async () => {
    await start();
    // 20 keep-alive connections asking /health every 200 ms: never idle for IDLE_MS.
    const f = flood(20, '/health', { pauseMs: IDLE_MS / 5, token: false });
    await until(() => f.answered() >= 60);
    const statuses = await household(15);
    expect(statuses).toEqual(Array(15).fill(200));
    // The flood is still served (its connections were retired, not cut: it reconnects).
    const before = f.answered();
    await until(() => f.answered() > before + 20);
    expect([...f.counts.keys()].filter((s) => s !== 200 && s !== 503)).toEqual([]);
  }, 60_000);

  it('connections that never finish their headers, or send nothing, hold no served slot', async () => {
    await start();
    const slow: Socket[] = [];
    for (let i = 0; i < 40; i++) {
      const s = connect(port, '127.0.0.1');
      s.on('error', () => undefined);
      if (i % 2) s.write('POST /record HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      slow.push(s);
    }
    stops.push(() => {
      for (const s of slow) s.destroy();
    });
    await Promise.all(slow.map((s) => new Promise((r) => (s.connecting ? s.once('connect', r) : r(null)))));
    expect(await household(15)).toEqual(Array(15).fill(200));
    expect(slow.filter((s) => !s.destroyed)).toHaveLength(40); // left to their headers timeout
  }, 60_000);

  it('a runaway token holder with 110 requests in flight (past the 96 token holders are served) leaves room for a pooled client and an assistant', async () => {
    await start();
    const runaway = flood(110, '/record', { pauseMs: 0, token: true, method: 'POST' });
    await until(() => runaway.answered() >= 200);
    // Home Assistant's pooled client: keep-alive, two sockets.
    const pool = new Agent({ keepAlive: true, maxSockets: 2 });
    stops.push(() => pool.destroy());
    const ha = await Promise.all(
      Array.from({ length: 12 }, () => send('/record', { method: 'POST', body: reading(), agent: pool })),
    );
    const remember = await send('/remember', {
      method: 'POST',
      body: { entity_name: 'Brian', fact: 'Brian likes his tea strong', category: 'preference' },
    });
    expect(ha).toEqual(Array(12).fill(200));
    expect(remember).toBe(200);
    runaway.stop();
    // Every reading acknowledged is stored.
    const acked = (runaway.counts.get(200) ?? 0) + 12;
    await until(() => (hub!.db.prepare('SELECT count(*) AS n FROM readings').get() as { n: number }).n >= acked);
  }, 60_000);

  it('another address gets its share of a hub one address floods', async () => {
    await start();
    const f = flood(30, '/record', { pauseMs: 0, token: true, method: 'POST', from: '127.0.0.2' });
    await until(() => f.answered() >= 200);
    const pool = new Agent({ keepAlive: true, maxSockets: 3 });
    stops.push(() => pool.destroy());
    const statuses = await Promise.all(
      Array.from({ length: 12 }, () =>
        send('/record', { method: 'POST', body: reading(), agent: pool, from: '127.0.0.3' }),
      ),
    );
    expect(statuses).toEqual(Array(12).fill(200));
  }, 60_000);
});

describe('who gives way (fair-share.ts)', () => {
  const now = 100_000;
  const conn = (addr: string, household: boolean, more: Partial<Served> = {}): Served => ({
    addr,
    household,
    inFlight: 1,
    answered: 1,
    since: now - 10,
    retiring: false,
    ...more,
  });

  it('an idle connection first, whoever asks', () => {
    const served = new Map([
      ['a', conn('1.1.1.1', true)],
      ['b', conn('1.1.1.1', true, { inFlight: 0, since: now - IDLE_MS })],
    ]);
    expect(makeRoom(served, { addr: '2.2.2.2', household: false }, now)).toEqual({ key: 'b', how: 'close' });
  });

  it('for a token holder, a connection without the token before any of a token holder', () => {
    const served = new Map([
      ['hog', conn('1.1.1.1', true, { answered: 500 })],
      ['hog2', conn('1.1.1.1', true, { answered: 400 })],
      ['stranger', conn('9.9.9.9', false)],
    ]);
    expect(makeRoom(served, { addr: '2.2.2.2', household: true }, now)).toEqual({ key: 'stranger', how: 'retire' });
  });

  it('a newcomer without the token takes only from those without it, and only past its own share', () => {
    const served = new Map([
      ['t1', conn('1.1.1.1', true)],
      ['s1', conn('9.9.9.9', false)],
    ]);
    expect(makeRoom(served, { addr: '8.8.8.8', household: false }, now)).toBeUndefined();
    served.set('s2', conn('9.9.9.9', false));
    expect(makeRoom(served, { addr: '8.8.8.8', household: false }, now)?.key).toMatch(/^s/);
    expect(makeRoom(served, { addr: '9.9.9.9', household: false }, now)?.key).toMatch(/^s/);
  });

  it('among token holders: the address holding most, then the connection served most; never a retiring one', () => {
    const served = new Map([
      ['ha', conn('10.0.0.2', true, { answered: 900 })],
      ['red1', conn('10.0.0.3', true, { answered: 5 })],
      ['red2', conn('10.0.0.3', true, { answered: 7 })],
      ['red3', conn('10.0.0.3', true, { answered: 6, retiring: true })],
    ]);
    expect(makeRoom(served, { addr: '10.0.0.4', household: true }, now)?.key).toBe('red2');
    // From the address holding most itself: its own connection served most gives way, not another address's.
    expect(makeRoom(served, { addr: '10.0.0.3', household: true }, now)?.key).toBe('red2');
    // HA (one connection) does not lose it to the address holding two.
    served.delete('red1');
    expect(makeRoom(served, { addr: '10.0.0.3', household: true }, now)?.key).toBe('red2');
    served.delete('red2');
    expect(makeRoom(served, { addr: '10.0.0.5', household: true }, now)).toBeUndefined();
  });
});
