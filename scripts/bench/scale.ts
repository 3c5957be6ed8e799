/**
 * Part 4 — scale (issue #10 item 12). A house with 100k entities (10 `/record/bulk` requests, as the
 * issue measured): `/cross_query` latency over HTTP against the pre-#10 matcher (every series name
 * read and tokenized per query) on the same database; RSS after the queries. Then, on a fresh hub,
 * one 1M-reading `/write` (50k lines × 20 fields, ~8 MiB): the longest `/health` answer and MQTT
 * PUBACK a probe in another thread saw while it was written, against the same probe on the idle hub.
 * The scheduler runs as in production, so a rollup pass over the new readings can land in the window.
 */
import { Worker } from 'node:worker_threads';
import { tokenize } from '../../src/ai/text.js';
import { percentile, since, summarize, type BenchOptions, type BenchRow } from './common.js';
import { benchHub, type BenchHub } from './harness.js';

const QUERIES = [
  'how warm is the bedroom',
  'is the garage door open',
  'kitchen humidity',
  'power use of the washing machine',
  'sensor 4711 temperature',
  'co2 in the office',
];

async function post(url: string, body: unknown) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
  return r.json();
}

/** The matcher before the index: every series' name read and tokenized for each query. */
function scanMatch(h: BenchHub, query: string) {
  const q = new Set(tokenize(query));
  const rows = h.hub.db
    .prepare(
      'SELECT s.id, e.name AS entity_name, s.metric FROM series s JOIN entities e ON e.id = s.entity_id ORDER BY s.id',
    )
    .all() as { id: number; entity_name: string; metric: string }[];
  return rows
    .map((r) => {
      const words = new Set(tokenize(`${r.entity_name} ${r.metric.replace(/[._]/g, ' ')}`));
      return { r, score: [...words].filter((w) => q.has(w)).length / Math.max(1, words.size) };
    })
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 10);
}

async function crossQuery(h: BenchHub, opts: BenchOptions, entities: number): Promise<BenchRow[]> {
  const per = 10_000;
  for (let from = 0; from < entities; from += per) {
    const readings = Array.from({ length: Math.min(per, entities - from) }, (_, i) => ({
      entity_name: `sensor ${from + i}`,
      metric: ['temperature', 'humidity', 'power', 'door'][(from + i) % 4],
      value: i % 30,
    }));
    await post(`${h.urls.http}/record/bulk`, { readings });
  }
  for (const [e, m] of [
    ['bedroom', 'temperature'],
    ['garage', 'door'],
    ['kitchen', 'humidity'],
    ['washing machine', 'power'],
    ['office', 'co2'],
  ]) {
    await post(`${h.urls.http}/record`, { entity_name: e, metric: m, value: m === 'door' ? 'closed' : 21 });
  }
  opts.log(`scale: ${entities} entities loaded`);
  await post(`${h.urls.http}/cross_query`, { query: 'warm up' }); // indexes the new series once
  const lat: number[] = [];
  const rounds = opts.quick ? 3 : 10;
  for (let i = 0; i < rounds; i++)
    for (const query of QUERIES) {
      const t0 = performance.now();
      await post(`${h.urls.http}/cross_query`, { query });
      lat.push(since(t0));
    }
  const scan: number[] = [];
  for (const query of QUERIES) {
    const t0 = performance.now();
    scanMatch(h, query);
    scan.push(since(t0));
  }
  const s = summarize(lat);
  const base = percentile(scan, 50);
  const rss = process.memoryUsage().rss / 2 ** 20;
  return [
    {
      part: 'scale',
      what: `/cross_query p50, ${entities / 1000}k entities`,
      value: s.p50,
      unit: 'ms',
      baseline: { what: 'pre-#10 series scan alone, p50', value: base },
      ratio: s.p50 / base,
      target: '< 20 ms',
      met: s.p50 < 20,
      note: `p95 ${s.p95.toFixed(1)} ms, n=${s.n}`,
    },
    {
      part: 'scale',
      what: `RSS after the queries, ${entities / 1000}k entities`,
      value: rss,
      unit: 'MiB',
      note: 'hub and bench in one process',
    },
  ];
}

