/**
 * Shared pieces of `npm run bench`: the result row every part returns, timing helpers, a seeded
 * PRNG, temp directories and the markdown table. Every part measures a baseline in the same run,
 * because the machines this runs on are shared and noisy: a ratio survives noise, a bare number not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile } from '../lib/eval-hub.js';
import type { Db } from '../../src/db/open.js';
import { floatTable, vectorTables } from '../../src/db/vectors.js';

/** Nearest-rank percentile, shared with the eval scripts. */
export { percentile };

/** One line of the final table. `ratio` = value ÷ baseline (or as the part explains in `note`). */
export interface BenchRow {
  part: 'recall' | 'ingest' | 'rollup' | 'scale' | 'patterns' | 'pi' | 'doors' | 'ask' | 'stopwatch';
  what: string;
  value: number;
  unit: string;
  baseline?: { what: string; value: number };
  ratio?: number;
  /** e.g. "< 30 ms"; `met` is decided by the part against its own comparison. */
  target?: string;
  met?: boolean;
  note?: string;
}

/** Options every part receives from the command line. */
export interface BenchOptions {
  quick: boolean;
  /** Rebuild cached data (the recall stores) instead of reusing it. */
  fresh: boolean;
  log: (msg: string) => void;
}

/** Milliseconds since `t0` (a `performance.now()` value). */
export const since = (t0: number) => performance.now() - t0;

/** p50 / p95 (nearest rank) and mean of a latency sample in ms. */
export function summarize(sample: number[]): { p50: number; p95: number; mean: number; n: number } {
  const mean = sample.reduce((a, b) => a + b, 0) / Math.max(1, sample.length);
  return { p50: percentile(sample, 50), p95: percentile(sample, 95), mean, n: sample.length };
}

/** The seeded PRNG every benchmark uses (scripts/lib/prng.ts). */
export { prng, type Prng } from '../lib/prng.js';

/** A fresh temp directory and its remover (best effort: a failed bench must not leave gigabytes behind). */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `hearth-bench-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Resolves after `ms`; used by pollers. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Waits until `count()` reaches `total`, or until the sender has finished (`senderDone`) and the count
 * has not moved for `stallMs` — so a lost message ends the wait instead of hanging the bench.
 */
export async function waitForCount(
  count: () => number,
  total: number,
  senderDone: Promise<unknown>,
  stallMs = 3000,
): Promise<void> {
  let finished = false;
  void senderDone.then(
    () => (finished = true),
    () => (finished = true),
  );
  let last = -1;
  let lastChange = performance.now();
  while (count() < total) {
    const c = count();
    if (c !== last) [last, lastChange] = [c, performance.now()];
    else if (finished && since(lastChange) > stallMs) return;
    await sleep(5);
  }
}

/** Formats a number for the table: 3 significant figures, thousands separated. */
export function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const abs = Math.abs(x);
  if (abs >= 1000) return Math.round(x).toLocaleString('en-US');
  if (abs >= 100) return x.toFixed(0);
  if (abs >= 10) return x.toFixed(1);
  if (abs >= 1) return x.toFixed(2);
  return x.toPrecision(2);
}

/** The markdown table printed at the end (and pasted into README.md). */
export function markdownTable(rows: BenchRow[]): string {
  const out = [
    '| part | measurement | value | baseline (same run) | ratio | target | met |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const base = r.baseline ? `${r.baseline.what}: ${fmt(r.baseline.value)}` : '—';
    const ratio = r.ratio === undefined ? '—' : `${r.ratio.toFixed(2)}×`;
    const met = r.met === undefined ? '' : r.met ? 'yes' : '**no**';
    const what = r.note ? `${r.what} (${r.note})` : r.what;
    out.push(`| ${r.part} | ${what} | ${fmt(r.value)} ${r.unit} | ${base} | ${ratio} | ${r.target ?? ''} | ${met} |`);
  }
  return out.join('\n');
}

/** A free loopback TCP port (for child processes that must be told their ports). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * The baseline every recall row is compared with: a raw sqlite-vec float KNN (exact, `float[dim]`,
 * cosine) over the same vectors as the hub's index. The hub searches binary codes and re-ranks
 * exactly (src/db/vectors.ts), so the bench builds this float table once from the index's float side
 * table and returns `knn(vector, k)` → memory ids, nearest first.
 */
export function exactKnn(db: Db): (vector: Float32Array, k: number) => { memory_id: number; distance: number }[] {
  const [live] = vectorTables(db);
  const dim = (db.prepare('SELECT dim FROM embed_meta WHERE id = 1').get() as { dim: number }).dim;
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS bench_exact_knn USING vec0(memory_id INTEGER PRIMARY KEY, embedding float[${dim}] distance_metric=cosine)`,
  );
  const have = (db.prepare('SELECT count(*) AS n FROM bench_exact_knn').get() as { n: number }).n;
  const want = (db.prepare(`SELECT count(*) AS n FROM ${floatTable(live)}`).get() as { n: number }).n;
  if (have !== want) {
    db.exec('DELETE FROM bench_exact_knn');
    const rows = db.prepare(`SELECT memory_id, embedding FROM ${floatTable(live)}`).all() as {
      memory_id: number;
      embedding: Buffer;
    }[];
    const ins = db.prepare('INSERT INTO bench_exact_knn (memory_id, embedding) VALUES (?, ?)');
    db.transaction(() => rows.forEach((r) => ins.run(BigInt(r.memory_id), r.embedding)))();
  }
  const stmt = db.prepare('SELECT memory_id, distance FROM bench_exact_knn WHERE embedding MATCH ? AND k = ?');
  return (vector, k) =>
    (stmt.all(vector, BigInt(k)) as { memory_id: number | bigint; distance: number }[]).map((r) => ({
      memory_id: Number(r.memory_id),
      distance: r.distance,
    }));
}

/**
 * Agreement of the index's KNN with the exact one, tie-aware: the share of the exact top-k
 * similarities (as a multiset, to 1e-6) that the index's top-k also has.
 */
export function knnAgreement(exact: { distance: number }[], got: { similarity: number }[]): number {
  const want = exact.map((r) => Math.round((1 - r.distance) * 1e6));
  const have = new Map<number, number>();
  for (const h of got) {
    const s = Math.round(h.similarity * 1e6);
    have.set(s, (have.get(s) ?? 0) + 1);
  }
  let hit = 0;
  for (const s of want) {
    const n = have.get(s) ?? 0;
    if (n > 0) hit++, have.set(s, n - 1);
  }
  return want.length ? hit / want.length : 1;
}
