/**
 * Part 1 — recall latency. One store grows 1k → 10k → 50k memories through `memory.remember` (the
 * real write path: embedding, duplicate check, FTS and vec0 rows, audit), and at each size ~300
 * questions run in each mode. Baseline: a raw sqlite-vec KNN over the same `memory_vectors` table,
 * so the ratio is Hearth's overhead over sqlite-vec itself. Queries round-robin over baseline and
 * modes so a noisy neighbour slows all of them alike.
 */
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import { RecallInput, type RecallMode } from '../../src/tiers/memory/memory.schemas.js';
import { exactKnn, prng, since, summarize, type BenchOptions, type BenchRow } from './common.js';
import { queries } from './household.js';
import { profileRecall, type StageTimes } from './recall-profile.js';
import { openGrowingStore, type GrowingStore } from './recall-store.js';

const MODES: RecallMode[] = ['vector', 'keyword', 'hybrid'];
const TARGET_MS = 30;

/** Recall results per store size, for the report and the profile. */
export interface RecallSizeResult {
  size: number;
  baseline: ReturnType<typeof summarize>;
  modes: Record<RecallMode, ReturnType<typeof summarize>>;
  answered: Record<RecallMode, number>;
  unsure: Record<RecallMode, number>;
  /** This process's resident memory after the size's questions (the store, the embedder, the code scan). */
  rssMb: number;
}

/** Runs part 1 and returns its table rows (and prints the stage profile of the largest store). */
export async function benchRecall(opts: BenchOptions): Promise<BenchRow[]> {
  const sizes = opts.quick ? [500, 3000] : [1000, 10_000, 50_000];
  const nQueries = opts.quick ? 60 : 300;
  const nProbe = opts.quick ? 100 : 300;
  const embedder = createLocalEmbedder();
  // --quick always builds (its sizes take seconds): the smoke check exercises the real build path.
  const store = await openGrowingStore(embedder, { cache: !opts.quick && !opts.fresh, log: opts.log });
  const rows: BenchRow[] = [];
  opts.log(`recall: embedder ${embedder.fingerprint}, ${store.entities.length} entities, data in ${store.dir}`);
  let stages: StageTimes | undefined;
  try {
    for (const size of sizes) {
      const g = await store.growTo(size);
      const how = g.cached
        ? `snapshot built ${g.built.slice(0, 10)} in ${(g.ms / 1000).toFixed(0)} s`
        : `built now in ${(g.ms / 1000).toFixed(1)} s`;
      opts.log(
        `recall: store ${fmtK(g.from)}→${fmtK(size)} ${how}: ${g.rate.toFixed(0)} memories/s (${g.reinforced} of ${g.attempts} remember calls so far reinforced a restatement)`,
      );
      if (!g.cached)
        rows.push({
          part: 'recall',
          what: `remember throughput building ${fmtK(g.from)}→${fmtK(size)}`,
          value: g.rate,
          unit: 'memories/s',
          note: `${(g.ms / 1000).toFixed(1)} s`,
        });

      const res = await measure(store, size, nQueries);
      rows.push({
        part: 'recall',
        what: `raw float vec0 KNN k=10 p95 (exact), ${fmtK(size)}`,
        value: res.baseline.p95,
        unit: 'ms',
        note: `p50 ${res.baseline.p50.toFixed(2)} ms`,
      });
      for (const mode of MODES) {
        const m = res.modes[mode];
        const isTarget = mode === 'hybrid' && size === 50_000;
        rows.push({
          part: 'recall',
          what: `${mode} p95, ${fmtK(size)}`,
          value: m.p95,
          unit: 'ms',
          note: `p50 ${m.p50.toFixed(2)} ms; ${res.answered[mode]}/${m.n} answered, ${res.unsure[mode]} more with possibles only; with possible and the query's embedding`,
          baseline: { what: 'raw KNN p95', value: res.baseline.p95 },
          ratio: m.p95 / res.baseline.p95,
          ...(isTarget && { target: `< ${TARGET_MS} ms`, met: m.p95 < TARGET_MS }),
        });
        opts.log(
          `recall: ${fmtK(size)} ${mode.padEnd(7)} p50 ${m.p50.toFixed(2)} ms  p95 ${m.p95.toFixed(2)} ms  (raw KNN p95 ${res.baseline.p95.toFixed(2)} ms)`,
        );
      }
      rows.push({
        part: 'recall',
        what: `bench process RSS after recall, ${fmtK(size)}`,
        value: res.rssMb,
        unit: 'MB',
        note: 'hub services in-process: SQLite, vectors, embedder',
      });
      opts.log(`recall: ${fmtK(size)} RSS ${res.rssMb.toFixed(0)} MB`);
      if (size === sizes[sizes.length - 1])
        stages = await profileRecall(store, queries(prng(7), store.entities, Math.min(nQueries, 150)));
      // Marginal cost of a write at this size (measured every run, cached store or not).
      const p = await store.probe(nProbe);
      opts.log(
        `recall: remember at ${fmtK(size)}: ${p.rate.toFixed(0)}/s (${nProbe} calls, ${(p.ms / nProbe).toFixed(2)} ms each)`,
      );
      rows.push({
        part: 'recall',
        what: `remember throughput at ${fmtK(size)}`,
        value: p.rate,
        unit: 'memories/s',
        note: `${(p.ms / nProbe).toFixed(1)} ms per call, ${nProbe} calls`,
      });
    }
    if (stages)
      opts.log(`recall: where hybrid time goes at ${fmtK(sizes[sizes.length - 1])} (ms per query):\n${stages.report}`);
  } finally {
    store.close();
  }
  return rows;
}

