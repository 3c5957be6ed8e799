/** Tier 1 operations: one zod object each, shared by HTTP, MCP and the MQTT bridge. */
import { z } from 'zod';
import {
  distinctEntities,
  eitherGiven,
  EntityName,
  EntityType,
  JsonObject,
  Possible,
  Text,
  Timestamp,
  Trust,
} from '../../lib/schema.js';

export const CATEGORIES = ['preference', 'habit', 'routine', 'relationship', 'insight', 'general'] as const;
export const Category = z.enum(CATEGORIES);
export type Category = z.infer<typeof Category>;

export const RecallMode = z.enum(['vector', 'keyword', 'hybrid']);
export type RecallMode = z.infer<typeof RecallMode>;

export const RememberInput = z.strictObject({
  entity_name: EntityName.describe('who or what the fact is about, e.g. "Brian", "bedroom", "thermostat"'),
  fact: Text(4000).describe('the fact in one plain sentence, e.g. "Brian keeps the bedroom at 68°F at night"'),
  category: Category.default('general').describe(
    'one of preference, habit, routine, relationship, insight, general (default general)',
  ),
  confidence: z.number().min(0).max(1).default(1).describe('how sure the statement is, 0–1 (default 1)'),
  source: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .default('manual')
    .describe('who or what stated it, e.g. "conversation", "ha_automation" (default manual)'),
  source_trust: Trust.optional().describe(
    '1–5 or its label: user (5), hardware (4), system (3), inferred (2), external (1); default configured, 5',
  ),
  entity_type: EntityType.optional().describe(
    'what the entity is (person, room, device, sensor, object, pet, …); omit when unsure: it stays unknown until something says',
  ),
  fact_key: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe(
      'makes the fact single-valued per entity, e.g. "bedroom_temp_night": a new fact with the same key supersedes the old one',
    ),
  valid_from: Timestamp.optional().describe('when the fact became true (default now)'),
});
export type RememberInput = z.infer<typeof RememberInput>;

export const RecallInput = z.strictObject({
  query: Text(1000).describe('what to look for, in plain words'),
  entity_name: EntityName.optional().describe('only facts about this entity'),
  category: Category.optional().describe(
    'only facts of this category: preference, habit, routine, relationship, insight or general',
  ),
  top_k: z.number().int().min(1).max(100).default(5).describe('at most this many results, 1–100 (default 5)'),
  mode: RecallMode.default('hybrid').describe(
    'vector (by meaning), keyword (by words; needs no embedding model) or hybrid (both, fused; default)',
  ),
  recency_weight: z
    .number()
    .min(0)
    .max(1)
    .default(0.2)
    .describe('0–1: how much newer facts are preferred (default 0.2)'),
  min_confidence: z
    .number()
    .min(0)
    .max(1)
    .default(0)
    .describe('skip facts whose decayed confidence is below this, 0–1 (default 0)'),
  min_trust: z
    .union([z.number().int().min(0).max(5), Trust])
    .default(0)
    .describe(
      'skip facts below this trust: 0–5 or a label user (5), hardware (4), system (3), inferred (2), external (1); default 0',
    ),
  include_superseded: z.boolean().default(false).describe('also return superseded and contested facts'),
  as_of: Timestamp.optional().describe('only facts that were valid at this time'),
  possible: Possible(
    'also list up to top_k low-confidence candidates in `possible` when fewer than top_k results are confident (default true); false = confident answers only',
  ),
  explain: z
    .boolean()
    .default(false)
    .describe(
      'include the score breakdown of each result, and the confidence model with the nearest candidates and their signals (why a question got nothing)',
    ),
  speaker: EntityName.optional().describe(
    'who is asking: "I", "me" and "my" in the query mean them ("my wife" through their relations)',
  ),
});
export type RecallInput = z.infer<typeof RecallInput>;

