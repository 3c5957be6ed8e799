/**
 * Bounded reads of one series for answers about a time (the ask tier, SPEC §5 Ask): every statement
 * is an index seek on `readings_series_ts` or the rollups' primary key, limited by a window or a
 * LIMIT — never a scan of a series' whole history. Times in and out are epoch seconds.
 */
import type { Db } from '../../db/open.js';
import type { ValueType } from './readings.repo.js';

/** One reading as an answer reads it: the time and the scalar value (a composite parent's JSON text). */
export interface Point {
  ts: number;
  value: number | string;
}

/** A series with its entity, for the ask tier's index of what can be asked about. */
export interface SeriesRow {
  id: number;
  entity_id: number;
  entity_name: string;
  entity_type: string;
  metric: string;
  unit: string | null;
  value_type: ValueType;
}

export interface RollupRow {
  /** Bucket start, epoch seconds (day/week buckets start at local midnight in the hub's zone). */
  bucket_ts: number;
  count: number;
  avg: number | null;
  min: number | null;
  max: number | null;
  mode: string | null;
}

type Raw = { ts_ms: number; value_num: number | null; value_cat: string | null; value_json: string | null };
const point = (r: Raw): Point => ({ ts: r.ts_ms / 1000, value: r.value_num ?? r.value_cat ?? r.value_json ?? '' });
const ms = (s: number) => Math.round(s * 1000);

export function createWindowReads(db: Db) {
  const cols = 'ts_ms, value_num, value_cat, value_json';
  const all = db.prepare(
    `SELECT s.id, s.entity_id, e.name AS entity_name, e.type AS entity_type, s.metric, s.unit, s.value_type
       FROM series s JOIN entities e ON e.id = s.entity_id ORDER BY s.id`,
  );
  const aliases = db.prepare('SELECT entity_id, alias FROM entity_aliases ORDER BY created, name_key');
  const signature = db.prepare('SELECT count(*) AS n, coalesce(max(id), 0) AS top FROM series');
  const first = db.prepare(`SELECT ${cols} FROM readings WHERE series_id = ? ORDER BY ts_ms ASC LIMIT 1`);
  const last = db.prepare(`SELECT ${cols} FROM readings WHERE series_id = ? ORDER BY ts_ms DESC LIMIT 1`);
  const atOrBefore = db.prepare(
    `SELECT ${cols} FROM readings WHERE series_id = ? AND ts_ms <= ? ORDER BY ts_ms DESC, id DESC LIMIT 1`,
  );
  const between = db.prepare(
    `SELECT ${cols} FROM readings WHERE series_id = ? AND ts_ms > ? AND ts_ms <= ? ORDER BY ts_ms, id LIMIT ?`,
  );
  const backward = db.prepare(
    `SELECT ${cols} FROM readings WHERE series_id = ? AND ts_ms < ? ORDER BY ts_ms DESC, id DESC LIMIT ?`,
  );
  const buckets = db.prepare(
    `SELECT bucket_ts, count, avg_num AS avg, min_num AS min, max_num AS max, mode_cat AS mode FROM reading_rollups
      WHERE series_id = ? AND bucket_type = ? AND bucket_ts >= ? AND bucket_ts < ? ORDER BY bucket_ts LIMIT ?`,
  );
  const lastAbove = db
    .prepare(
      `SELECT bucket_ts FROM reading_rollups WHERE series_id = ? AND bucket_type = 'hour' AND bucket_ts < ? AND max_num > ?
      ORDER BY bucket_ts DESC LIMIT 1`,
    )
    .pluck();
  const firstAbove = db
    .prepare(
      `SELECT bucket_ts FROM reading_rollups WHERE series_id = ? AND bucket_type = 'hour' AND bucket_ts >= ? AND bucket_ts < ? AND max_num > ?
      ORDER BY bucket_ts ASC LIMIT 1`,
    )
    .pluck();

  // A categorical side: whether lower(value_cat) is one of @values equals @inside (1: is one, 0: is not).
  const side = 'AND (lower(value_cat) IN (SELECT value FROM json_each(@values))) = @inside';
  const lastOfSide = db.prepare(
    `SELECT ${cols} FROM readings WHERE series_id = @id AND ts_ms < @before AND ts_ms >= @floor ${side}
      ORDER BY ts_ms DESC, id DESC LIMIT 1`,
  );
  const firstOfSide = db.prepare(
    `SELECT ${cols} FROM readings WHERE series_id = @id AND ts_ms > @after AND ts_ms <= @before ${side}
      ORDER BY ts_ms, id LIMIT 1`,
  );
  const sideArgs = (values: string[], inside: boolean) => ({ values: JSON.stringify(values), inside: inside ? 1 : 0 });

  return {
    /**
     * The latest categorical reading in [floor, before) whose lower-cased value is (`inside`) or is not
     * one of `values` — an index walk back over at most that time range.
     */
    lastOfSide: (seriesId: number, before: number, floor: number, values: string[], inside: boolean) => {
      const r = lastOfSide.get({ id: seriesId, before: ms(before), floor: ms(floor), ...sideArgs(values, inside) }) as
        | Raw
        | undefined;
      return r && point(r);
    },
    /** The first categorical reading in (after, before] on that side. */
    firstOfSide: (seriesId: number, after: number, before: number, values: string[], inside: boolean) => {
      const r = firstOfSide.get({ id: seriesId, after: ms(after), before: ms(before), ...sideArgs(values, inside) }) as
        | Raw
        | undefined;
      return r && point(r);
    },
    /** Every series with its entity (one row per series; a household holds hundreds, not millions). */
    series: () => all.all() as SeriesRow[],
    /** Every alias by entity id. */
    aliases: () => aliases.all() as { entity_id: number; alias: string }[],
    /** Changes when a series is added or removed: the ask tier's index compares it before answering. */
    signature: () => {
      const r = signature.get() as { n: number; top: number };
      return `${r.n}:${r.top}`;
    },
    first: (seriesId: number) => {
      const r = first.get(seriesId) as Raw | undefined;
      return r && point(r);
    },
    last: (seriesId: number) => {
      const r = last.get(seriesId) as Raw | undefined;
      return r && point(r);
    },
    /** The latest reading at or before `ts`. */
    atOrBefore: (seriesId: number, ts: number) => {
      const r = atOrBefore.get(seriesId, ms(ts)) as Raw | undefined;
      return r && point(r);
    },
    /** Readings in (from, to], oldest first, at most `limit`. */
    between: (seriesId: number, from: number, to: number, limit: number) =>
      (between.all(seriesId, ms(from), ms(to), limit) as Raw[]).map(point),
    /** Up to `limit` readings before `ts`, newest first (a bounded step back through history). */
    before: (seriesId: number, ts: number, limit: number) =>
      (backward.all(seriesId, ms(ts), limit) as Raw[]).map(point),
    /** Rollup buckets starting in [from, to), oldest first, at most `limit`. */
    buckets: (seriesId: number, type: 'hour' | 'day', from: number, to: number, limit = 10_000) =>
      buckets.all(seriesId, type, from, to, limit) as RollupRow[],
    /** Start of the latest hour bucket before `ts` whose maximum is above `threshold`. */
    lastHourAbove: (seriesId: number, ts: number, threshold: number) =>
      lastAbove.get(seriesId, ts, threshold) as number | undefined,
    /** Start of the first hour bucket in [from, to) whose maximum is above `threshold`. */
    firstHourAbove: (seriesId: number, from: number, to: number, threshold: number) =>
      firstAbove.get(seriesId, from, to, threshold) as number | undefined,
  };
}
export type WindowReads = ReturnType<typeof createWindowReads>;
