/**
 * The doors' own costs (issue #36), in one hub as `npm start` runs it:
 * - `recall` over `POST /mcp` (a JSON-RPC tools/call, as Home Assistant's Assist sends it) against
 *   `POST /recall` with the same queries, p50 each, alternating (target ≤ 1.1×: the MCP door builds its
 *   tool table once per hub); the client is plain fetch on both sides, so the door's cost is what differs;
 * - `tools/list` p50 (target < 5 ms: the listing is made once);
 * - `/record` p95 while the pattern engine runs over a 30-day, 40-series house, against `/record` p95
 *   idle in the same run, idle and busy stretches alternating (target ≤ 1.5×: detectors run in their worker thread).
 *   The sensor posts from its own thread (record-worker.ts), as a sensor is another process in a home.
 */
import { Worker } from 'node:worker_threads';
import { internals } from '../../src/internals.js';
import { since, summarize, type BenchOptions, type BenchRow } from './common.js';
import { benchHub } from './harness.js';
import { fillPatternFixture } from './patterns.js';

const QUERIES = ['what does Brian drink', 'bedroom temperature at night', 'who walks the dog', 'where are the keys'];

export async function benchDoors(opts: BenchOptions): Promise<BenchRow[]> {
  const h = await benchHub();
  const http = h.urls.http;
  const post = (path: string, body: unknown) =>
    fetch(`${http}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  let rpcId = 0;
  const rpc = (method: string, params: unknown) =>
    fetch(`${http}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
    }).then(async (r) => {
      const body = (await r.json()) as { result?: unknown; error?: unknown };
      if (!body.result) throw new Error(`mcp ${method}: ${JSON.stringify(body.error ?? body)}`);
      return body.result;
    });
  try {
    for (let i = 0; i < (opts.quick ? 200 : 1000); i++)
      await post('/remember', { entity_name: `person_${i % 20}`, fact: `person_${i % 20} likes thing number ${i}` });
    const rounds = opts.quick ? 60 : 300;
    const viaHttp: number[] = [];
    const viaMcp: number[] = [];
    const listing: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const query = QUERIES[i % QUERIES.length];
      let t0 = performance.now();
      await post('/recall', { query });
      viaHttp.push(since(t0));
      t0 = performance.now();
      await rpc('tools/call', { name: 'recall', arguments: { query } });
      viaMcp.push(since(t0));
      t0 = performance.now();
      await rpc('tools/list', {});
      listing.push(since(t0));
    }
    const rh = summarize(viaHttp);
    const rm = summarize(viaMcp);
    const tl = summarize(listing);
    opts.log(
      `doors: recall p50 HTTP ${rh.p50.toFixed(2)} ms, MCP ${rm.p50.toFixed(2)} ms; tools/list p50 ${tl.p50.toFixed(2)} ms`,
    );

    // A 30-day, 40-series house, rolled up, then /record idle and during pattern runs. The sensor posts
    // from its own thread (record-worker.ts); a request that overlaps a run counts as during it.
    const { db } = internals(h.hub.services);
    const n = fillPatternFixture(db, Date.now() / 1000, 'UTC', 30, 4);
    const sensor = new Worker(new URL('./record-worker.js', import.meta.url), { workerData: http });
    const done: [number, number][] = [];
    let arrived = () => {};
    sensor.on('message', (r: [number, number]) => (done.push(r), arrived()));
    const failed = new Promise<never>((_, reject) => sensor.once('error', reject));
    failed.catch(() => undefined); // awaited in requests(); an error after the last one is not unhandled
    const requests = async (count: number) => {
      const until = done.length + count;
      while (done.length < until) await Promise.race([new Promise<void>((r) => (arrived = r)), failed]);
    };
    const now = () => performance.timeOrigin + performance.now();
    // Idle and busy stretches alternate (idle requests just before each run), so a neighbour's load on a
    // shared machine falls on both sides of the ratio alike instead of on whichever came second.
    const spans: [number, number][] = [];
    let runs = 0;
    const until = performance.now() + (opts.quick ? 4000 : 15_000);
    await requests(10); // the sensor's socket and the route are warm
    const first = done.length;
    while (performance.now() < until || runs === 0) {
      await requests(opts.quick ? 25 : 50);
      const start = now();
      await h.hub.services.patterns.run({ dry_run: true });
      spans.push([start, now()]);
      runs++;
    }
    await requests(1);
    sensor.postMessage('stop');
    await new Promise((r) => sensor.once('exit', r));
    const overlaps = ([a, b]: [number, number]) => spans.some(([s, e]) => a < e && b > s);
    const measured = done.slice(first);
    const idle = measured.filter((r) => !overlaps(r)).map(([a, b]) => b - a);
    const during = measured.filter(overlaps).map(([a, b]) => b - a);
    const ri = summarize(idle);
    const rd = summarize(during);
    opts.log(
      `doors: /record p95 idle ${ri.p95.toFixed(2)} ms, during ${runs} pattern runs over ${n} readings ${rd.p95.toFixed(2)} ms (${rd.n} requests)`,
    );
    return [
      {
        part: 'doors',
        what: `recall p50 over POST /mcp (tools/call), ${rounds} calls`,
        value: rm.p50,
        unit: 'ms',
        baseline: { what: 'POST /recall p50, same queries', value: rh.p50 },
        ratio: rm.p50 / rh.p50,
        target: '≤ 1.1×',
        met: rm.p50 / rh.p50 <= 1.1,
      },
      {
        part: 'doors',
        what: `tools/list p50 over POST /mcp, ${rounds} calls`,
        value: tl.p50,
        unit: 'ms',
        target: '< 5 ms',
        met: tl.p50 < 5,
      },
      {
        part: 'doors',
        what: `/record p95 while the pattern engine runs (40 series × 30 days, ${runs} runs)`,
        value: rd.p95,
        unit: 'ms',
        baseline: { what: '/record p95 idle, same hub', value: ri.p95 },
        ratio: rd.p95 / ri.p95,
        target: '≤ 1.5×',
        met: rd.p95 / ri.p95 <= 1.5,
      },
    ];
  } finally {
    await h.close();
  }
}
