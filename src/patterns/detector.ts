/**
 * The detector contract (SPEC §5 "Pattern engine"). A detector is a file in `detectors/` (built in)
 * or in a configured directory (a user's own) whose default export is `defineDetector({...})`.
 * It reads the home's series through a read-only `PatternContext` and returns findings; it never
 * writes. The engine validates its options from config, runs it, isolates its failures, and
 * promotes findings to trust-3 memories with `fact_key = pattern_key`.
 */
import type { z } from 'zod';
import type { RollupRow, SeriesRow } from '../tiers/patterns/patterns.repo.js';

export type Category = 'preference' | 'habit' | 'routine' | 'relationship' | 'insight' | 'general';

/** What a detector found. `pattern_key` names the pattern, never its value, so drift supersedes. */
export interface Finding {
  /** e.g. `stable_value:bedroom:temperature:night` — stable across value changes. */
  pattern_key: string;
  /** Entity the memory is about (exact name as stored). */
  entity: string;
  /** Metric the pattern is about (for `promoted_patterns`); for pairs, "a|b". */
  metric: string;
  category: Category;
  /** One plain sentence an assistant can repeat; numbers rounded so small drift keeps the same text. */
  fact: string;
  /** 0–1: how sure the detector is. */
  confidence: number;
  /** The numbers behind the finding (stored in `promoted_patterns.evidence`). */
  evidence: Record<string, unknown>;
}

/** A series as a detector sees it (the row the patterns repository reads). */
export type SeriesInfo = SeriesRow;

/** A rollup bucket (`bucket_ts` epoch seconds; day/week buckets start at local midnight in the hub's zone). */
export type RollupPoint = RollupRow;

export interface RawPoint {
  ts: number;
  value: number | string;
}

/** Local wall-clock parts of an instant in the hub's zone (HEARTH_TZ). */
export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0 = Monday … 6 = Sunday */
  weekday: number;
  /** YYYY-MM-DD */
  date: string;
}

/** Everything a detector may read. No handle to the database: detectors cannot write. */
export interface PatternContext {
  /** Epoch seconds now (the hub's clock; tests move it). */
  now: number;
  timeZone: string;
  /** Numeric and categorical series (composite parents excluded; their parts are series). */
  series(): SeriesInfo[];
  rollups(seriesId: number, bucket: 'hour' | 'day' | 'week', fromTs: number, toTs?: number): RollupPoint[];
  /** Raw readings, oldest first; raw data is kept RETENTION_DAYS. */
  raw(seriesId: number, fromTs: number, toTs?: number): RawPoint[];
  local(ts: number): LocalTime;
  /** "Brian's bedroom temperature" style label for an entity + metric. */
  label(entity: string, metric: string): string;
  /** Formats a value with its unit and sensible rounding: 68.27, "°F" → "68°F". */
  format(value: number, unit: string | null): string;
}

export interface Detector<O extends z.ZodObject = z.ZodObject> {
  name: string;
  /** One line for docs and /patterns listings. */
  description: string;
  /** Options with defaults; validated from `[patterns.detectors.<name>]`. */
  options: O;
  detect(ctx: PatternContext, opts: z.infer<O>): Finding[] | Promise<Finding[]>;
}

/** Identity helper that types a detector definition. */
export function defineDetector<O extends z.ZodObject>(d: Detector<O>): Detector<O> {
  return d;
}
