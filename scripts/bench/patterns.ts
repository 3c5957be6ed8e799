/**
 * One pattern-engine run over 50 entities × 10 metrics (8 numeric, 2 categorical) × 30 days of
 * readings every 15 minutes (1.44 M readings, rolled up), as a row of `npm run bench` and of the
 * `--pi` profile. Baseline: a plain scan of the same readings table (count + sum), the least any
 * pass over the data could cost. Also used by `npm run eval:patterns -- --perf`.
 */
import type { Db } from '../../src/db/open.js';
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import { createRollups } from '../../src/tiers/timeseries/rollup.js';
import { BUILTIN_DETECTORS } from '../../detectors/index.js';
import { parseConfig } from '../../src/config/load.js';
import { openDatabase } from '../../src/db/open.js';
import { manualClock } from '../../src/lib/clock.js';
import { createServices } from '../../src/services.js';
import { since, tempDir, type BenchOptions, type BenchRow } from './common.js';

/** Inserts the fixture ending at `nowSec` (SQL, one transaction) and rolls it up; returns the reading count. */
export function fillPatternFixture(db: Db, nowSec: number, timeZone: string, days = 30, entities = 50): number {
  const start = nowSec - days * 86_400;
  let rnd = 42;
  const r = () => (rnd = (rnd * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const ent = db.prepare(
    "INSERT INTO entities (name, name_key, type, meta, created, updated) VALUES (?, ?, 'room', '{}', 0, 0) RETURNING id",
  );
  const ser = db.prepare(
    "INSERT INTO series (entity_id, metric, unit, value_type, created) VALUES (?, ?, 'u', ?, 0) RETURNING id",
  );
  const ins = db.prepare('INSERT INTO readings (series_id, ts_ms, value_num, value_cat) VALUES (?, ?, ?, ?)');
  let n = 0;
  db.transaction(() => {
    for (let e = 0; e < entities; e++) {
      const eid = (ent.get(`room_${e}`, `room_${e}`) as { id: number }).id;
      for (let m = 0; m < 10; m++) {
        const cat = m >= 8;
        const sid = (ser.get(eid, `metric_${m}`, cat ? 'categorical' : 'numeric') as { id: number }).id;
        let walk = 20;
        for (let ts = start; ts < nowSec; ts += 900) {
          walk += r() - 0.5;
          const v = cat ? (r() < 0.5 ? 'on' : 'off') : m % 2 ? walk : 20 + 3 * Math.sin(ts / 13_751) + r();
          ins.run(sid, Math.round(ts * 1000), cat ? null : v, cat ? v : null);
          n++;
        }
      }
    }
  })();
  createRollups(db, { timeZone }).run();
  return n;
}

/** ms of a plain scan of every reading (the baseline). */
export function scanMs(db: Db): number {
  const t0 = performance.now();
  db.prepare('SELECT count(*) AS n, sum(value_num) AS s FROM readings').get();
  return since(t0);
}

/** The normal bench's row: the engine in-process (services.patterns.run, promoting what it finds). */
export async function benchPatterns(opts: BenchOptions): Promise<BenchRow[]> {
  const tmp = tempDir('patterns');
  const config = parseConfig({ data_dir: tmp.dir, mqtt: { mode: 'off' }, timeseries: { timezone: 'UTC' } });
  const db = openDatabase({ dataDir: tmp.dir });
  const clock = manualClock();
  // As the hub builds it (src/main.ts): the built-in detectors, loaded with their default options.
  const services = createServices({
    db,
    clock,
    config,
    embedder: createLocalEmbedder(),
    llm: null,
    detectors: BUILTIN_DETECTORS,
    log: opts.log,
  });
  await services.patterns.load();
  const h = { db, clock, services };
  try {
    const t0 = performance.now();
    const n = fillPatternFixture(h.db, h.clock.now(), 'UTC', opts.quick ? 7 : 30);
    opts.log(`patterns: ${n} readings in 500 series loaded and rolled up in ${(since(t0) / 1000).toFixed(1)} s`);
    const scan = scanMs(h.db);
    const t1 = performance.now();
    const report = await h.services.patterns.run({ dry_run: false });
    const ms = since(t1);
    opts.log(
      `patterns: one engine run ${ms.toFixed(0)} ms, ${report.found.length} findings, ${report.promoted.length} promoted; scan of ${n} readings ${scan.toFixed(0)} ms`,
    );
    return [
      {
        part: 'patterns',
        what: `one pattern-engine run, 50 entities × 10 metrics × ${opts.quick ? 7 : 30} days (${(n / 1e6).toFixed(2)} M readings; ${report.found.length} findings)`,
        value: ms,
        unit: 'ms',
        baseline: { what: 'scan of the same readings, ms', value: scan },
        ratio: ms / scan,
      },
    ];
  } finally {
    await services.patterns.close(); // the detector lane's worker thread, else the bench never exits
    db.close();
    tmp.remove();
  }
}
