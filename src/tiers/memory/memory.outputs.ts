/**
 * What the memory tier's operations answer besides `ok` and `result` (memory.operations.ts): describe-only,
 * loose objects, shown by /docs beside each route (lib/output.ts).
 */
import { z } from 'zod';
import { bool, int, list, obj, str, ts } from '../../lib/output.js';

const warnings = z.array(str).describe('what went less well than asked (e.g. stored as pending), in plain words');

/** A memory as recall, get_context and get_profile return it. */
const memoryHit = {
  id: int,
  entity_name: str,
  fact: str,
  category: str,
  confidence: z.number(),
  effective_confidence: z.number().describe('confidence after decay, now'),
  source: str,
  source_trust: int,
  status: z.enum(['active', 'superseded', 'contested']),
  fact_key: str.nullable(),
  score: z.number(),
  created: ts,
  last_confirmed: ts,
  valid_from: ts,
  valid_until: ts.nullable(),
  low_confidence: bool.optional().describe('true on `possible`: a candidate, not a fact'),
};
const entity = { id: int, name: str, type: str, meta: obj({}), created: ts, updated: ts };
const relation = {
  id: int,
  entity_a: str,
  entity_b: str,
  rel_type: str,
  direction: z.enum(['out', 'in']),
  other: str,
  valid_from: ts,
  valid_until: ts.nullable(),
};

export const RememberOutput = obj({
  id: int,
  entity_id: int,
  action: z.enum(['added', 'reinforced', 'superseded', 'contested']),
  superseded: int.nullable().describe('the memory this one replaced (superseded) or that outranks it (contested)'),
  warnings,
});
export const RecallOutput = obj({
  results: list(memoryHit).describe('what the home knows, best first'),
  possible: list({
    ...memoryHit,
    about_another: z
      .literal(true)
      .optional()
      .describe('the query names someone this fact is neither about nor mentions'),
  }).describe('low-confidence candidates: ask before relying on them'),
  mode_used: z.enum(['hybrid', 'vector', 'keyword']),
  about: z
    .array(str)
    .optional()
    .describe('whom the query names (by name, alias, role or the speaker\'s "my"), by their own names'),
  warnings,
});
export const GetContextOutput = obj({
  entity_name: str.nullable().optional(),
  memories: list(memoryHit),
  possible: list(memoryHit),
  relations: list(relation),
  warnings,
});
export const ProfileOutput = obj({ entity: obj(entity), memories: list(memoryHit), relations: list(relation) });
export const RelateOutput = obj({ id: int, created: bool });
export const UnrelateOutput = obj({ ended: z.array(int).describe('ids of the relationships ended') });
export const GetRelatedOutput = obj({ entity_name: str, relations: list(relation) });
export const AliasOutput = obj({ entity_name: str, alias: str, created: bool });
export const UnaliasOutput = obj({ entity_name: str, alias: str });
export const AliasesOutput = obj({ entity_name: str, aliases: list({ alias: str, source: str, created: ts }) });
export const HaNamesOutput = obj({
  added: int,
  merged: int.describe('always 0: a name from Home Assistant never merges two entities'),
  conflicts: int,
  proposed: int.describe('conflicts proposed as a merge on the admin entity page (new ones)'),
  results: list({ entity_id: str, friendly_name: str, action: str, message: str }),
});
export const ForgetOutput = obj({ deleted_memories: int, entity_deleted: bool });
export const FadingOutput = obj({ memories: list(memoryHit), threshold: z.number() });
export const EntitiesOutput = obj({ entities: list({ ...entity, memory_count: int }) });
