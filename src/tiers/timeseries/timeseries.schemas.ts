/** Tier 2 operations (SPEC §6): one zod object each, shared by HTTP, MCP and the MQTT bridge. */
import { z } from 'zod';
import { EntityName, EntityType, Timestamp, TOO_DEEP, withinDepth } from '../../lib/schema.js';
import { bool, int, list, str, ts } from '../../lib/output.js';

export const MetricName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200)
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');

/** A reading's value: number → numeric, string/boolean → categorical, object → composite. */
export const ReadingValue = z.union([
  z.number().refine(Number.isFinite, 'must be a finite number'),
  z.string().min(1, 'must not be empty').max(1000),
  z.boolean(),
  z
    .record(z.string().max(200), z.unknown())
    .refine((o) => Object.keys(o).length > 0 && Object.keys(o).length <= 100, 'composite value needs 1–100 keys')
    .refine((o) => withinDepth(o), TOO_DEEP),
]);
export type ReadingValue = z.infer<typeof ReadingValue>;

export const RecordInput = z.strictObject({
  entity_name: EntityName.describe('the room, person or device, e.g. "bedroom", "Brian", "sensor.bedroom_temperature"'),
  metric: MetricName.describe('e.g. "temperature", "presence", "mood"'),
  value: ReadingValue.describe(
    'number (numeric), string or boolean (categorical), or object (composite: each key also becomes "<metric>.<key>")',
  ),
  unit: z.string().trim().max(32).optional().describe('e.g. "°C", "%", "W"; kept per series'),
  source: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .default('api')
    .describe('what sent it, e.g. "ha", "avatar_ability" (default api)'),
  entity_type: EntityType.optional().describe(
    'what the entity is (room, device, sensor, person, …); omit when unsure: it stays unknown until something says',
  ),
  ts: Timestamp.optional().describe('when it was measured: epoch seconds or ISO-8601 with zone (default now)'),
});
export type RecordInput = z.infer<typeof RecordInput>;

export const MAX_BULK = 10_000;
export const RecordBulkInput = z.strictObject({
  readings: z
    .array(z.unknown())
    .min(1, 'must not be empty')
    .max(MAX_BULK, `at most ${MAX_BULK} readings per request`)
    .describe('record bodies'),
});
export type RecordBulkInput = z.infer<typeof RecordBulkInput>;

export const Granularity = z.enum(['raw', 'hour', 'day', 'week']);
export type Granularity = z.infer<typeof Granularity>;

export const QueryStreamInput = z.strictObject({
  entity_name: EntityName.describe('the entity the readings belong to, e.g. "bedroom"'),
  metric: MetricName.describe('e.g. "temperature"'),
  granularity: Granularity.default('raw').describe(
    'raw (each reading; default), or hour, day or week rollups (count, avg, min, max, p10, p90, mode)',
  ),
  start_ts: Timestamp.optional().describe(
    'window start: epoch seconds or ISO-8601 with zone (default: no lower bound)',
  ),
  end_ts: Timestamp.optional().describe('window end: epoch seconds or ISO-8601 with zone (default now)'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(1000)
    .describe('the latest points in the window, returned oldest first'),
});
export type QueryStreamInput = z.infer<typeof QueryStreamInput>;

export const PruneInput = z.strictObject({
  dry_run: z.boolean().default(false).describe('count what would be deleted without deleting'),
});
export type PruneInput = z.infer<typeof PruneInput>;

// What the operations answer besides `ok: true` (describe-only, for /docs).
export const RecordOutput = z.looseObject({
  id: int,
  value_type: z.enum(['numeric', 'categorical']),
  children: z.array(z.unknown()),
});
export const RecordBulkOutput = z.looseObject({
  count: int,
  inserted: int,
  rejected: int,
  results: list({ ok: bool, id: int.optional(), error: str.optional(), message: str.optional() }).describe(
    'one per reading, in order',
  ),
});
export const QueryStreamOutput = z.looseObject({
  entity_name: str,
  metric: str,
  granularity: str,
  unit: str.nullable(),
  value_type: str,
  points: list({ ts, value: z.union([z.number(), str]).nullable() }),
});
export const PruneOutput = z.looseObject({
  dry_run: bool,
  deleted: int,
  kept_unrolled: int,
  cutoff_ts: ts,
  by_series: z.array(z.unknown()),
});
