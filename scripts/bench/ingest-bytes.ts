/**
 * On-disk bytes per raw reading: 1M numeric readings over 100 series at 1/min, written through the
 * real write path, then measured with `dbstat` (table + its index) — as ingested, and after a WAL
 * checkpoint and VACUUM (what a long-lived database converges to after maintenance). The whole
 * file (`page_count × page_size`) is reported beside it. Baseline: the same rows in a bare
 * `(series_id, ts_ms, value)` table with the same index — the floor for this row shape in SQLite.
 */
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import type { Db } from '../../src/db/open.js';
import { scratchServices } from '../lib/eval-hub.js';
import { prng, since, type BenchOptions, type BenchRow } from './common.js';
import { fillReadings } from './readings-fill.js';

const TARGET = 64;

/** Bytes of the named b-trees per dbstat, or null when SQLite was built without dbstat. */
function btreeBytes(db: Db, names: string[]): number | null {
  try {
    return db
      .prepare(`SELECT sum(pgsize) FROM dbstat WHERE name IN (${names.map(() => '?').join(',')})`)
      .pluck()
      .get(...names) as number;
  } catch {
    return null;
  }
}

const fileBytes = (db: Db) =>
  (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);

/** Runs the bytes-per-reading measurement; returns its table row. */
export async function benchBytesPerReading(opts: BenchOptions): Promise<BenchRow[]> {
  const total = opts.quick ? 100_000 : 1_000_000;
  const h = scratchServices(createLocalEmbedder());
  try {
    const t0 = performance.now();
    fillReadings(h, prng(42), total);
    const fillMs = since(t0);
    const db = h.db;
    const n = db.prepare('SELECT count(*) FROM readings').pluck().get() as number;
    db.pragma('wal_checkpoint(TRUNCATE)');
    const names = ['readings', 'readings_series_ts'];
    const ingested = btreeBytes(db, names);
    db.exec('VACUUM');
    db.pragma('wal_checkpoint(TRUNCATE)');
    const vacuumed = btreeBytes(db, names) ?? fileBytes(db);
    const file = fileBytes(db);

    // The floor: the bare row shape with the same index, same page size, packed by VACUUM too.
    db.exec(`CREATE TABLE bare (id INTEGER PRIMARY KEY, series_id INTEGER NOT NULL, ts_ms INTEGER NOT NULL, value_num REAL);
             INSERT INTO bare (id, series_id, ts_ms, value_num) SELECT id, series_id, ts_ms, value_num FROM readings;
             CREATE INDEX bare_series_ts ON bare(series_id, ts_ms);`);
    db.exec('VACUUM');
    const bare = btreeBytes(db, ['bare', 'bare_series_ts']);
    const perReading = vacuumed / n;
    opts.log(
      `ingest: ${n} readings written in ${(fillMs / 1000).toFixed(1)} s (${((n / fillMs) * 1000).toFixed(0)}/s through the repo); ` +
        `readings+index ${ingested === null ? 'n/a' : (ingested / n).toFixed(1)} B/reading as ingested, ${perReading.toFixed(1)} after VACUUM; ` +
        `whole file ${(file / n).toFixed(1)} B/reading; bare (series_id, ts_ms, value) ${bare === null ? 'n/a' : (bare / n).toFixed(1)}`,
    );
    return [
      {
        part: 'ingest',
        what: `bytes per raw reading, table + index, ${total / 1e6}M readings after VACUUM`,
        value: perReading,
        unit: 'B',
        note: `as ingested ${ingested === null ? 'n/a' : (ingested / n).toFixed(1)} B; whole file ${(file / n).toFixed(1)} B`,
        ...(bare !== null && {
          baseline: { what: 'bare (series_id, ts_ms, value) B', value: bare / n },
          ratio: perReading / (bare / n),
        }),
        target: `≤ ${TARGET} B`,
        met: perReading <= TARGET,
      },
    ];
  } finally {
    h.close();
  }
}
