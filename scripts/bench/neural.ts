/**
 * Part `neural` — the offline neural embedder (use-lite) on the recall path:
 *   - embedding cost: one text alone (p95) and texts/s in batches, in the worker thread;
 *   - search_sessions after a day of turns (sessions.ts);
 *   - hybrid recall p95 at N memories *including* the query's embedding (target < 30 ms at 50k),
 *     beside a raw sqlite-vec KNN over the same index (the baseline);
 *   - remember throughput at N with the real embedder, one call at a time and 32 in flight
 *     (concurrent calls are batched by the worker; target ≥ 250/s at 50k), with one worker thread
 *     and with `embed_workers` 2, and the write path alone (vectors made beforehand);
 *   - MQTT QoS 1 ingest into a hub running use-lite, alone and with `remember` traffic at the same
 *     time (target: within 10 % of alone — embedding must never stall the sensors);
 *   - hub RSS after the part (target < 300 MB with the model loaded).
 * The store is filled through `memory.remember` (the real write path); its vectors are embedded in
 * batches up front so that building 50k takes minutes, not the length of 50k single calls.
 *
 *   node dist/scripts/bench.js --only neural [--quick]
 */
import { createUseLiteEmbedder, type UseLiteEmbedder } from '../../src/ai/use-lite.js';
import { RecallInput, RememberInput } from '../../src/tiers/memory/memory.schemas.js';
import { createMemoryService } from '../../src/tiers/memory/memory.service.js';
import { indexText } from '../../src/tiers/memory/text-match.js';
import { vectorTables } from '../../src/db/vectors.js';
import { scratchServices } from '../lib/eval-hub.js';
import { cachedEmbedder } from '../eval-recall.js';
import { exactKnn, knnAgreement, prng, since, summarize, type BenchOptions, type BenchRow } from './common.js';
import { entities, nextFact, queries } from './household.js';
import { apartRows } from './neural-child.js';
import { benchSessionSearch } from './sessions.js';
import { internals } from '../../src/internals.js';

