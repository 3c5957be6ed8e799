/**
 * HTTP `/record/bulk`: batches of 1000 readings from several keep-alive clients (in the load
 * worker) into a running hub, against a raw better-sqlite3 loop inserting the same number of rows
 * into the same table — a database opened by Hearth's own `openDatabase` (same schema, index,
 * foreign keys, WAL, synchronous=FULL) — in 1000-row transactions. The raw loop runs before and
 * after the HTTP run and the mean is the baseline, so a noisy neighbour during either shows.
 */
import { openDatabase } from '../../src/db/open.js';
import { since, tempDir, type BenchOptions, type BenchRow } from './common.js';
import { startLoad, type BenchHub } from './harness.js';

const BATCH = 1000;
const CLIENTS = 4;
const TARGET = 50_000;
const METRICS = ['temperature', 'humidity', 'power', 'illuminance'];

/** A bulk body: 1000 numeric readings over 100 series (25 entities × 4 metrics), no ts (arrival time). */
function body(seed: number): string {
  const readings = Array.from({ length: BATCH }, (_, i) => {
    const k = seed * BATCH + i;
    return {
      entity_name: `bench_http_${k % 25}`,
      metric: METRICS[Math.floor(k / 25) % 4],
      value: Math.round((15 + ((k * 7919) % 1000) / 50) * 100) / 100,
      unit: 'x',
    };
  });
  return JSON.stringify({ readings });
}

/** Rows/s of a plain prepared INSERT loop, 1000 rows per transaction, `total` rows over 100 series. */
export function rawInsertRate(total: number): number {
  const tmp = tempDir('raw-sqlite');
  const db = openDatabase({ dataDir: tmp.dir });
  try {
    const now = Date.now();
    db.prepare(
      "INSERT INTO entities (name, name_key, type, created, updated) VALUES ('raw', 'raw', 'room', 0, 0)",
    ).run();
    db.prepare("INSERT INTO sources (name) VALUES ('api')").run();
    const addSeries = db.prepare(
      "INSERT INTO series (entity_id, metric, unit, value_type, created) VALUES (1, ?, 'x', 'numeric', 0)",
    );
    const series = Array.from({ length: 100 }, (_, i) => Number(addSeries.run(`m${i}`).lastInsertRowid));
    const insert = db.prepare(
      'INSERT INTO readings (series_id, ts_ms, value_num, value_cat, value_json, source_id, parent_id) VALUES (?, ?, ?, NULL, NULL, 1, NULL)',
    );
    const batch = db.transaction((from: number) => {
      for (let k = from; k < from + BATCH; k++) insert.run(series[k % 100], now + k, 15 + ((k * 7919) % 1000) / 50);
    });
    const t0 = performance.now();
    for (let k = 0; k < total; k += BATCH) batch(k);
    return (total / since(t0)) * 1000;
  } finally {
    db.close();
    tmp.remove();
  }
}

/** Runs the HTTP bulk measurement against a started hub; returns its table row. */
export async function benchHttpBulk(h: BenchHub, opts: BenchOptions): Promise<BenchRow[]> {
  const batches = opts.quick ? 20 : 200;
  const total = batches * BATCH;
  const rawBefore = rawInsertRate(total);
  const stats = h.hub.services.timeseries.writer.stats;
  const accepted0 = stats.accepted;
  const load = await startLoad({
    kind: 'http',
    url: h.urls.http,
    clients: CLIENTS,
    batches,
    bodies: Array.from({ length: 8 }, (_, i) => body(i)),
  });
  load.go();
  const done = await load.done;
  const rawAfter = rawInsertRate(total);
  const raw = (rawBefore + rawAfter) / 2;
  const rate = (done.acked / done.ms) * 1000;
  const committed = stats.accepted - accepted0;
  opts.log(
    `ingest: HTTP /record/bulk ${CLIENTS} clients × ${BATCH}/batch: ${rate.toFixed(0)} readings/s (${done.acked} acknowledged, ${committed} committed${done.errors.length ? `; errors: ${done.errors.join('; ')}` : ''}); ` +
      `raw better-sqlite3 ${rawBefore.toFixed(0)} / ${rawAfter.toFixed(0)} rows/s (before / after)`,
  );
  return [
    {
      part: 'ingest',
      what: `HTTP /record/bulk, ${CLIENTS} keep-alive clients × ${BATCH} readings`,
      value: rate,
      unit: 'readings/s',
      baseline: { what: 'raw better-sqlite3 insert rows/s', value: raw },
      ratio: rate / raw,
      target: `≥ ${TARGET.toLocaleString('en-US')}/s`,
      met: rate >= TARGET && done.acked === total,
      ...(done.acked !== total && { note: `${total - done.acked} not acknowledged` }),
    },
  ];
}
