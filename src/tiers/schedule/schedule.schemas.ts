/** Schedule events (SPEC §3): one-off or recurring (RFC 5545 RRULE, or daily|weekly|monthly). */
import { z } from 'zod';
import { EntityName, EntityType, Text, Timestamp, JsonObject } from '../../lib/schema.js';
import { int, list, str, ts } from '../../lib/output.js';
import { parseRecurrence } from './recurrence.js';

export const Recurrence = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .refine((s) => {
    try {
      parseRecurrence(s);
      return true;
    } catch {
      return false;
    }
  }, 'expected an RRULE such as FREQ=WEEKLY;BYDAY=MO,WE or one of daily, weekly, monthly');

export const ScheduleInput = z.strictObject({
  entity_name: EntityName.describe('whose event, e.g. "Maya"'),
  title: Text(300).describe('e.g. "Soccer practice"'),
  start_ts: Timestamp.describe('first occurrence start (epoch seconds or ISO-8601 with zone)'),
  end_ts: Timestamp.optional().describe('first occurrence end'),
  recurrence: Recurrence.optional().describe(
    'repeat rule: an RFC 5545 RRULE such as "FREQ=WEEKLY;BYDAY=TU" or daily, weekly, monthly; omit for a one-off',
  ),
  meta: JsonObject.optional().describe('free-form details, e.g. {"location": "school field"}'),
  entity_type: EntityType.optional().describe('type used when the entity is new (default person)'),
});
export type ScheduleInput = z.infer<typeof ScheduleInput>;

export const ScheduleQuery = z.strictObject({
  entity_name: EntityName.optional().describe("only this entity's events"),
  from: Timestamp.optional().describe('default now'),
  to: Timestamp.optional().describe('default from + 7 days'),
  limit: z.coerce.number().int().min(1).max(1000).default(200).describe('at most this many occurrences (default 200)'),
});
export type ScheduleQuery = z.infer<typeof ScheduleQuery>;

/** GET query strings carry numbers as text: accept numeric strings for the time bounds. */
export const ScheduleQueryString = ScheduleQuery.extend({
  from: z.union([z.coerce.number(), Timestamp]).optional(),
  to: z.union([z.coerce.number(), Timestamp]).optional(),
});

// What the operations answer besides `ok: true` (describe-only, for /docs).
export const ScheduleOutput = z.looseObject({ id: int, next_ts: ts.nullable() });
export const ScheduleListOutput = z.looseObject({
  from: ts,
  to: ts,
  occurrences: list({
    event_id: int,
    entity_name: str,
    title: str,
    start_ts: ts,
    end_ts: ts.nullable(),
    recurrence: str.nullable(),
    when: str,
  }),
});
