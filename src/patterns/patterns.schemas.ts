/** Pattern engine and trends operations (SPEC §5, §6). */
import { z } from 'zod';
import { EntityName } from '../lib/schema.js';
import { MetricName } from '../tiers/timeseries/timeseries.schemas.js';

export const PatternsRunInput = z.strictObject({
  detectors: z.array(z.string().min(1).max(100)).max(50).optional().describe('run only these detectors (default all)'),
  dry_run: z.boolean().default(false).describe('report findings without promoting them'),
});
export type PatternsRunInput = z.infer<typeof PatternsRunInput>;

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
