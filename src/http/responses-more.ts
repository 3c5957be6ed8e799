/**
 * The documented answers (responses.ts) of the other tiers: context, episodic, working, prospective, spatial,
 * voices, entity management, Markdown, and the system routes (/health with a token, /audit).
 */
import { z } from 'zod';

const int = z.number().int();
const ts = z.number().describe('epoch seconds');
const str = z.string();
const bool = z.boolean();
const warnings = z.array(str).describe('what went less well than asked, in plain words');
const obj = z.looseObject;
const list = <S extends z.core.$ZodLooseShape>(shape: S) => z.array(z.looseObject(shape));
const counts = z.record(str, int).describe('rows attached to the entity, by table and column');

const task = {
  task_id: int,
  task_name: str,
  entity_name: str.nullable(),
  status: str,
  ttl_ts: ts.nullable(),
  created: ts,
  closed_at: ts.nullable(),
  slot_count: int,
};
const slots = list({ key: str, value: z.unknown(), created: ts, updated: ts });
const intention = { id: int, entity_name: str, trigger_text: str, action_text: str };
const place = { entity_name: str, container_name: str, confidence: z.number(), last_confirmed_ts: ts, age_text: str };
const wmTask = { task: obj(task), slots };
/** What an entity holds, as a merge or a delete reports it (`dry_run: true` is the preview). */
const holdings = obj({
  entity: obj({ name: str, type: str }),
  counts: list({ key: str, n: int, label: str }),
  facts: z.array(z.unknown()),
  relations: z.array(str).describe('current relations, as sentences'),
  aliases: z.array(str),
});

export const MORE_RESPONSES: Record<string, Record<string, z.ZodType>> = {
  // context.routes.ts
  'POST /get_context_budget': {
    items: list({ tier: str, text: str, score: z.number(), tokens: int, low_confidence: bool.optional() }),
    omitted: z.array(z.unknown()),
    used_tokens: int,
    budget: int,
    truncated: bool,
    mode_used: str,
    warnings,
  },
  'POST /cross_query': {
    results: list({ tier: str, score: z.number() }).describe('memories, turns and readings, each with its tier'),
    possible: z.array(obj({})),
    warnings,
  },
  'POST /extract_and_remember': {
    stored: list({ id: int, entity_name: str, fact: str, quote: str, category: str, action: str }),
    rejected: list({ index: int, reason: str, message: str }),
  },
  // episodic.routes.ts
  'POST /open_session': { session_id: int, entity_id: int, entity_name: str, started_at: ts },
  'POST /log_turn': { turn_id: int, session_id: int, role: str, ts },
  'POST /close_session': {
    session_id: int,
    ended_at: ts,
    summary: str.nullable(),
    summary_source: str,
    warnings,
  },
  'GET /get_session/:session_id': {
    session: obj({ id: int, entity_name: str, started_at: ts, ended_at: ts.nullable(), status: str }),
    turns: list({ id: int, role: str, content: str, ts }),
  },
  'POST /search_sessions': {
    results: list({ turn_id: int, session_id: int, entity_name: str, role: str, ts, snippet: str, score: z.number() }),
    warnings,
  },
  // working.routes.ts
  'POST /wm/open': { task_id: int, entity_name: str.nullable(), ttl_ts: ts.nullable(), created: ts },
  'POST /wm/set': { task_id: int, key: str, value: z.unknown(), created: bool, updated: ts },
  'POST /wm/get': wmTask,
  'GET /wm/list': { tasks: list(task) },
  'GET /wm/:task_id': wmTask,
  'POST /wm/close': {
    task_id: int,
    closed_at: ts,
    promoted_memory_id: int.nullable(),
    promotion_action: str.nullable(),
    warnings,
  },
  // prospective.routes.ts
  'POST /intend': { id: int, warnings },
  'POST /check_intentions': { triggered: list({ ...intention, score: z.number() }), warnings },
  'POST /dismiss_intention': { id: int, dismissed: bool },
  'GET /intentions': { intentions: list(intention) },
  // spatial.routes.ts
  'POST /locate': {
    id: int,
    entity_name: str,
    container_name: str,
    previous_container: str.nullable(),
    action: str,
  },
  'POST /find': {
    found: bool,
    entity_name: str.nullable(),
    container_name: str.nullable(),
    confidence: z.number().nullable(),
    last_confirmed_ts: ts.nullable(),
    age_seconds: z.number().nullable(),
    age_text: str.nullable(),
    candidates: list({ ...place, score: z.number(), matched_by: z.enum(['spelling', 'meaning', 'encoder']) }),
  },
  'POST /seen_at': { id: int, entity_name: str, container_name: str, action: str, confidence: z.number() },
  'GET /location_history/:entity_name': {
    entity_name: str,
    locations: list({ id: int, container_name: str, confidence: z.number(), last_confirmed_ts: ts, active: bool }),
  },
  // voices.routes.ts
  'POST /voices/identify': {
    entity_name: str,
    entity_id: int,
    provisional: bool,
    created: bool,
    similarity: z.number(),
    threshold: z.number(),
    candidates: list({ entity_name: str, similarity: z.number() }),
  },
  'GET /voices/unknown': {
    speakers: list({ entity_name: str, first_seen: ts, last_seen: ts, detection_count: int, memory_count: int }),
  },
  'POST /voices/enroll': {
    entity_id: int,
    entity_name: str,
    previous_name: str.nullable().optional(),
    memories_transferred: int.optional(),
    attached: counts.optional(),
  },
  'POST /voices/merge': {
    target_name: str,
    source_deleted: str,
    memories_merged: int,
    readings_merged: int,
    relations_merged: int,
    before: obj({ source: counts, target: counts }),
  },
  'POST /voices/update_print': {
    entity_name: str,
    voiceprint_samples: int,
    embedding_norm: z.number(),
    similarity_to_sample: z.number(),
  },
  // entities.routes.ts
  'POST /entities/merge': {
    dry_run: bool,
    source_name: str,
    target_name: str,
    moves: holdings,
    moved: obj({}).optional().describe('rows moved, by table (not on a preview)'),
  },
  'POST /entities/rename': { entity_name: str, previous_name: str, changed: bool },
  'POST /entities/set_type': { entity_name: str, type: str, previous_type: str, changed: bool },
  'POST /entities/delete': {
    dry_run: bool,
    entity_name: str,
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
