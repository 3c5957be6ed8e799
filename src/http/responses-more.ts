/**
 * The documented answers (responses.ts) of the tiers not yet declared in an operation table: episodic,
 * prospective, spatial, entity management, Markdown, and the system routes (/health with a token, /audit).
 */
import { z } from 'zod';
import { bool, int, list, obj, str, ts } from '../lib/output.js';

/** What an entity holds, as a merge or a delete reports it (`dry_run: true` is the preview). */
const holdings = obj({
  entity: obj({ id: int, name: str, type: str }),
  version: str.describe('what the preview saw (its facts, names, kinds of readings…)'),
  counts: list({ key: str, n: int, label: str }),
  facts: z.array(z.unknown()),
  relations: z.array(str).describe('current relations, as sentences'),
  aliases: z.array(str),
});

export const MORE_RESPONSES: Record<string, Record<string, z.ZodType>> = {
  // entities.routes.ts
  'POST /entities/merge': {
    dry_run: bool,
    source_name: str,
    target_name: str,
    source_id: int.optional().describe('on a preview: send back with the confirm'),
    target_id: int.optional().describe('on a preview: send back with the confirm'),
    version: str.optional().describe('on a preview: send back with the confirm (409 when either changed since)'),
    moves: holdings,
    moved: obj({}).optional().describe('rows moved, by table (not on a preview)'),
  },
  'POST /entities/rename': { entity_name: str, previous_name: str, changed: bool },
  'POST /entities/set_type': { entity_name: str, type: str, previous_type: str, changed: bool },
  'POST /entities/delete': {
    dry_run: bool,
    entity_name: str,
    entity_id: int,
    version: str
      .optional()
      .describe('on a preview: send back with entity_id on the confirm (409 when it changed since)'),
    deletes: holdings,
    deleted_memories: int.optional().describe('not on a preview'),
  },
  'POST /entities/end_relation': { ended: z.array(int), entity_a: str, entity_b: str, rel_type: str },
  // system.routes.ts
  'GET /audit': {
    entries: list({
      id: int,
      ts,
      actor: str,
      op: str,
      target: str.nullable(),
      before: z.unknown(),
      after: z.unknown(),
    }),
  },
  'GET /health': {
    status: z.literal('ok'),
    counts: obj({ entities: int, memories: int, relations: int }).optional().describe('with a token'),
    embedder: obj({ provider: str, model: str, dim: int, answers: bool, vectors: str, pending: int })
      .optional()
      .describe('with a token'),
    wordnet: obj({}).optional(),
    llm: obj({ provider: str, model: str }).nullable().optional(),
  },
  // markdown.routes.ts
  'POST /import/markdown': {
    files: int,
    entities_created: int,
    entities_updated: int,
    added: int,
    superseded: int,
    reinforced: int,
    unchanged: int,
    missing: list({ entity_name: str, id: int, fact: str }),
    conflicts: z.array(z.unknown()),
    errors: z.array(z.unknown()),
  },
};