const fmtK = (n: number) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : n.toLocaleString('en-US'));

/** Times `n` questions per mode plus the raw KNN baseline, round-robin, after a short warm-up. */
async function measure(store: GrowingStore, size: number, n: number): Promise<RecallSizeResult> {
  // Seeded per size: the same questions whether the store was built now or restored.
  const qs = queries(prng(size), store.entities, n);
  // vec0 wants the query vector as a blob; k = 10 is a typical answer's size.
  const knn = exactKnn(store.db);
  const memory = store.services.memory;
  const vectors = await store.services.embedder.embed(qs.map((q) => q.query));
  const lat: Record<RecallMode | 'raw', number[]> = { raw: [], vector: [], keyword: [], hybrid: [] };
  const answered: Record<RecallMode, number> = { vector: 0, keyword: 0, hybrid: 0 };
  // Questions with no confident answer but possibles (recall's second tier, on by default: timed with it).
  const unsure: Record<RecallMode, number> = { vector: 0, keyword: 0, hybrid: 0 };
  // Warm-up: JIT, statement caches and the page cache, so the first timed queries are not outliers.
  // (The question's `kind` is the bench's label, not a recall field: recall refuses unknown fields.)
  for (const { kind: _k, ...q } of qs.slice(0, 10))
    for (const mode of MODES) await memory.recall(RecallInput.parse({ ...q, mode }));
  for (let i = 0; i < qs.length; i++) {
    const { kind: _kind, ...q } = qs[i];
    let t0 = performance.now();
    knn(vectors[i], 10);
    lat.raw.push(since(t0));
    for (const mode of MODES) {
      const input = RecallInput.parse({ ...q, mode });
      t0 = performance.now();
      const out = await memory.recall(input);
      lat[mode].push(since(t0));
      if (out.results.length) answered[mode]++;
      else if (out.possible.length) unsure[mode]++;
    }
  }
  return {
    size,
    baseline: summarize(lat.raw),
    modes: { vector: summarize(lat.vector), keyword: summarize(lat.keyword), hybrid: summarize(lat.hybrid) },
    answered,
    unsure,
    rssMb: process.memoryUsage().rss / 2 ** 20,
  };
}
