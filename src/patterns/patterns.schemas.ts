/** Pattern engine and trends operations (SPEC §5, §6). */
import { z } from 'zod';
import { EntityName } from '../lib/schema.js';
import { int, list, obj, str } from '../lib/output.js';
import { MetricName } from '../tiers/timeseries/timeseries.schemas.js';

export const PatternsRunInput = z.strictObject({
  detectors: z.array(z.string().min(1).max(100)).max(50).optional().describe('run only these detectors (default all)'),
  dry_run: z.boolean().default(false).describe('report findings without promoting them'),
});
export type PatternsRunInput = z.infer<typeof PatternsRunInput>;

export const PatternsListInput = z.strictObject({ entity_name: EntityName.optional() });

export const GetTrendsInput = z.strictObject({
  entity_name: EntityName.describe('the entity the readings belong to, e.g. "living_room"'),
  metric: MetricName.describe('e.g. "humidity"'),
  days: z
    .number()
    .int()
    .min(1)
    .max(365)
    .default(7)
    .describe(
      'length of the period in days, compared with the period of the same length before it; 1 = the last 24 hours',
    ),
  whole_days: z
    .boolean()
    .default(false)
    .describe(
      'false: the last days × 24 hours up to now; true: whole calendar days that have ended (days 1 = yesterday, against the day before)',
    ),
});
export type GetTrendsInput = z.infer<typeof GetTrendsInput>;

// What the operations answer besides `ok: true` (describe-only, for /docs).
export const PatternsRunOutput = z.looseObject({
  found: z.array(obj({ pattern_key: str, detector: str })),
  promoted: list({ pattern_key: str, memory_id: int, action: str, fact: str }),
  errors: list({ detector: str, message: str }),
  duration_ms: z.number(),
});
export const PatternsListOutput = z.looseObject({
  detectors: list({ name: str, description: str, options: obj({}) }),
  promoted: z.array(obj({})),
});
export const GetTrendsOutput = z.looseObject({
  entity_name: str,
  metric: str,
  unit: str.nullable(),
  days: int,
  window: str.describe('the period in words: "the last 24 hours", "yesterday"'),
  from: z.number(),
  to: z.number(),
  whole_days: z.boolean(),
  level: z.number().nullable(),
  direction: str.nullable(),
  slope_per_day: z.number().nullable(),
  change_vs_previous: z.number().nullable(),
  warnings: z.array(str).describe('what went less well than asked (e.g. stored as pending), in plain words'),
});

/** `[patterns]` config section. */
export const PatternsConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** node-cron expression, local time (HEARTH_TZ). */
    schedule: z.string().min(1).default('0 * * * *'),
    /** Directory of the user's own detectors (each `<name>/index.js` or `<name>.js` default-exporting defineDetector). */
    detectors_dir: z.string().default(''),
    /** Per-detector options, e.g. [patterns.detectors.stable_value] max_cv = 0.08; `enabled = false` switches one off. */
    detectors: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  })
  .strict()
  .prefault({});
