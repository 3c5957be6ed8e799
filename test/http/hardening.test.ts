/**
 * The HTTP door before (or without) login (issue #10 items 10, 11, 13, 16): timeouts and the
 * connection cap over real sockets, /health without the token, failed logins and JSON-RPC batches
 * against the rate limit, and the error shape of what Node's parser or the JSON parser refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import mqtt from 'mqtt';
import { capConnections, HTTP_LIMIT_DEFAULTS, openFileLimit } from '../../src/http/limits.js';
import { buildTestHub, get, post, type TestHub } from '../helpers/hub.js';

const TOKEN = 'hardening-token';
const auth = { authorization: `Bearer ${TOKEN}` };

interface Raw {
  socket: Socket;
  data: () => string;
  closed: Promise<number>;
}

/** A raw connection; `closed` resolves with the ms it stayed open. */
async function open(port: number, text = ''): Promise<Raw> {
  const socket = connect(port, '127.0.0.1');
  const started = performance.now();
  let data = '';
  socket.on('data', (d) => (data += d));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((r) => socket.once('close', () => r(performance.now() - started)));
  await new Promise((r) => socket.once('connect', r));
  if (text) socket.write(text);
  return { socket, data: () => data, closed };
}

/** Writes `bytes` one per `everyMs` until the socket closes. */
function trickle(raw: Raw, everyMs: number, bytes = 'a') {
  const t = setInterval(() => (raw.socket.writable ? raw.socket.write(bytes) : clearInterval(t)), everyMs);
  void raw.closed.then(() => clearInterval(t));
}

/**
 * Sends one request on a fresh connection and resolves with the raw response once the server closes it
 * (every request here asks for, or earns, a closed connection; one left open fails by the test's timeout).
 */
async function exchange(port: number, text: string): Promise<{ status: number; body: any; raw: string }> {
  const raw = await open(port, text);
  await raw.closed;
  raw.socket.destroy();
  const out = raw.data();
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(out)?.[1] ?? 0);
  const bodyText = out.slice(out.indexOf('\r\n\r\n') + 4);
  let body: any = null;
  try {
    body = JSON.parse(bodyText);
  } catch {
    body = bodyText;
  }
  return { status, body, raw: out };
}

describe('timeouts close slow connections (item 10)', () => {
  let hub: TestHub;
  let port: number;
  beforeAll(async () => {
    hub = await buildTestHub({ config: { http: { token: TOKEN, request_timeout_ms: 800, headers_timeout_ms: 400 } } });
    await hub.start();
    port = (hub.app.server.address() as { port: number }).port;
  });
  afterAll(() => hub?.close());

  it('closes connections trickling a body, trickling headers, or sending nothing, with 408 in the error shape', async () => {
    const bodies = await Promise.all(
      [0, 1, 2, 3, 4].map(() =>
        open(
          port,
          `POST /remember HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"entity_name":"`,
        ),
      ),
    );
    bodies.forEach((b) => trickle(b, 50));
    const headers = await open(port, 'GET /health HTTP/1.1\r\nHost: x\r\n');
    trickle(headers, 50, 'X-Slow: 1\r\n');
    const idle = await open(port);

    // They trickle forever: each ends only when the hub closes it (else the test times out). How long after
    // the 800 / 400 ms timeouts is a row of `npm run bench` (scripts/bench/stopwatch-io.ts).
    await Promise.all([...bodies, headers, idle].map((c) => c.closed));
    expect(headers.data()).toMatch(/^HTTP\/1\.1 408/);
    const body = JSON.parse(headers.data().slice(headers.data().indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ ok: false, error: 'timeout' });
    // The hub still answers.
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  });
});

