/** Tier 1.5 operations (episodic memory): one zod object each, shared by HTTP and MCP. */
import { z } from 'zod';
import { EntityName, EntityType, Text, Timestamp, JsonObject, RowId } from '../../lib/schema.js';
import { int, list, obj, str, ts, warnings } from '../../lib/output.js';

export const ROLES = ['user', 'assistant', 'system'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** A turn's content: one utterance or reply. 20 000 chars is far above any spoken turn. */
export const MAX_TURN_CHARS = 20_000;

const SessionId = z.number().int().positive().describe('the id open_session returned');

export const OpenSessionInput = z.strictObject({
  entity_name: EntityName.describe('who the conversation is with, e.g. "Brian"'),
  entity_type: EntityType.optional().describe('type used when the entity is new (default person)'),
  meta: JsonObject.optional().describe('free-form context, e.g. {"device": "kitchen speaker"}'),
});
export type OpenSessionInput = z.infer<typeof OpenSessionInput>;

export const LogTurnInput = z.strictObject({
  session_id: SessionId,
  role: Role.describe('user, assistant or system'),
  content: Text(MAX_TURN_CHARS).describe('what was said, verbatim'),
  ts: Timestamp.optional().describe('when it was said (default now)'),
});
export type LogTurnInput = z.infer<typeof LogTurnInput>;

export const CloseSessionInput = z.strictObject({
  session_id: SessionId,
  summary: Text(4000)
    .optional()
    .describe('1–3 sentences; omitted → written by the LLM if configured, else extracted from the user turns'),
});
export type CloseSessionInput = z.infer<typeof CloseSessionInput>;

// Coerced: GET /get_session/:session_id passes it as a path segment.
export const GetSessionInput = z.strictObject({
  session_id: RowId.describe('the id open_session returned'),
});
export type GetSessionInput = z.infer<typeof GetSessionInput>;

export const SearchSessionsInput = z.strictObject({
  query: Text(1000).describe('words to look for in past conversations'),
  entity_name: EntityName.optional().describe('only conversations with this entity'),
  limit: z.number().int().min(1).max(100).default(10).describe('at most this many sessions, 1–100 (default 10)'),
  possible: z
    .boolean()
    .optional()
    .describe(
      'default true: also list up to 3 conversations that may be related but did not pass the evidence gate, in `possible` (low confidence); false → confident results only',
    ),
});
export type SearchSessionsInput = z.infer<typeof SearchSessionsInput>;

// What each operation answers besides `ok` and `result` (describe-only; /docs shows it beside the route).
export const OpenSessionOutput = z.looseObject({ session_id: int, entity_id: int, entity_name: str, started_at: ts });
export const LogTurnOutput = z.looseObject({ turn_id: int, session_id: int, role: str, ts });
export const CloseSessionOutput = z.looseObject({
  session_id: int,
  ended_at: ts,
  summary: str.nullable(),
  summary_source: str,
  warnings,
});
export const GetSessionOutput = z.looseObject({
  session: obj({ id: int, entity_name: str, started_at: ts, ended_at: ts.nullable(), status: str }),
  turns: list({ id: int, role: str, content: str, ts }),
});
export const SearchSessionsOutput = z.looseObject({
  results: list({ turn_id: int, session_id: int, entity_name: str, role: str, ts, snippet: str, score: z.number() }),
  warnings,
});
