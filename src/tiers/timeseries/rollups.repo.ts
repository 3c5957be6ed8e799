/**
 * The rollup job's SQL (rollup.ts, rollup-week.ts; issue #36: repositories own their tables' SQL):
 * `rollup_watermarks`, the raw readings a pass reads and `reading_rollups`. Callers own transactions.
 * Row-returning scans are raw (arrays, not objects): a pass reads every new reading through them.
 */
import type { Db } from '../../db/open.js';
import type { Stats, Value } from './bag.js';
import type { BucketType } from './buckets.js';

/** A series as a rollup pass sees it; `last_id`/`last_ts` are null before its first pass. */
export interface SeriesRow {
  id: number;
  value_type: 'numeric' | 'categorical' | 'composite';
  last_id: number | null;
  last_ts: number | null;
}

/** A raw reading as a bucket writer reads it: its value column only (value_num or value_cat). */
export type Row = [id: number, tsMs: number, value: Value | null];

/** Readings of one series in [fromMs, toMs), through one value column. */
export interface RangeReads {
  /** Every row, in ts order. */
  all(seriesId: number, fromMs: number, toMs: number): Row[];
  /** The rows with oldId < id ≤ upTo. */
  fresh(seriesId: number, fromMs: number, toMs: number, oldId: number, upTo: number): Row[];
}

export function createRollupsRepo(db: Db) {
  // series and rollup_watermarks
  const seriesAll = db.prepare(
    `SELECT s.id, s.value_type, w.last_id, w.last_ts FROM series s
     LEFT JOIN rollup_watermarks w ON w.series_id = s.id ORDER BY s.id`,
  );
  const setWatermark = db.prepare(
    `INSERT INTO rollup_watermarks (series_id, last_id, last_ts) VALUES (?, ?, ?)
     ON CONFLICT (series_id) DO UPDATE SET last_id = excluded.last_id, last_ts = excluded.last_ts`,
  );

  // readings: what is new since a watermark, and a series' extent
  // Rows already rolled up (id ≤ their series' watermark) are skipped inside SQLite, not handed to JS one by
  // one: a pass with nothing new over a 20k-row range took 24 ms on one turn of the event loop, now 1.5 ms.
  const newSince = db
    .prepare(
      `SELECT r.id, r.series_id, r.ts_ms FROM readings r JOIN rollup_watermarks w ON w.series_id = r.series_id
        WHERE r.id > ? AND r.id > w.last_id ORDER BY r.id`,
    )
    .raw();
  // `+id` keeps the planner on readings_series_ts (series, ts range) instead of a rowid range scan.
  const newOfSeries = db.prepare('SELECT id, ts_ms FROM readings WHERE series_id = ? AND +id > ? ORDER BY id').raw();
  const topId = db.prepare('SELECT max(id) FROM readings').pluck();
  const tsEdge = (dir: string) =>
    db.prepare(`SELECT ts_ms FROM readings WHERE series_id = ? ORDER BY ts_ms ${dir} LIMIT 1`).pluck();
  const [firstTs, lastTs] = [tsEdge('ASC'), tsEdge('DESC')];
  const maxId = db.prepare('SELECT max(id) FROM readings WHERE series_id = ?').pluck();
  const countRows = db.prepare('SELECT count(*) FROM readings WHERE series_id = ?').pluck();
  const ranges = (col: string): RangeReads => {
    const all = db
      .prepare(`SELECT id, ts_ms, ${col} FROM readings WHERE series_id = ? AND ts_ms >= ? AND ts_ms < ? ORDER BY ts_ms`)
      .raw();
    const fresh = db
      .prepare(
        `SELECT id, ts_ms, ${col} FROM readings WHERE series_id = ? AND ts_ms >= ? AND ts_ms < ? AND +id > ? AND +id <= ?`,
      )
      .raw();
    return {
      all: (seriesId, fromMs, toMs) => all.all(seriesId, fromMs, toMs) as Row[],
      fresh: (seriesId, fromMs, toMs, oldId, upTo) => fresh.all(seriesId, fromMs, toMs, oldId, upTo) as Row[],
    };
  };

  // counters: bumped by a trigger for every deleted reading (migration 007), whichever connection deleted it.
  const deletions = db.prepare("SELECT n FROM counters WHERE name = 'readings_deleted'").pluck();

  // reading_rollups
  const stored = db.prepare(
    `SELECT count, avg_num, min_num, max_num, p10_num, p90_num, mode_cat FROM reading_rollups
     WHERE series_id = ? AND bucket_type = ? AND bucket_ts = ?`,
  );
  const upsert = db.prepare(
    `INSERT INTO reading_rollups (series_id, bucket_type, bucket_ts, count, avg_num, min_num, max_num, p10_num, p90_num, mode_cat)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (series_id, bucket_type, bucket_ts) DO UPDATE SET count = excluded.count, avg_num = excluded.avg_num,
       min_num = excluded.min_num, max_num = excluded.max_num, p10_num = excluded.p10_num, p90_num = excluded.p90_num,
       mode_cat = excluded.mode_cat`,
  );

  return {
    /** Every series with its watermark, by id. */
    series: () => seriesAll.all() as SeriesRow[],
    setWatermark: (seriesId: number, lastId: number, lastTs: number | null) => {
      setWatermark.run(seriesId, lastId, lastTs);
    },

    /**
     * Readings with id > `afterId` not yet rolled up (id > their series' watermark; a series without one
     * is not included), `[id, series_id, ts_ms]` in id order.
     */
    newSince: (afterId: number) => newSince.iterate(afterId) as IterableIterator<number[]>,
    /** One series' readings with id > `afterId`, `[id, ts_ms]` in id order. */
    newOfSeries: (seriesId: number, afterId: number) =>
      newOfSeries.iterate(seriesId, afterId) as IterableIterator<number[]>,
    /** The highest reading id (0 when there is none). */
    topId: () => (topId.get() as number | null) ?? 0,
    /** One series' highest reading id, null when it has none. */
    maxId: (seriesId: number) => maxId.get(seriesId) as number | null,
    firstTs: (seriesId: number) => firstTs.get(seriesId) as number,
    lastTs: (seriesId: number) => lastTs.get(seriesId) as number,
    count: (seriesId: number) => countRows.get(seriesId) as number,
    /** Bucket ranges through `value_num` (numeric series) and `value_cat` (categorical). */
    numeric: ranges('value_num'),
    categorical: ranges('value_cat'),
    /** Readings deleted so far, by any connection. */
    deletions: () => deletions.get() as number,

    /** The stored statistics of one bucket. */
    stored: (seriesId: number, type: BucketType, start: number) =>
      stored.get(seriesId, type, start) as Stats | undefined,
    upsert: (seriesId: number, type: BucketType, start: number, st: Stats) => {
      upsert.run(
        seriesId,
        type,
        start,
        st.count,
        st.avg_num,
        st.min_num,
        st.max_num,
        st.p10_num,
        st.p90_num,
        st.mode_cat,
      );
    },
  };
}
export type RollupsRepo = ReturnType<typeof createRollupsRepo>;