describe('the connection cap keeps room for /health (item 10; issue #35 item 7)', () => {
  let hub: TestHub;
  let port: number;
  beforeAll(async () => {
    // 12 connections at most, 9 served at once.
    hub = await buildTestHub({ config: { http: { token: TOKEN, max_connections: 12 } } });
    await hub.start();
    port = (hub.app.server.address() as { port: number }).port;
  });
  afterAll(() => hub?.close());
  const record = `POST /record HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"entity_name":"`;

  it('silent connections hold no slot; with every slot busy /health is answered, a stranger refused with 503 and Retry-After, a token holder served beside them', async () => {
    const silent = await Promise.all(Array.from({ length: 15 }, () => open(port)));
    const first = await exchange(
      port,
      `GET /entities HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`,
    );
    expect(first.status).toBe(200);
    // Nine token holders' requests in flight (their bodies unfinished): every served slot busy.
    const busy = await Promise.all(Array.from({ length: 9 }, () => open(port, record)));
    await new Promise((r) => setTimeout(r, 100));
    const stranger = await exchange(port, 'GET /entities HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(stranger.status).toBe(503);
    expect(stranger.body).toMatchObject({ ok: false, error: 'unavailable' });
    expect(stranger.body.message).toMatch(/http\.max_connections = 12/);
    expect(stranger.raw).toMatch(/\r\nretry-after: 1\r\n/i);
    const health = await open(port, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    await health.closed; // answered and closed (else the test times out); how soon is not asserted here
    expect(health.data()).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*connection: close[\s\S]*"status":"ok"/);
    // A token holder is served beside them (token holders may hold more than max_connections, limits.ts
    // householdConnections): none of theirs is retired.
    const holder = await exchange(
      port,
      `GET /entities HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`,
    );
    expect(holder.status).toBe(200);
    for (const b of busy) b.socket.write(`Kitchen","metric":"t","value":1,"ts":1764633600}`.padEnd(200 - 16, ' '));
    await expect.poll(() => busy.every((b) => b.data().endsWith('}')), { timeout: 10_000 }).toBe(true);
    const answers = busy.map((b) => b.data());
    expect(answers.every((a) => a.startsWith('HTTP/1.1 200'))).toBe(true);
    expect(answers.filter((a) => /\r\nconnection: close\r\n/i.test(a))).toHaveLength(0);
    expect(silent.every((c) => !c.socket.destroyed && c.socket.readyState === 'open')).toBe(true);
    for (const c of [...silent, ...busy]) c.socket.destroy();
  });
});

describe('the connection cap and the file limit', () => {
  it('warns when max_connections leaves too few file descriptors for MQTT and SQLite', async () => {
    const files = openFileLimit();
    expect(files).toBeGreaterThan(0);
    let logged = '';
    const stream = new Writable({ write: (c, _e, cb) => ((logged += c), cb()) });
    const app = Fastify({ logger: { level: 'warn', stream } });
    capConnections(app, { ...HTTP_LIMIT_DEFAULTS, maxConnections: files! });
    expect(logged).toMatch(/http\.max_connections = \d+ leaves fewer than 256 of the \d+ open files.*LimitNOFILE/);
    logged = '';
    capConnections(Fastify({ logger: { level: 'warn', stream } }), {
      ...HTTP_LIMIT_DEFAULTS,
      maxConnections: Math.max(4, files! - 1000),
    });
    expect(logged).toBe('');
  });
});

describe('/health without the token, and tracked names (item 11)', () => {
  let hub: TestHub;
  let url: string;
  beforeAll(async () => {
    hub = await buildTestHub({ config: { http: { token: TOKEN }, mqtt: { mode: 'embedded', port: 0 } } });
    hub.clock.set(Date.now() / 1000);
    url = (await hub.start()).mqtt!;
  });
  afterAll(() => hub?.close());

  it('says liveness and status only without the token, everything with it', async () => {
    expect(
      (
        await post(
          hub,
          '/record',
          { entity_name: 'pump', metric: 'glucose', value: 5.4, source: 'insulin-pump-SN4471' },
          auth,
        )
      ).status,
    ).toBe(200);
    const c = await mqtt.connectAsync(url, { reconnectPeriod: 0 });
    await c.publishAsync('zigbee2mqtt/alices_bedroom', 'not json', { qos: 1 });
    await c.endAsync();

    const open = await get(hub, '/health');
    expect(open.status).toBe(200);
    expect(Object.keys(open.body).sort()).toEqual(['ok', 'result', 'status']);
    expect(open.body).toMatchObject({ ok: true, status: 'ok' });
    expect(JSON.stringify(open.body)).not.toMatch(/insulin|alices|pump|\d+ memories/);

    const full = await get(hub, '/health', auth);
    expect(full.body.ingest.by_source['insulin-pump-SN4471']).toEqual({ accepted: 1, rejected: 0 });
    expect(full.body.mqtt.bridge.errors_by_topic['zigbee2mqtt/alices_bedroom']).toBe(1);
  });

  it('caps tracked topic and source names in length and in number', async () => {
    const c = await mqtt.connectAsync(url, { reconnectPeriod: 0 });
    for (let i = 0; i < 260; i++) c.publish(`zigbee2mqtt/${'x'.repeat(5000)}${i}`, 'not json', { qos: 0 });
    await c.publishAsync('zigbee2mqtt/last', 'not json', { qos: 1 });
    await c.endAsync();
    for (let i = 0; i < 220; i++)
      await post(
        hub,
        '/record',
        { entity_name: 'src', metric: 'n', value: i, source: `source-${i}-${'y'.repeat(80)}` },
        auth,
      );

    const res = await hub.app.inject({ url: '/health', headers: auth });
    expect(res.payload.length).toBeLessThan(128 * 1024);
    const body = res.json();
    const topics = Object.keys(body.mqtt.bridge.errors_by_topic);
    const sources = Object.keys(body.ingest.by_source);
    expect(topics.length).toBeLessThanOrEqual(200);
    expect(sources.length).toBeLessThanOrEqual(201);
    expect(sources).toContain('(other)');
    for (const name of [...topics, ...sources]) expect(name.length).toBeLessThanOrEqual(120);
    expect(body.mqtt.bridge.errors_by_topic['zigbee2mqtt/last']).toBe(1);
    // /metrics carries the same capped names.
    const metrics = (await hub.app.inject({ url: '/metrics', headers: auth })).payload;
    expect(metrics).not.toContain('x'.repeat(200));
  });
});

describe('rate limits count failed logins and JSON-RPC batch calls (item 13)', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await buildTestHub({
      config: { http: { token: TOKEN, rate_limit_per_minute: 10, auth_failures_per_minute: 5 } },
    });
  });
  afterAll(() => hub?.close());

  const from = (remoteAddress: string, headers: Record<string, string> = {}) =>
    hub.app.inject({ url: '/entities', remoteAddress, headers });

  it('answers 429 to a token guesser, before comparing tokens, and only to that address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await from('10.0.0.66', { authorization: `Bearer guess-${i}` })).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const right = await from('10.0.0.66', auth);
    expect(right.statusCode).toBe(429);
    expect(right.json()).toMatchObject({ ok: false, error: 'rate_limited' });
    expect(right.json().message).toMatch(/failed logins per minute/);
    expect((await from('10.0.0.7', auth)).statusCode).toBe(200);
    expect((await hub.app.inject({ url: '/health', remoteAddress: '10.0.0.66' })).statusCode).toBe(200);
  });

  it('a request with no token at all (a browser fetching /favicon.ico) is not a guess', async () => {
    for (let i = 0; i < 8; i++) expect((await from('10.0.0.90')).statusCode).toBe(401);
    expect((await from('10.0.0.90', auth)).statusCode).toBe(200);
  });

  it('counts each call of a JSON-RPC batch on /mcp (a hub without a token: there every caller counts)', async () => {
    // With a token set, the token's holder is never rate-limited (issue #26 item 19, test/http/busy-client.test.ts).
    const open = await buildTestHub({ config: { http: { rate_limit_per_minute: 10 } } });
    try {
      await batchCounts(open);
    } finally {
      await open.close();
    }
  });
  const batchCounts = async (hub: TestHub) => {
    const batch = (n: number, tag: string) =>
      Array.from({ length: n }, (_, i) => ({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'tools/call',
        params: { name: 'remember', arguments: { entity_name: `batch-${tag}`, fact: `fact number ${i}` } },
      }));
    const call = (body: unknown, remoteAddress: string) =>
      hub.app.inject({
        method: 'POST',
        url: '/mcp',
        remoteAddress,
        payload: body as object,
        headers: { ...auth, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      });
    const memories = async (tag: string) => (await get(hub, `/entities`, auth)).body;

    const big = await call(batch(20, 'big'), '10.0.0.8');
    expect(big.statusCode).toBe(429);
    expect(big.json().message).toMatch(/batch of 20 calls/);
    expect(JSON.stringify(await memories('big'))).not.toContain('batch-big');

    const small = await call(batch(3, 'small'), '10.0.0.9');
    expect(small.statusCode).toBe(200);
    expect(small.json()).toHaveLength(3);
  };
});