/** Runs the probe worker while `during` runs; its /health and PUBACK latencies. */
async function probe(h: BenchHub, during: () => Promise<unknown>): Promise<{ health: number[]; puback: number[] }> {
  const worker = new Worker(new URL('./probe-worker.js', import.meta.url), {
    workerData: { http: h.urls.http, mqttUrl: h.urls.mqtt },
  });
  try {
    const messages: { ready?: boolean; health?: number[]; puback?: number[] }[] = [];
    let wake: (() => void) | null = null;
    worker.on('message', (m) => (messages.push(m), wake?.()));
    const next = async () => {
      while (!messages.length) await new Promise<void>((r) => (wake = r));
      return messages.shift()!;
    };
    await next(); // ready
    await during();
    worker.postMessage('stop');
    const m = await next();
    return { health: m.health!, puback: m.puback! };
  } finally {
    await worker.terminate();
  }
}

async function largeWrite(h: BenchHub, opts: BenchOptions): Promise<BenchRow[]> {
  const lines = opts.quick ? 5000 : 50_000;
  const now = Math.floor(Date.now() / 1000);
  const body = Array.from(
    { length: lines },
    (_, i) =>
      `m,host=big${i % 100} ${Array.from({ length: 20 }, (_, j) => `f${j}=${(i * j) % 1000}`).join(',')} ${now - lines + i}`,
  ).join('\n');
  const idle = await probe(h, () => new Promise((r) => setTimeout(r, 2000)));
  let writeMs = 0;
  const busy = await probe(h, async () => {
    const t0 = performance.now();
    const r = await fetch(`${h.urls.http}/write?precision=s`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body,
    });
    writeMs = since(t0);
    if (r.status !== 204) throw new Error(`/write: ${r.status} ${await r.text()}`);
    // Keep probing past the next 10-s rollup pass over what was written (the scheduler rolls it in slices).
    await new Promise((r) => setTimeout(r, 11_000));
  });
  const max = (a: number[]) => Math.max(...a);
  const n = lines * 20;
  return [
    {
      part: 'scale',
      what: `longest /health during a ${n / 1e6}M-reading /write and its rollup`,
      value: max(busy.health),
      unit: 'ms',
      baseline: { what: 'idle hub', value: max(idle.health) },
      ratio: max(busy.health) / max(idle.health),
      target: '< 250 ms',
      met: max(busy.health) < 250,
      note: `${busy.health.length} probes`,
    },
    {
      part: 'scale',
      what: `longest MQTT PUBACK during the /write and its rollup`,
      value: max(busy.puback),
      unit: 'ms',
      baseline: { what: 'idle hub', value: max(idle.puback) },
      ratio: max(busy.puback) / max(idle.puback),
      target: '< 250 ms',
      met: max(busy.puback) < 250,
    },
    {
      part: 'scale',
      what: `${n / 1e6}M-reading /write, whole request`,
      value: writeMs / 1000,
      unit: 's',
      note: `${(body.length / 2 ** 20).toFixed(1)} MiB, ${Math.round(n / (writeMs / 1000))} readings/s`,
    },
  ];
}

export async function benchScale(opts: BenchOptions): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  // Two hubs: the write's probes must not also measure the rollup pass over 100k fresh series.
  for (const part of [
    (h: BenchHub) => crossQuery(h, opts, opts.quick ? 10_000 : 100_000),
    (h: BenchHub) => largeWrite(h, opts),
  ]) {
    const h = await benchHub({ max_msgs_per_sec: 0 });
    try {
      rows.push(...(await part(h)));
    } finally {
      await h.close();
    }
  }
  return rows;
}