export async function benchNeural(opts: BenchOptions): Promise<BenchRow[]> {
  const size = opts.quick ? 3000 : 50_000;
  const nQueries = opts.quick ? 60 : 300;
  const nProbe = opts.quick ? 64 : 256;
  const label = size >= 1000 ? `${size / 1000}k` : String(size);
  const neural = createUseLiteEmbedder();
  if (!(await neural.ready)) throw new Error(`use-lite did not load: ${neural.loadError}`);
  const rows: BenchRow[] = [];
  try {
    // Embedding cost, on the runtime the hub uses and on TF.js WebAssembly (the baseline).
    const wasm = createUseLiteEmbedder({ runtime: 'wasm' });
    if (!(await wasm.ready)) throw new Error(`use-lite (wasm) did not load: ${wasm.loadError}`);
    const cost = await embedCost(neural);
    const base = await embedCost(wasm);
    await wasm.close();
    const on = `on ${neural.runtime === 'onnx' ? 'ONNX Runtime' : 'TF.js WebAssembly'}`;
    rows.push({
      part: 'recall',
      what: `use-lite ${on}: embed one text p95`,
      value: cost.single.p95,
      unit: 'ms',
      note: `p50 ${cost.single.p50.toFixed(1)} ms`,
      baseline: { what: 'TF.js WebAssembly', value: base.single.p95 },
      ratio: cost.single.p95 / base.single.p95,
    });
    rows.push({
      part: 'recall',
      what: `use-lite ${on}: embed in batches of 32`,
      value: cost.perSec,
      unit: 'texts/s',
      baseline: { what: 'TF.js WebAssembly', value: base.perSec },
      ratio: cost.perSec / base.perSec,
    });
    let t0: number;
    rows.push(...(await benchSessionSearch(neural, opts)));

    // A store of `size` memories through remember, vectors embedded up front in batches.
    const rng = prng(42);
    const ents = entities(prng(41));
    const facts = Array.from({ length: size }, () => nextFact(rng, ents));
    const cached = cachedEmbedder(neural);
    t0 = performance.now();
    for (let i = 0; i < facts.length; i += 256)
      await cached.embed(facts.slice(i, i + 256).map((f) => indexText(f.entity_name, f.fact)));
    opts.log(`neural: embedded ${size} facts in ${(since(t0) / 1000).toFixed(0)} s`);
    const h = scratchServices(cached);
    const s = h.services;
    const inner = internals(s);
    const memoryWith = (embedder: typeof neural | typeof cached) =>
      createMemoryService({
        db: h.db,
        clock: h.clock,
        embedder,
        vectors: inner.vectors,
        entities: inner.entities,
        audit: inner.audit,
        config: s.config.memory,
      });
    const build = memoryWith(cached);
    t0 = performance.now();
    for (const f of facts) {
      h.clock.advance(60);
      await build.remember(RememberInput.parse(f));
    }
    opts.log(`neural: stored ${size} memories in ${(since(t0) / 1000).toFixed(0)} s`);

    // Recall with the real (uncached) embedder: the query's embedding is part of the latency.
    const live = memoryWith(neural);
    const qs = queries(prng(size), ents, nQueries);
    const qv = await neural.embed(qs.map((q) => q.query));
    const knn = exactKnn(h.db);
    const raw: number[] = [];
    const index: number[] = [];
    const hybrid: number[] = [];
    const agree10: number[] = [];
    const agree60: number[] = [];
    for (const q of qs.slice(0, 5)) await live.recall(RecallInput.parse({ query: q.query, mode: 'hybrid' }));
    // The first search starts loading the in-memory code scan (vec0 answers until then); a running
    // hub is past that, so the measurement starts once it is loaded.
    t0 = performance.now();
    while (inner.vectors.codes !== 'ready') await new Promise((r) => setTimeout(r, 5));
    opts.log(`neural: code scan loaded ${(since(t0) / 1000).toFixed(1)} s after the first search`);
    // The path before it, for comparison: sqlite-vec's own bit[] search, then the same exact re-rank.
    const [liveTable] = vectorTables(h.db);
    const vecCodes = h.db
      .prepare(`SELECT memory_id FROM ${liveTable} WHERE embedding MATCH vec_quantize_binary(?) AND k = ?`)
      .pluck();
    const vec0Path: number[] = [];
    for (let i = 0; i < qs.length; i++) {
      const { kind: _k, ...q } = qs[i];
      t0 = performance.now();
      const exact = knn(qv[i], 60);
      raw.push(since(t0));
      t0 = performance.now();
      const got = inner.vectors.knn(qv[i], 60);
      index.push(since(t0));
      t0 = performance.now();
      inner.vectors.similarTo(qv[i], (vecCodes.all(qv[i], 180n) as (number | bigint)[]).map(Number));
      vec0Path.push(since(t0));
      agree10.push(knnAgreement(exact.slice(0, 10), got.slice(0, 10)));
      agree60.push(knnAgreement(exact, got));
      t0 = performance.now();
      await live.recall(RecallInput.parse({ ...q, query: `${q.query} ` /* not in any cache */, mode: 'hybrid' }));
      hybrid.push(since(t0));
    }
    const r = summarize(raw);
    const hy = summarize(hybrid);
    const ix = summarize(index);
    const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
    rows.push({
      part: 'recall',
      what: `raw float vec0 KNN k=60 p95 (exact), ${label}, 512-d`,
      value: r.p95,
      unit: 'ms',
      note: `p50 ${r.p50.toFixed(1)} ms`,
    });
    const v0 = summarize(vec0Path);
    rows.push({
      part: 'recall',
      what: `sqlite-vec bit[] search, 180 codes + exact re-rank p95 (the path before the code scan), ${label}`,
      value: v0.p95,
      unit: 'ms',
      note: `p50 ${v0.p50.toFixed(1)} ms`,
      baseline: { what: 'raw float KNN p95', value: r.p95 },
      ratio: v0.p95 / r.p95,
    });
    rows.push({
      part: 'recall',
      what: `index KNN k=60 p95 (in-memory code scan + exact re-rank), ${label}`,
      value: ix.p95,
      unit: 'ms',
      note: `p50 ${ix.p50.toFixed(1)} ms`,
      baseline: { what: 'raw float KNN p95', value: r.p95 },
      ratio: ix.p95 / r.p95,
    });
    rows.push({
      part: 'recall',
      what: `index KNN agreement with exact search, top-10 / top-60, ${label}`,
      value: mean(agree10),
      unit: 'share',
      note: `top-60 ${mean(agree60).toFixed(3)}`,
    });
    rows.push({
      part: 'recall',
      what: `hybrid p95 incl. query embedding (use-lite), ${label}`,
      value: hy.p95,
      unit: 'ms',
      note: `p50 ${hy.p50.toFixed(1)} ms`,
      baseline: { what: 'raw float KNN p95', value: r.p95 },
      ratio: hy.p95 / r.p95,
      ...(size === 50_000 && { target: '< 30 ms', met: hy.p95 < 30 }),
    });

    // remember at this size with the real embedder: one at a time, then 32 in flight.
    const probe = (n: number) => Array.from({ length: n }, () => nextFact(rng, ents));
    t0 = performance.now();
    for (const f of probe(nProbe)) await live.remember(RememberInput.parse(f));
    const seq = (nProbe / since(t0)) * 1000;
    // 32 callers, each sending its next memory as soon as the last one is answered: 32 always in flight.
    const inFlight = async (memory: ReturnType<typeof memoryWith>, facts: ReturnType<typeof probe>) => {
      const start = performance.now();
      let nextIdx = 0;
      const caller = async () => {
        while (nextIdx < facts.length) await memory.remember(RememberInput.parse(facts[nextIdx++]));
      };
      await Promise.all(Array.from({ length: 32 }, caller));
      return (facts.length / since(start)) * 1000;
    };
    const par = await inFlight(live, probe(nProbe));
    // Recall while 32 remember calls are in flight: a query goes to the encoder ahead of the queued
    // writes, so it waits for at most the batch already running.
    let writing = true;
    const writers = Array.from({ length: 32 }, async () => {
      while (writing) await live.remember(RememberInput.parse(nextFact(rng, ents)));
    });
    const busy: number[] = [];
    for (const { kind: _k, ...q } of qs.slice(0, opts.quick ? 20 : 60)) {
      t0 = performance.now();
      await live.recall(RecallInput.parse({ ...q, query: `${q.query}  `, mode: 'hybrid' }));
      busy.push(since(t0));
    }
    writing = false;
    await Promise.all(writers);
    const hb = summarize(busy);
    rows.push({
      part: 'recall',
      what: `hybrid p95 while 32 remember calls are in flight, ${label}`,
      value: hb.p95,
      unit: 'ms',
      note: `p50 ${hb.p50.toFixed(1)} ms`,
      baseline: { what: 'hybrid p95 alone', value: hy.p95 },
      ratio: hb.p95 / hy.p95,
    });
    // The write path alone (SQLite: duplicate check, insert, FTS, vectors, commit), the vectors made
    // beforehand: what remember could do with an instant embedder.
    const pre = probe(nProbe);
    await cached.embed(pre.map((f) => indexText(f.entity_name, f.fact)));
    const writeOnly = await inFlight(build, pre);
    // The same with a second worker thread allowed (ai.embed_workers 2): it starts under this load.
    const two = createUseLiteEmbedder({ workers: 2 });
    let parTwo = 0;
    try {
      if (!(await two.ready)) throw new Error(`use-lite did not load: ${two.loadError}`);
      await inFlight(memoryWith(two), probe(64)); // the second worker loads
      parTwo = await inFlight(memoryWith(two), probe(nProbe));
      opts.log(
        `neural: remember 32 in flight with embed_workers 2: ${parTwo.toFixed(0)}/s ` +
          `(${two.workers} workers at the end)`,
      );
    } finally {
      await two.close();
    }
    rows.push({
      part: 'recall',
      what: `remember at ${label} (use-lite, one at a time)`,
      value: seq,
      unit: 'memories/s',
    });
    rows.push({
      part: 'recall',
      what: `remember at ${label} (use-lite, 32 in flight)`,
      value: par,
      unit: 'memories/s',
      ...(size === 50_000 && { target: '≥ 250/s', met: par >= 250 }),
    });
    rows.push({
      part: 'recall',
      what: `remember at ${label}, 32 in flight, vectors made beforehand (the write path alone)`,
      value: writeOnly,
      unit: 'memories/s',
    });
    rows.push({
      part: 'recall',
      what: `remember at ${label} (use-lite, 32 in flight, embed_workers 2)`,
      value: parTwo,
      unit: 'memories/s',
      ...(size === 50_000 && { target: '≥ 250/s', met: parTwo >= 250 }),
    });
    h.close();
    rows.push(...(await apartRows(opts)));
  } finally {
    await neural.close();
  }
  return rows;
}

/** One text at a time (p50/p95 of 40) and texts/s for 256 texts in one call (batches of 32 in the worker). */
async function embedCost(e: UseLiteEmbedder): Promise<{ single: ReturnType<typeof summarize>; perSec: number }> {
  const single: number[] = [];
  for (let i = 0; i < 40; i++) {
    const t0 = performance.now();
    await e.embed([`how warm is the bedroom at night number ${i}`]);
    single.push(since(t0));
  }
  const batch = Array.from({ length: 256 }, (_, i) => `the kitchen light number ${i} turns on at dusk`);
  const t0 = performance.now();
  await e.embed(batch);
  return { single: summarize(single), perSec: (batch.length / since(t0)) * 1000 };
}
