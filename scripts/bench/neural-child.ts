/**
 * Part `neural` (neural.ts): the measurements that run in a fresh Node process, so that the bench's
 * own heap (the 50k store's cached vectors) and caches do not count.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tempDir, type BenchOptions, type BenchRow } from './common.js';

/**
 * ingestBesideRemember in a fresh process, as a hub runs: in this one the 50k store's cached vectors
 * (≈ 100 MB of JS heap) make every garbage collection longer, and that alone moved the ratio by
 * 0.2–0.3 (a standalone A/B with and without such a heap: 0.81 / 0.96 against 1.13 / 1.17).
 */
export async function ingestBesideRememberApart(opts: BenchOptions): Promise<BenchRow[]> {
  const here = new URL('.', import.meta.url).pathname;
  const script = `
    const { createUseLiteEmbedder } = await import('${here}../../src/ai/use-lite.js');
    const { ingestBesideRemember } = await import('${here}neural-ingest.js');
    const neural = createUseLiteEmbedder();
    if (!(await neural.ready)) throw new Error('use-lite did not load: ' + neural.loadError);
    const rows = await ingestBesideRemember(neural, { quick: ${opts.quick}, fresh: false, log: (m) => console.error(m) });
    console.log(JSON.stringify(rows));
    await neural.close();`;
  const { stdout, stderr } = await runModule(script);
  for (const line of stderr.trim().split('\n')) if (line) opts.log(line);
  return JSON.parse(lastLine(stdout)) as BenchRow[];
}

/**
 * Runs an ES module's source in a fresh Node process and returns its output. From a file, not `-e`:
 * a worker thread started from a file (the load generator) inherits `--input-type` and refuses it.
 */
async function runModule(script: string): Promise<{ stdout: string; stderr: string }> {
  const tmp = tempDir('neural-child');
  try {
    const file = join(tmp.dir, 'script.mjs');
    writeFileSync(file, script);
    return await promisify(execFile)(process.execPath, [file], { encoding: 'utf8', maxBuffer: 1 << 20 });
  } finally {
    tmp.remove();
  }
}
const lastLine = (out: string) => out.trim().split('\n').pop()!;

/**
 * RSS of a fresh process (the bench's own caches must not count) running a store through `n`
 * remember calls and 200 recalls, with the local embedder or use-lite loaded.
 */
export async function storeRss(
  n: number,
  provider: 'local' | 'use-lite',
  load: { workers?: number; inFlight?: number } = {},
): Promise<{ n: number; rss: number }> {
  const here = new URL('.', import.meta.url).pathname;
  const make =
    provider === 'local' ? 'createLocalEmbedder()' : `createUseLiteEmbedder({ workers: ${load.workers ?? 1} })`;
  const script = `
    const { createLocalEmbedder } = await import('${here}../../src/ai/local-embedder.js');
    const { createUseLiteEmbedder } = await import('${here}../../src/ai/use-lite.js');
    const embedder = ${make};
    const { scratchServices } = await import('${here}../lib/eval-hub.js');
    const { RememberInput, RecallInput } = await import('${here}../../src/tiers/memory/memory.schemas.js');
    const { prng } = await import('${here}common.js');
    const { entities, nextFact, queries } = await import('${here}household.js');
    const h = scratchServices(embedder);
    const rng = prng(5), ents = entities(prng(6));
    let left = ${n};
    const caller = async () => { while (left-- > 0) { h.clock.advance(60); await h.services.memory.remember(RememberInput.parse(nextFact(rng, ents))); } };
    await Promise.all(Array.from({ length: ${load.inFlight ?? 1} }, caller));
    for (const q of queries(prng(7), ents, 200)) { const { kind, ...x } = q; await h.services.memory.recall(RecallInput.parse(x)); }
    // A hub whose model did not load would measure small and say nothing (it did, before 2026-12-01).
    if (h.services.memory.pendingCount()) throw new Error('memories left unembedded: ' + (embedder.loadError ?? 'the embedder failed'));
    console.log(process.memoryUsage().rss);
    h.close();
    await embedder.close?.();`;
  const { stdout } = await runModule(script);
  return { n, rss: Number(lastLine(stdout)) / 2 ** 20 };
}

/** The part's rows measured in fresh processes: MQTT ingest beside remember, then the hub's RSS. */
export async function apartRows(opts: BenchOptions): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  rows.push(...(await ingestBesideRememberApart(opts)));
  const n = opts.quick ? 1000 : 5000;
  const withModel = await storeRss(n, 'use-lite');
  rows.push({
    part: 'recall',
    what: `RSS, use-lite hub after ${n} remember + 200 recalls (own process, model loaded)`,
    value: withModel.rss,
    unit: 'MB',
    target: '< 300 MB',
    met: withModel.rss < 300,
  });
  const loaded = await storeRss(n, 'use-lite', { inFlight: 32 });
  rows.push({
    part: 'recall',
    what: `RSS, the same with 32 remember in flight (batches of up to 32)`,
    value: loaded.rss,
    unit: 'MB',
    target: '< 300 MB',
    met: loaded.rss < 300,
  });
  const twoWorkers = await storeRss(n, 'use-lite', { workers: 2, inFlight: 32 });
  rows.push({
    part: 'recall',
    what: `RSS, the same with embed_workers 2 (both threads loaded)`,
    value: twoWorkers.rss,
    unit: 'MB',
    note: "the option's cost",
  });
  const local = await storeRss(opts.quick ? 3000 : 10_000, 'local');
  rows.push({
    part: 'recall',
    what: `RSS, hashing-only hub after ${local.n} remember + 200 recalls (own process)`,
    value: local.rss,
    unit: 'MB',
    target: '< 180 MB',
    met: local.rss < 180,
  });
  return rows;
}
