/** Tier 1 operations: one zod object each, shared by HTTP, MCP and the MQTT bridge. */
import { z } from 'zod';
import { EntityName, EntityType, Text, Timestamp, Trust } from '../../lib/schema.js';

export const CATEGORIES = ['preference', 'habit', 'routine', 'relationship', 'insight', 'general'] as const;
export const Category = z.enum(CATEGORIES);
export type Category = z.infer<typeof Category>;

export const RecallMode = z.enum(['vector', 'keyword', 'hybrid']);
export type RecallMode = z.infer<typeof RecallMode>;

export const RememberInput = z.object({
  entity_name: EntityName.describe('who or what the fact is about, e.g. "Brian", "bedroom", "thermostat"'),
  fact: Text(4000).describe('the fact in one plain sentence, e.g. "Brian keeps the bedroom at 68°F at night"'),
  category: Category.default('general'),
  confidence: z.number().min(0).max(1).default(1),
  source: z.string().trim().min(1).max(100).default('manual'),
  source_trust: Trust.optional().describe('5 user, 4 hardware, 3 system, 2 inferred, 1 external (default: configured, 5)'),
  entity_type: EntityType.optional().describe('what the entity is (person, room, device, sensor, object, pet, …); omit when unsure: it stays unknown until something says'),
  fact_key: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('makes the fact single-valued per entity, e.g. "bedroom_temp_night": a new fact with the same key supersedes the old one'),
  valid_from: Timestamp.optional().describe('when the fact became true (default now)'),
});
export type RememberInput = z.infer<typeof RememberInput>;

export const RecallInput = z.object({
  query: Text(1000).describe('what to look for, in plain words'),
  entity_name: EntityName.optional().describe('only facts about this entity'),
  category: Category.optional(),
  top_k: z.number().int().min(1).max(100).default(5),
  mode: RecallMode.default('hybrid').describe('vector (semantic), keyword (FTS5/BM25), hybrid (both, fused)'),
  recency_weight: z.number().min(0).max(1).default(0.2),
  min_confidence: z.number().min(0).max(1).default(0),
  min_trust: z.union([z.number().int().min(0).max(5), Trust]).default(0),
  include_superseded: z.boolean().default(false).describe('also return superseded and contested facts'),
  as_of: Timestamp.optional().describe('only facts that were valid at this time'),
  explain: z.boolean().default(false).describe('include the score breakdown of each result'),
});
export type RecallInput = z.infer<typeof RecallInput>;

export const GetContextInput = z
  .object({
    entity_name: EntityName.optional(),
    query: Text(1000).optional(),
    top_k: z.number().int().min(1).max(100).default(10),
  })
  .refine((v) => v.entity_name !== undefined || v.query !== undefined, {
    message: 'give entity_name, query or both',
    path: ['entity_name'],
  });
export type GetContextInput = z.infer<typeof GetContextInput>;

export const ProfileInput = z.object({ entity_name: EntityName });
export type ProfileInput = z.infer<typeof ProfileInput>;

export const RelateInput = z.object({
  entity_a: EntityName.describe('the subject, e.g. "Brian"'),
  entity_b: EntityName.describe('the object, e.g. "Anna"'),
  rel_type: z.string().trim().min(1).max(100).describe('e.g. "spouse_of", "owns", "lives_in"'),
  meta: z.record(z.string(), z.unknown()).optional(),
  entity_a_type: EntityType.optional(),
  entity_b_type: EntityType.optional(),
});
export type RelateInput = z.infer<typeof RelateInput>;

export const UnrelateInput = z.object({
  entity_a: EntityName,
  entity_b: EntityName,
  rel_type: z.string().trim().min(1).max(100).optional().describe('omit to end every relation from a to b'),
});
export type UnrelateInput = z.infer<typeof UnrelateInput>;

export const GetRelatedInput = z.object({
  entity_name: EntityName,
  rel_type: z.string().trim().min(1).max(100).optional(),
  direction: z.enum(['out', 'in', 'both']).default('both'),
  include_history: z.boolean().default(false).describe('also ended relations'),
});
export type GetRelatedInput = z.infer<typeof GetRelatedInput>;

export const ForgetInput = z
  .object({
    memory_id: z.number().int().positive().optional(),
    entity_name: EntityName.optional().describe('forget the entity and everything that belongs to it'),
  })
  .refine((v) => (v.memory_id === undefined) !== (v.entity_name === undefined), {
    message: 'give exactly one of memory_id or entity_name',
    path: ['memory_id'],
  });
export type ForgetInput = z.infer<typeof ForgetInput>;

export const FadingInput = z.object({
  // coerced: GET /fading passes these in the query string
  threshold: z.coerce.number().min(0).max(1).default(0.3),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  entity_name: EntityName.optional(),
});
export type FadingInput = z.infer<typeof FadingInput>;
