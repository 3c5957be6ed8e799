/**
 * What the time-series service reads back (issue #36: repositories own their tables' SQL): a series'
 * raw points and rollup buckets for query_stream and trends, the latest reading of a series or of
 * every metric of an entity. Prepared SELECTs only; times are as each table keeps them (readings in
 * ms, rollup buckets in epoch seconds).
 */
import type { Db } from '../../db/open.js';

/** A stored reading's value columns: exactly one is set (`value_json` for a composite parent). */
export interface StoredValue {
  value_num: number | null;
  value_cat: string | null;
  value_json: string | null;
}

/** One rollup bucket as trends read it. */
export interface RollupRow {
  bucket_ts: number;
  count: number;
  avg_num: number | null;
  min_num: number | null;
  max_num: number | null;
  mode_cat: string | null;
}

export function createTimeseriesReader(db: Db) {
  // readings (with their source), newest first
  const raw = db.prepare(
    `SELECT r.ts_ms, r.value_num, r.value_cat, r.value_json, src.name AS source FROM readings r LEFT JOIN sources src ON src.id = r.source_id
      WHERE r.series_id = ? AND r.ts_ms >= ? AND r.ts_ms <= ? ORDER BY r.ts_ms DESC, r.id DESC LIMIT ?`,
  );
  const latestOf = db.prepare(
    'SELECT ts_ms, value_num, value_cat, value_json FROM readings WHERE series_id = ? ORDER BY ts_ms DESC LIMIT 1',
  );

  // series (with their entity or their latest reading)
  const named = db.prepare(
    'SELECT e.name AS entity_name, s.metric, s.unit FROM series s JOIN entities e ON e.id = s.entity_id WHERE s.id = ?',
  );
  const latestOfEntity = db.prepare(
    `SELECT s.metric, s.unit, s.value_type, r.ts_ms, r.value_num, r.value_cat, r.value_json
       FROM series s JOIN readings r ON r.id = (SELECT id FROM readings WHERE series_id = s.id ORDER BY ts_ms DESC LIMIT 1)
      WHERE s.entity_id = ? ORDER BY s.metric`,
  );

  // reading_rollups
  const buckets = db.prepare(
    `SELECT bucket_ts, count, avg_num, min_num, max_num, p10_num, p90_num, mode_cat FROM reading_rollups
      WHERE series_id = ? AND bucket_type = ? AND bucket_ts >= ? AND bucket_ts <= ? ORDER BY bucket_ts DESC LIMIT ?`,
  );
  const rollupsOf = (type: 'day' | 'hour') =>
    db.prepare(`SELECT bucket_ts, count, avg_num, min_num, max_num, mode_cat FROM reading_rollups
      WHERE series_id = ? AND bucket_type = '${type}' AND bucket_ts >= ? AND bucket_ts < ? ORDER BY bucket_ts`);
  const [daily, hourly] = [rollupsOf('day'), rollupsOf('hour')];

  return {
    /** Readings of a series with fromMs ≤ ts_ms ≤ toMs, newest first, at most `limit`. */
    raw: (seriesId: number, fromMs: number, toMs: number, limit: number) =>
      raw.all(seriesId, fromMs, toMs, limit) as (StoredValue & { ts_ms: number; source: string })[],
    /** A series' latest reading. */
    latestOf: (seriesId: number) => latestOf.get(seriesId) as (StoredValue & { ts_ms: number }) | undefined,
    /** A series' entity name, metric and unit. */
    named: (seriesId: number) =>
      named.get(seriesId) as { entity_name: string; metric: string; unit: string | null } | undefined,
    /** The latest reading of every metric of an entity, by metric. */
    latestOfEntity: (entityId: number) =>
      latestOfEntity.all(entityId) as (StoredValue & {
        metric: string;
        unit: string | null;
        value_type: string;
        ts_ms: number;
      })[],
    /** Buckets of one type starting in [from, to], newest first, at most `limit`. */
    buckets: (seriesId: number, type: string, from: number, to: number, limit: number) =>
      buckets.all(seriesId, type, from, to, limit) as Record<string, number | string | null>[],
    /** Day buckets starting in [from, to), oldest first. */
    daily: (seriesId: number, from: number, to: number) => daily.all(seriesId, from, to) as RollupRow[],
    /** Hour buckets starting in [from, to), oldest first. */
    hourly: (seriesId: number, from: number, to: number) => hourly.all(seriesId, from, to) as RollupRow[],
  };
}
export type TimeseriesReader = ReturnType<typeof createTimeseriesReader>;
