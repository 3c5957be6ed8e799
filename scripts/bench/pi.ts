/**
 * `npm run bench -- --pi`: Hearth as a Raspberry Pi runs it. The hub is a real `hearth serve` child
 * pinned to one core (`taskset -c <last core>`) with a 256 MB V8 heap (`--max-old-space-size=256`);
 * the bench process and its load generator are pinned to the other cores, as sensors are other
 * devices. Every figure has a baseline run in the same constraints and the same run:
 *
 * - MQTT QoS 1 readings/s (PUBACK after commit) vs a bare aedes broker's QoS 1 PUBACK rate;
 * - POST /record at concurrency 8 (each answer after its commit) vs GET /health at concurrency 8
 *   (the framework alone): target ≥ 0.8;
 * - hybrid recall p95 over HTTP at 10k memories vs raw sqlite-vec KNN p95 in a pinned process;
 * - one pattern-engine run over 50 entities × 10 metrics × 30 days vs a plain scan of those readings;
 * - the hub's RSS after each, and how long a SIGTERM stop takes.
 * Without taskset (or with one core) it runs unpinned and says so.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import { openDatabase } from '../../src/db/open.js';
import { freePort, since, sleep, summarize, tempDir, prng, type BenchOptions, type BenchRow } from './common.js';
import { startLoad } from './harness.js';
import { queries } from './household.js';
import { TOPICS } from './ingest.js';
import { fillPatternFixture } from './patterns.js';
import { openGrowingStore } from './recall-store.js';

const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const HEAP = '--max-old-space-size=256';
const RECORD_TARGET = 0.8;

const hasTaskset = spawnSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' }).status === 0;
const cores = cpus().length;
const pinned = hasTaskset && cores >= 2;
const hubCore = String(cores - 1);

/** `node <HEAP> args…`, on the hub's core when pinning. */
function pinnedNode(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const cmd = pinned ? 'taskset' : process.execPath;
  const argv = pinned ? ['-c', hubCore, process.execPath, HEAP, ...args] : [HEAP, ...args];
  return spawn(cmd, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** RSS of a process in MB (Linux /proc). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

interface PiHub {
  child: ChildProcess;
  http: string;
  mqtt: string;
  rss: () => number;
  /** SIGTERM; resolves with ms until exit. */
  stop: () => Promise<number>;
}

async function startHub(dataDir: string): Promise<PiHub> {
  const [h, m] = [await freePort(), await freePort()];
  const child = pinnedNode([join(DIST, 'src/cli.js'), 'serve'], {
    PATH: process.env.PATH,
    HEARTH_DATA_DIR: dataDir,
    HEARTH_HTTP_PORT: String(h),
    HEARTH_MQTT_PORT: String(m),
    MEMORY_AI_PROVIDER: 'local',
    HEARTH_TZ: 'UTC',
    HEARTH_LOG_LEVEL: 'warn',
    // Capacity, not policy: the rate limit and the per-client throttle are off, as in the ingest bench.
    HEARTH_RATE_LIMIT_PER_MINUTE: '0',
    HEARTH_MQTT_MAX_MSGS_PER_SEC: '0',
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const http = `http://127.0.0.1:${h}`;
  for (let i = 0; ; i++) {
    if (
      await fetch(`${http}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (child.exitCode !== null || i > 1200) throw new Error(`hearth serve did not start: ${out}`);
    await sleep(50);
  }
  return {
    child,
    http,
    mqtt: `mqtt://127.0.0.1:${m}`,
    rss: () => rssMb(child.pid!),
    stop: () =>
      new Promise((resolve) => {
        const t0 = performance.now();
        child.once('exit', () => resolve(since(t0)));
        child.kill('SIGTERM');
      }),
  };
}

/** `clients` keep-alive clients each sending requests until `total` are done; requests/s. */
async function httpRate(
  base: string,
  clients: number,
  total: number,
  req: (i: number) => { method: string; path: string; body?: string },
): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const send = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const r = req(i);
      const q = request(
        `${base}${r.path}`,
        {
          method: r.method,
          agent,
          headers: r.body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(r.body) } : {},
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode && res.statusCode < 300
              ? resolve()
              : reject(new Error(`${r.path} answered ${res.statusCode}`)),
          );
        },
      );
      q.on('error', reject);
      q.end(r.body);
    });
  let next = 0;
  const run = async () => {
    while (next < total) await send(next++);
  };
  await Promise.all(Array.from({ length: clients }, () => send(-1))); // sockets open, routes warm
  const t0 = performance.now();
  await Promise.all(Array.from({ length: clients }, run));
  const ms = since(t0);
  agent.destroy();
  return (total / ms) * 1000;
}

/** QoS 1 publishes from one publisher (load worker), all acknowledged; messages/s. */
async function mqttQos1(url: string, total: number): Promise<{ rate: number; acked: number }> {
  const load = await startLoad({ kind: 'mqtt', url, qos: 1, publishers: 1, total, inflight: 1000, topics: TOPICS });
  const t0 = load.go();
  const done = await load.done;
  return { rate: (done.acked / since(t0)) * 1000, acked: done.acked };
}

async function childJson(args: string[]): Promise<Record<string, number>> {
  const c = pinnedNode([join(DIST, 'scripts/bench/pi-child.js'), ...args], { PATH: process.env.PATH });
  let out = '';
  c.stdout!.on('data', (d) => (out += d));
  c.stderr!.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((r) => c.once('exit', r));
  if (code !== 0) throw new Error(`pi-child ${args[0]} failed: ${out}`);
  return JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>;
}

export async function benchPi(opts: BenchOptions): Promise<BenchRow[]> {
  if (pinned) spawnSync('taskset', ['-pc', `0-${cores - 2}`, String(process.pid)], { stdio: 'ignore' });
  const where = pinned
    ? `hub on core ${hubCore} of ${cores}, bench on ${cores === 2 ? 'core 0' : `cores 0-${cores - 2}`}`
    : `unpinned (${hasTaskset ? 'one core' : 'taskset not found'})`;
  opts.log(`pi: ${where}; hub and baselines run with ${HEAP}`);
  const rows: BenchRow[] = [];
  const row = (what: string, value: number, unit: string, extra: Partial<BenchRow> = {}) =>
    rows.push({ part: 'pi', what, value, unit, ...extra });
  const q = opts.quick;

  // 1. MQTT QoS 1, then HTTP, on a fresh hub.
  const fresh = tempDir('pi-hub');
  try {
    const nMqtt = q ? 5000 : 50_000;
    const port = await freePort();
    const broker = pinnedNode([join(DIST, 'scripts/bench/pi-child.js'), 'broker', String(port)], {
      PATH: process.env.PATH,
    });
    await new Promise<void>((resolve) => broker.stdout!.once('data', () => resolve()));
    const bare = await mqttQos1(`mqtt://127.0.0.1:${port}`, nMqtt);
    broker.kill('SIGTERM');
    const hub = await startHub(fresh.dir);
    opts.log(`pi: hub up, RSS ${hub.rss().toFixed(0)} MB`);
    row('hub RSS at start (empty database)', hub.rss(), 'MB');
    const m = await mqttQos1(hub.mqtt, nMqtt);
    opts.log(`pi: MQTT QoS 1 ${m.rate.toFixed(0)} readings/s (${m.acked} acked); bare aedes ${bare.rate.toFixed(0)}/s`);
    row(`MQTT QoS 1, 1 publisher → SQLite (${m.acked} acked)`, m.rate, 'readings/s', {
      baseline: { what: 'bare aedes QoS 1 PUBACKs/s', value: bare.rate },
      ratio: m.rate / bare.rate,
      note: `RSS after ${hub.rss().toFixed(0)} MB`,
    });

    // Interleaved rounds, so a noisy neighbour slows both alike; the rates are means over the rounds.
    const [rounds, perRound] = q ? [3, 1000] : [5, 4000];
    const hs: number[] = [];
    const rs: number[] = [];
    for (let r = 0; r < rounds; r++) {
      hs.push(await httpRate(hub.http, 8, perRound, () => ({ method: 'GET', path: '/health' })));
      rs.push(
        await httpRate(hub.http, 8, perRound, (i) => ({
          method: 'POST',
          path: '/record',
          body: JSON.stringify({
            entity_name: `pi_room_${(r * perRound + i) % 25}`,
            metric: 'temperature',
            value: 20 + (i % 100) / 10,
          }),
        })),
      );
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const [rec, base] = [mean(rs), mean(hs)];
    opts.log(
      `pi: /record c=8 ${rs.map((x) => x.toFixed(0)).join(' ')} req/s; /health c=8 ${hs.map((x) => x.toFixed(0)).join(' ')} req/s (${rounds} interleaved rounds of ${perRound})`,
    );
    // What the disk allows: each answer waits for an fsync, so 8 clients get at most 8 answers per commit.
    const commitDir = tempDir('pi-commit');
    const commit = await childJson(['commit', commitDir.dir]).finally(() => commitDir.remove());
    opts.log(
      `pi: one-row commit ${commit.ms.toFixed(2)} ms → at most ${(8000 / commit.ms).toFixed(0)} answers/s at concurrency 8`,
    );
    row('one-row commit, WAL + synchronous=FULL (an fsync)', commit.ms, 'ms', {
      note: `ceiling for 8 clients waiting on commits: ${(8000 / commit.ms).toFixed(0)}/s`,
    });
    row(
      `POST /record, concurrency 8 (answer after commit; ${rounds} × ${perRound} interleaved with /health)`,
      rec,
      'requests/s',
      {
        baseline: { what: '/health c=8 requests/s', value: base },
        ratio: rec / base,
        target: `≥ ${RECORD_TARGET}× /health`,
        met: rec / base >= RECORD_TARGET,
        note: `RSS after ${hub.rss().toFixed(0)} MB`,
      },
    );
    const stopMs = await hub.stop();
    opts.log(`pi: SIGTERM → exit in ${stopMs.toFixed(0)} ms`);
    row('graceful stop: SIGTERM → exit (writer flushed, WAL checkpointed)', stopMs, 'ms', {
      target: '< 10,000 ms',
      met: stopMs < 10_000,
    });
  } finally {
    fresh.remove();
  }

  // 2. Hybrid recall over HTTP at 10k memories.
  const size = q ? 2000 : 10_000;
  const store = await openGrowingStore(createLocalEmbedder(), { cache: !q && !opts.fresh, log: opts.log });
  const recallDir = tempDir('pi-recall');
  try {
    await store.growTo(size);
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    mkdirSync(recallDir.dir, { recursive: true });
    copyFileSync(join(store.dir, 'data', 'hearth.db'), join(recallDir.dir, 'hearth.db'));
    const qs = queries(prng(size), store.entities, q ? 60 : 300);
    store.close();
    const knn = await childJson(['knn', recallDir.dir, String(size)]);
    const hub = await startHub(recallDir.dir);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ask = (body: string) =>
      new Promise<number>((resolve, reject) => {
        const t0 = performance.now();
        const r = request(
          `${hub.http}/recall`,
          {
            method: 'POST',
            agent,
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            res.on('end', () =>
              res.statusCode === 200 ? resolve(since(t0)) : reject(new Error(`/recall answered ${res.statusCode}`)),
            );
          },
        );
        r.on('error', reject);
        r.end(body);
      });
    const bodies = qs.map(({ kind: _kind, ...x }) => JSON.stringify({ ...x, mode: 'hybrid' }));
    for (const b of bodies.slice(0, 10)) await ask(b);
    const lat: number[] = [];
    for (const b of bodies) lat.push(await ask(b));
    agent.destroy();
    const s = summarize(lat);
    opts.log(
      `pi: hybrid recall at ${size}: p50 ${s.p50.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms over HTTP; raw KNN p95 ${knn.p95.toFixed(2)} ms`,
    );
    row(`hybrid recall p95 over HTTP, ${size / 1000}k memories (p50 ${s.p50.toFixed(1)} ms)`, s.p95, 'ms', {
      baseline: { what: 'raw vec0 KNN p95 ms', value: knn.p95 },
      ratio: s.p95 / knn.p95,
      note: `RSS after ${hub.rss().toFixed(0)} MB`,
    });
    await hub.stop();
  } finally {
    recallDir.remove();
  }

  // 3. One pattern-engine run over 50 × 10 × 30 days.
  const patDir = tempDir('pi-patterns');
  try {
    const days = q ? 7 : 30;
    const db = openDatabase({ dataDir: patDir.dir });
    const t0 = performance.now();
    const n = fillPatternFixture(db, Date.now() / 1000, 'UTC', days);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    opts.log(`pi: ${n} readings loaded and rolled up in ${(since(t0) / 1000).toFixed(1)} s`);
    const scan = await childJson(['scan', patDir.dir]);
    const hub = await startHub(patDir.dir);
    const before = hub.rss();
    const t1 = performance.now();
    const res = await fetch(`${hub.http}/patterns/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const ms = since(t1);
    const report = (await res.json()) as { found?: unknown[]; promoted?: unknown[] };
    if (!res.ok) throw new Error(`/patterns/run answered ${res.status}`);
    opts.log(
      `pi: pattern run ${ms.toFixed(0)} ms (${report.found?.length} findings); scan ${scan.ms.toFixed(0)} ms; RSS ${before.toFixed(0)} → ${hub.rss().toFixed(0)} MB`,
    );
    row(
      `one pattern-engine run over HTTP, 50 entities × 10 metrics × ${days} days (${(n / 1e6).toFixed(2)} M readings)`,
      ms,
      'ms',
      {
        baseline: { what: 'scan of the same readings, ms', value: scan.ms },
        ratio: ms / scan.ms,
        note: `RSS ${before.toFixed(0)} → ${hub.rss().toFixed(0)} MB`,
      },
    );
    await hub.stop();
  } finally {
    patDir.remove();
  }
  return rows;
}
