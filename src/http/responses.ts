/**
 * What each route answers, for the OpenAPI document at /docs (route.ts attaches these as the 200
 * response). Describe-only: route.ts serialises answers with JSON.stringify, never through these
 * schemas, and every object is loose (`additionalProperties`), so a field left out here is still sent.
 * Keyed by `METHOD path` as the routes declare them; a route without an entry documents no response.
 */
import { z } from 'zod';
import { MORE_RESPONSES } from './responses-more.js';
import { bool, int, list, obj, str, ts } from '../lib/output.js';
import { OPERATION_TABLES } from '../operations.js';

const warnings = z.array(str).describe('what went less well than asked (e.g. stored as pending), in plain words');

/** A memory as recall, get_context and cross_query return it. */
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
const RESPONSES: Record<string, Record<string, z.ZodType>> = {
  // memory.routes.ts
  'POST /remember': {
    id: int,
    entity_id: int,
    action: z.enum(['added', 'reinforced', 'superseded', 'contested']),
    superseded: int.nullable().describe('the memory this one replaced (superseded) or that outranks it (contested)'),
    warnings,
  },
  'POST /recall': {
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
  },
  'POST /get_context': {
    entity_name: str.nullable().optional(),
    memories: list(memoryHit),
    possible: list(memoryHit),
    relations: list(relation),
    warnings,
  },
  'GET /profile/:entity_name': { entity: obj(entity), memories: list(memoryHit), relations: list(relation) },
  'POST /relate': { id: int, created: bool },
  'POST /unrelate': { ended: z.array(int).describe('ids of the relationships ended') },
  'POST /get_related': { entity_name: str, relations: list(relation) },
  'POST /alias': { entity_name: str, alias: str, created: bool },
  'POST /unalias': { entity_name: str, alias: str },
  'GET /aliases/:entity_name': { entity_name: str, aliases: list({ alias: str, source: str, created: ts }) },
  'POST /alias/homeassistant': {
    added: int,
    merged: int.describe('always 0: a name from Home Assistant never merges two entities'),
    conflicts: int,
    proposed: int.describe('conflicts proposed as a merge on the admin entity page (new ones)'),
    results: list({ entity_id: str, friendly_name: str, action: str, message: str }),
  },
  'POST /forget': { deleted_memories: int, entity_deleted: bool },
  'GET /fading': { memories: list(memoryHit), threshold: z.number() },
  'GET /entities': { entities: list({ ...entity, memory_count: int }) },
};

const ALL = { ...RESPONSES, ...MORE_RESPONSES };

/** The routes that document their answer, as `METHOD path` (tests check each exists): the side table's and the operations'. */
export const documentedRoutes = (): string[] => [
  ...Object.keys(ALL),
  ...OPERATION_TABLES.flatMap((t) =>
    t.operations.flatMap((op) => (op.http && op.output ? [`${op.http.method} ${op.http.path}`] : [])),
  ),
];

/** A route's documented 200 answer, `{ok: true, result, ...fields}` and loose, or undefined when it has none. */
export function responseOf(method: 'GET' | 'POST', url: string): z.ZodType | undefined {
  const fields = ALL[`${method} ${url}`];
  if (!fields) return undefined;
  return z.looseObject({ ok: z.literal(true), result: z.string().describe('the answer in plain words'), ...fields });
}

/** An operation's declared output as its 200 answer: `{ok: true, result, ...output}`, loose. */
export function okAnswer(output: z.ZodObject): z.ZodType {
  return z.looseObject({
    ok: z.literal(true),
    result: z.string().describe('the answer in plain words'),
    ...output.shape,
  });
}
