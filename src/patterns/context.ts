/** Builds the read-only PatternContext over the pattern reads (tiers/patterns/patterns.repo.ts: prepared SELECTs only). */
import { wallTime } from '../lib/tz.js';
import type { PatternReads } from '../tiers/patterns/patterns.repo.js';
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

export function createPatternContext(reads: PatternReads, timeZone: string, now: number): PatternContext {
  let seriesCache: SeriesInfo[] | undefined;
  const entityType = new Map<string, string>();

  return {
    now,
    timeZone,
    series() {
      seriesCache ??= reads.series() as SeriesInfo[];
      for (const s of seriesCache) entityType.set(s.entity, s.entity_type);
      return seriesCache;
    },
    rollups(seriesId, bucket, fromTs, toTs = now + 1) {
      return reads.rollups(seriesId, bucket, fromTs, toTs) as RollupPoint[];
    },
    raw(seriesId, fromTs, toTs = now + 1) {
      return reads
        .raw(seriesId, Math.round(fromTs * 1000), Math.round(toTs * 1000))
        .map((r): RawPoint => ({ ts: r.ts_ms / 1000, value: (r.value_num ?? r.value_cat) as number | string }));
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
