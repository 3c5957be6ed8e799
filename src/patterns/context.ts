/** Builds the read-only PatternContext over the database (prepared SELECTs only). */
import type { Db } from '../db/open.js';
import { wallTime } from '../lib/tz.js';
import type { LocalTime, PatternContext, RawPoint, RollupPoint, SeriesInfo } from './detector.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** Metric names are snake_case or dotted ("mood.mood", "energy.power"): make them read as words. */
export function metricWords(metric: string): string {
  const parts = metric.split('.');
  // A composite part repeating its parent ("mood.mood") reads as the parent.
  const words = parts.filter((p, i) => i === 0 || p !== parts[i - 1]);
  return words.join(' ').replace(/_/g, ' ').trim();
}

export function formatValue(value: number, unit: string | null): string {
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 0 : abs >= 1 ? 1 : 2;
  const text = Number(value.toFixed(digits)).toString();
  if (!unit) return text;
  return /^[°%]/.test(unit) ? `${text}${unit}` : `${text} ${unit}`;
}

export function createPatternContext(db: Db, timeZone: string, now: number): PatternContext {
  const seriesStmt = db.prepare(
    `SELECT s.id, e.name AS entity, e.type AS entity_type, s.metric, s.unit, s.value_type
       FROM series s JOIN entities e ON e.id = s.entity_id WHERE s.value_type != 'composite' ORDER BY s.id`,
  );
  const rollupStmt = db.prepare(
    `SELECT bucket_ts, count, avg_num AS avg, min_num AS min, max_num AS max, p10_num AS p10, p90_num AS p90, mode_cat AS mode
       FROM reading_rollups WHERE series_id = ? AND bucket_type = ? AND bucket_ts >= ? AND bucket_ts < ? ORDER BY bucket_ts`,
  );
  const rawStmt = db.prepare(
    'SELECT ts_ms, value_num, value_cat FROM readings WHERE series_id = ? AND ts_ms >= ? AND ts_ms < ? ORDER BY ts_ms',
  );
  let seriesCache: SeriesInfo[] | undefined;
  const entityType = new Map<string, string>();

  return {
    now,
    timeZone,
    series() {
      seriesCache ??= seriesStmt.all() as SeriesInfo[];
      for (const s of seriesCache) entityType.set(s.entity, s.entity_type);
      return seriesCache;
    },
    rollups(seriesId, bucket, fromTs, toTs = now + 1) {
      return rollupStmt.all(seriesId, bucket, fromTs, toTs) as RollupPoint[];
    },
    raw(seriesId, fromTs, toTs = now + 1) {
      return (
        rawStmt.all(seriesId, Math.round(fromTs * 1000), Math.round(toTs * 1000)) as {
          ts_ms: number;
          value_num: number | null;
          value_cat: string | null;
        }[]
      ).map((r): RawPoint => ({ ts: r.ts_ms / 1000, value: (r.value_num ?? r.value_cat) as number | string }));
    },
    local(ts): LocalTime {
      const w = wallTime(ts, timeZone);
      const weekday = (new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay() + 6) % 7;
      return {
        year: w.year,
        month: w.month,
        day: w.day,
        hour: w.hour,
        minute: w.minute,
        weekday,
        date: `${w.year}-${pad(w.month)}-${pad(w.day)}`,
      };
    },
    label(entity, metric) {
      const type = entityType.get(entity);
      const words = metricWords(metric);
      // People own their metrics ("Brian's mood"); places and things read with "the" ("the bedroom temperature").
      if (type === 'person') return `${entity}'s ${words}`;
      const readable = /[A-Z]/.test(entity[0] ?? '') ? entity : `the ${entity.replace(/_/g, ' ')}`;
      return `${readable} ${words}`;
    },
    format: formatValue,
  };
}
