/**
 * The detector thread (issue #36 "a work lane for heavy jobs"): runs detectors over its own read-only
 * connection, so a pattern run (correlation is O(series² × days)) never holds the event loop that
 * answers requests. The engine sends `{id, now, jobs: [{name, opts}]}` (options already validated);
 * the thread answers `{id, results: [{name, findings} | {name, error}]}`. Detectors read only: the
 * connection is opened read-only, so one that tried to write would fail here, not corrupt anything.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { BUILTIN_DETECTORS } from '../../detectors/index.js';
import { createPatternContext } from '../patterns/context.js';
import type { Detector } from '../patterns/detector.js';
import { loadDetectorDir } from '../patterns/load.js';
import { createPatternReads } from '../tiers/patterns/patterns.repo.js';

export interface DetectorJob {
  name: string;
  opts: Record<string, unknown>;
}
export type DetectorResult = { name: string; findings: unknown[] } | { name: string; error: string };

const { dbPath, timeZone, detectorsDir } = workerData as { dbPath: string; timeZone: string; detectorsDir: string };
const port = parentPort!;
// This thread alone runs at nice +10 (Linux: setpriority on a thread id moves that thread only, as the
// encoder's threads do): when both want the CPU, the event loop answering requests wins.
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop()) || 0;
  if (tid) setPriority(tid, Math.min(19, getPriority(tid) + 10));
} catch {} // not Linux, or not allowed: the thread runs at the hub's priority
const log = (msg: string) => port.postMessage({ log: msg });
const db = new Database(dbPath, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const byName = new Map<string, Detector>(BUILTIN_DETECTORS.map((d) => [d.name, d]));
if (detectorsDir) for (const d of await loadDetectorDir(detectorsDir, BUILTIN_DETECTORS, log)) byName.set(d.name, d);
const reads = createPatternReads(db);

port.on('message', async (msg: { id: number; now: number; jobs: DetectorJob[] }) => {
  const ctx = createPatternContext(reads, timeZone, msg.now);
  const results: DetectorResult[] = [];
  for (const { name, opts } of msg.jobs) {
    const d = byName.get(name);
    try {
      if (!d) throw new Error('not loaded in the detector thread');
      results.push({ name, findings: await d.detect(ctx, opts) });
    } catch (e) {
      results.push({ name, error: (e as Error).message });
    }
  }
  port.postMessage({ id: msg.id, results });
});
