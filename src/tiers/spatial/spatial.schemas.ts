/** Tier 5 operations (SPEC §6): one zod object each, shared by HTTP, MCP and the MQTT bridge. */
import { z } from 'zod';
import { eitherGiven, EntityName, EntityType, Text, Timestamp } from '../../lib/schema.js';
import { int, list, str, ts } from '../../lib/output.js';

const Source = z.string().trim().min(1).max(100);

export const LocateInput = z.strictObject({
  entity_name: EntityName.describe('the object being put somewhere, e.g. "car keys"'),
  container_name: EntityName.describe('where it is now, e.g. "kitchen drawer", "hallway", "Brian\'s backpack"'),
  entity_type: EntityType.default('object').describe('type used when the object is new (default object)'),
  container_type: EntityType.optional().describe(
    'type used when the container is new, e.g. "room", "furniture", "bag" (default: none, until something says)',
  ),
  confidence: z.number().min(0).max(1).default(1).describe('how sure the sighting is, 0–1 (default 1)'),
  source: Source.optional().describe('who or what saw it, e.g. "user", "camera", "owntracks"'),
  note: Text(1000).optional().describe('e.g. "under the newspaper"'),
  ts: Timestamp.optional().describe(
    'when it was seen there (default now); an older sighting than the stored one changes nothing',
  ),
});
export type LocateInput = z.infer<typeof LocateInput>;

export const FindInput = z
  .strictObject({
    entity_name: EntityName.optional().describe(
      'the object being looked for, e.g. "car keys" (matched loosely: "keys" works when only one kind is known)',
    ),
    query: Text(500).optional().describe('a question in plain words, e.g. "where did I leave my glasses?"'),
  })
  .refine(...eitherGiven('entity_name', 'query', 'give entity_name or query'));
export type FindInput = z.infer<typeof FindInput>;

export const SeenAtInput = z.strictObject({
  entity_name: EntityName.describe('the object, by its exact name'),
  container_name: EntityName.optional().describe(
    'where it was seen; omit to confirm the known place, a different one moves it',
  ),
  source: Source.optional().describe('who or what saw it, e.g. "user", "camera"'),
  ts: Timestamp.optional().describe('when it was seen (default now)'),
});
export type SeenAtInput = z.infer<typeof SeenAtInput>;

export const LocationHistoryInput = z.strictObject({
  entity_name: EntityName.describe('the object (matched loosely, like find)'),
  // coerced: GET /location_history/{name}?limit=20 passes it in the query string
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .describe('at most this many places, newest first (default 100)'),
});
export type LocationHistoryInput = z.infer<typeof LocationHistoryInput>;

/** One object's current place, confidence decayed to now. */
export interface Whereabouts {
  entity_name: string;
  container_name: string;
  /** Effective confidence now: max(0.05, stored × 2^(−hours since confirmed / half-life)). */
  confidence: number;
  last_confirmed_ts: number;
  age_seconds: number;
  age_text: string;
}

export interface FindResult {
  result: string;
  found: boolean;
  entity_name: string | null;
  container_name: string | null;
  confidence: number | null;
  last_confirmed_ts: number | null;
  age_seconds: number | null;
  age_text: string | null;
  /** Every object the question could mean, best first (also when one was found). */
  candidates: (Whereabouts & { score: number; matched_by: 'spelling' | 'meaning' | 'encoder' })[];
}

// What each operation answers besides `ok` and `result` (describe-only; /docs shows it beside the route).
const Place = { entity_name: str, container_name: str, confidence: z.number(), last_confirmed_ts: ts, age_text: str };
export const LocateOutput = z.looseObject({
  id: int,
  entity_name: str,
  container_name: str,
  previous_container: str.nullable(),
  action: str,
});
export const FindOutput = z.looseObject({
  found: z.boolean(),
  entity_name: str.nullable(),
  container_name: str.nullable(),
  confidence: z.number().nullable(),
  last_confirmed_ts: ts.nullable(),
  age_seconds: z.number().nullable(),
  age_text: str.nullable(),
  candidates: list({ ...Place, score: z.number(), matched_by: z.enum(['spelling', 'meaning', 'encoder']) }),
});
export const SeenAtOutput = z.looseObject({
  id: int,
  entity_name: str,
  container_name: str,
  action: str,
  confidence: z.number(),
});
export const LocationHistoryOutput = z.looseObject({
  entity_name: str,
  locations: list({ id: int, container_name: str, confidence: z.number(), last_confirmed_ts: ts, active: z.boolean() }),
});