describe('errors before a route runs keep the error shape (item 16)', () => {
  let hub: TestHub;
  let port: number;
  beforeAll(async () => {
    hub = await buildTestHub({ config: { http: { token: TOKEN } } });
    await hub.start();
    port = (hub.app.server.address() as { port: number }).port;
  });
  afterAll(() => hub?.close());

  it.each([
    [
      'a bad request line',
      'GARBAGE /health HTTP/1.1\r\nHost: x\r\n\r\n',
      400,
      'invalid',
      /^request: not valid HTTP\/1\.1/,
    ],
    [
      'bad chunking',
      `POST /remember HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`,
      400,
      'invalid',
      /^body: malformed framing/,
    ],
    [
      'headers over 16 KiB',
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'too_large',
      /^headers: larger than the 16 KiB limit/,
    ],
  ])('%s', async (_name, text, status, error, message) => {
    const res = await exchange(port, text);
    expect(res.status).toBe(status);
    expect(res.raw).toMatch(/content-type: application\/json/i);
    expect(res.body).toMatchObject({ ok: false, error });
    expect(res.body.message).toMatch(message);
  });

  it('quotes /write its own 10 MiB limit', async () => {
    const res = await hub.app.inject({
      method: 'POST',
      url: '/write',
      headers: auth,
      payload: Buffer.alloc(11 * 1024 * 1024, 97),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/10485760-byte \(10 MiB\) limit/);
    const small = await hub.app.inject({
      method: 'POST',
      url: '/remember',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: `{"entity_name":"a","fact":"${'b'.repeat(1100 * 1024)}"}`,
    });
    expect(small.statusCode).toBe(413);
    expect(small.json().message).toMatch(/1048576-byte \(1 MiB\) limit/);
  });

  it('names a __proto__ key instead of calling valid JSON invalid, and still explains invalid JSON', async () => {
    const send = (payload: string) =>
      hub.app.inject({
        method: 'POST',
        url: '/remember',
        headers: { ...auth, 'content-type': 'application/json' },
        payload,
      });
    const proto = await send('{"__proto__":{"x":1},"entity_name":"a","fact":"b"}');
    expect(proto.statusCode).toBe(400);
    expect(proto.json().message).toMatch(/"__proto__" is not allowed/);
    expect(proto.json().message).not.toMatch(/not valid JSON/);
    const escaped = await send('{"entity_name":"a","fact":"b","meta":{"\\u005f_proto__":{"x":1}}}');
    expect(escaped.json().message).toMatch(/"__proto__" is not allowed/);
    const ctor = await send('{"entity_name":"a","fact":"b","meta":{"constructor":{"prototype":{"x":1}}}}');
    expect(ctor.json().message).toMatch(/"constructor" holding "prototype"/);
    const broken = await send('{"entity_name": "a",');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toMatch(/^body: not valid JSON \(/);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('/health and the embedder', () => {
  it('a flood of /health calls pings the embedder once per few seconds, not once per call', async () => {
    const { createLocalEmbedder } = await import('../../src/ai/local-embedder.js');
    const inner = createLocalEmbedder();
    let pings = 0;
    const embedder = { ...inner, embed: inner.embed.bind(inner), ping: async () => (pings++, true) };
    const hub = await buildTestHub({ embedder });
    try {
      for (let i = 0; i < 25; i++) expect((await get(hub, '/health')).status).toBe(200);
      expect(pings).toBe(1);
      expect((await get(hub, '/health')).body.embedder.answers).toBe(true);
    } finally {
      await hub.close();
    }
  });
});