export const GetContextInput = z
  .strictObject({
    entity_name: EntityName.optional().describe('whose context, e.g. "Brian" (give this, query, or both)'),
    query: Text(1000).optional().describe('what the conversation is about, in plain words'),
    top_k: z.number().int().min(1).max(100).default(10).describe('at most this many memories, 1–100 (default 10)'),
    possible: Possible(
      'with a query: also list low-confidence candidates in `possible` when fewer than top_k memories are confident (default true); false = confident only',
    ),
  })
  .refine(...eitherGiven('entity_name', 'query', 'give entity_name, query or both'));
export type GetContextInput = z.infer<typeof GetContextInput>;

export const ProfileInput = z.strictObject({
  entity_name: EntityName.describe('the person, room or device, e.g. "Brian"'),
});
export type ProfileInput = z.infer<typeof ProfileInput>;

export const RelateInput = z
  .strictObject({
    entity_a: EntityName.describe('the subject, e.g. "Brian"'),
    entity_b: EntityName.describe('the object, e.g. "Anna" (another entity than entity_a)'),
    rel_type: z.string().trim().min(1).max(100).describe('e.g. "spouse_of", "owns", "lives_in"'),
    meta: JsonObject.optional().describe('free-form details, e.g. {"since": "2019"}'),
    entity_a_type: EntityType.optional().describe(
      'what entity_a is when new (person, room, device, …); omit when unsure',
    ),
    entity_b_type: EntityType.optional().describe(
      'what entity_b is when new (person, room, device, …); omit when unsure',
    ),
  })
  .refine(
    ...distinctEntities('entity_a', 'entity_b', 'the same entity as entity_a; a relation needs two different entities'),
  );
export type RelateInput = z.infer<typeof RelateInput>;

export const UnrelateInput = z.strictObject({
  entity_a: EntityName.describe('the subject of the relation, e.g. "Brian"'),
  entity_b: EntityName.describe('the other side, e.g. "blue Subaru"'),
  rel_type: z.string().trim().min(1).max(100).optional().describe('omit to end every relation from a to b'),
});
export type UnrelateInput = z.infer<typeof UnrelateInput>;

export const GetRelatedInput = z.strictObject({
  entity_name: EntityName.describe('whose relationships, e.g. "Brian"'),
  rel_type: z.string().trim().min(1).max(100).optional().describe('only this kind, e.g. "spouse_of"'),
  direction: z
    .enum(['out', 'in', 'both'])
    .default('both')
    .describe('out (entity_name → other), in (other → entity_name) or both (default)'),
  include_history: z.boolean().default(false).describe('also ended relations'),
});
export type GetRelatedInput = z.infer<typeof GetRelatedInput>;

export const ForgetInput = z
  .strictObject({
    memory_id: z.number().int().positive().optional().describe('the id of one memory, from recall results'),
    entity_name: EntityName.optional().describe('forget the entity and everything that belongs to it'),
    confirm: EntityName.optional().describe(
      "when entity_name is another name (an alias) of an entity: that entity's own name, to say you mean it (else 409 naming it)",
    ),
  })
  .refine((v) => (v.memory_id === undefined) !== (v.entity_name === undefined), {
    message: 'give exactly one of memory_id or entity_name',
    path: ['memory_id'],
  })
  .refine((v) => v.confirm === undefined || v.entity_name !== undefined, {
    message: 'confirm goes with entity_name',
    path: ['confirm'],
  });
export type ForgetInput = z.infer<typeof ForgetInput>;

export const FadingInput = z.strictObject({
  // coerced: GET /fading passes these in the query string
  threshold: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.3)
    .describe('list memories whose decayed confidence is below this, 0–1 (default 0.3)'),
  limit: z.coerce.number().int().min(1).max(500).default(50).describe('at most this many, 1–500 (default 50)'),
  entity_name: EntityName.optional().describe('only memories about this entity'),
});
export type FadingInput = z.infer<typeof FadingInput>;
