/**
 * Shared pieces of `npm run bench`: the result row every part returns, timing helpers, a seeded
 * PRNG, temp directories and the markdown table. Every part measures a baseline in the same run,
 * because the machines this runs on are shared and noisy: a ratio survives noise, a bare number not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile } from '../lib/eval-hub.js';

/** Nearest-rank percentile, shared with the eval scripts. */
export { percentile };

/** One line of the final table. `ratio` = value ÷ baseline (or as the part explains in `note`). */
export interface BenchRow {
  part: 'recall' | 'ingest' | 'rollup' | 'scale' | 'patterns' | 'pi';
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
export async function waitForCount(count: () => number, total: number, senderDone: Promise<unknown>, stallMs = 3000): Promise<void> {
  let finished = false;
  void senderDone.then(() => (finished = true), () => (finished = true));
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
  const out = ['| part | measurement | value | baseline (same run) | ratio | target | met |', '|---|---|---|---|---|---|---|'];
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
