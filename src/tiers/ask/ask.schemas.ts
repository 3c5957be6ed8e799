/**
 * Ask (SPEC §5 "Ask", §6 `POST /ask`, `GET /sensors`): one question in everyday words, one answer a
 * voice can speak. The input schemas are shared by every door; the output schemas describe the answer
 * (for /docs and MCP) and type it for the service and its parts.
 */
import { z } from 'zod';
import { EntityName, Possible, Text, Timestamp } from '../../lib/schema.js';

export const AskInput = z.strictObject({
  question: Text(500).describe(
    'the question as the person said it, e.g. "was the garage door open last night?", "how warm was the bedroom yesterday evening?", "where are my keys?", "when is Anna\'s birthday?"',
  ),
  now: Timestamp.optional().describe(
    'answer as of this moment (epoch seconds or ISO-8601), for replay and tests; default now',
  ),
  speaker: EntityName.optional().describe(
    'who is asking (Home Assistant passes its user, a voice pipeline its identified voice): "I", "me" and "my" mean them',
  ),
  possible: Possible(
    'offer a fact that only probably answers, hedged ("I\'m not sure, but …"); false: only confident answers',
  ),
});
export type AskInput = z.infer<typeof AskInput>;

export const SensorsInput = z.strictObject({
  entity_name: EntityName.optional().describe(
    'only this entity (matched by name or alias); default every entity with readings',
  ),
});
export type SensorsInput = z.infer<typeof SensorsInput>;

export const ASK_KINDS = [
  'state',
  'measure',
  'last',
  'duration',
  'count',
  'usual',
  'fact',
  'place',
  'reminder',
  'unknown',
] as const;
export type AskKind = (typeof ASK_KINDS)[number];

const ts = z.number().describe('epoch seconds');
const Value = z.union([z.number(), z.string(), z.boolean()]);

export const Span = z.looseObject({ from: ts, to: ts, value: Value });
export type Span = z.infer<typeof Span>;

/** The structured answer (SPEC §5 Ask). `from`/`to`/`at` are the window and moment the question was read as. */
export const AskAnswer = z.looseObject({
  kind: z.enum(ASK_KINDS),
  entity: z.string().optional().describe('the entity the answer is about, by name'),
  metric: z.string().optional(),
  from: ts.optional(),
  to: ts.optional(),
  value: Value.optional().describe(
    'state: true/false; measure: the number; usual: the difference; fact/place: the text',
  ),
  unit: z.string().optional(),
  stat: z.enum(['mean', 'min', 'max', 'sum']).optional(),
  at: ts.optional(),
  spans: z.array(Span).optional().describe('state: the runs that overlap the window'),
  count: z.number().int().optional(),
  seconds: z.number().optional(),
});
export type AskAnswer = z.infer<typeof AskAnswer>;

/** What an answer rests on: readings or rollups of a series, a memory, a place, an intention, a pattern. */
export const Evidence = z.looseObject({
  type: z.enum(['readings', 'rollup', 'memory', 'place', 'intention', 'pattern']),
  id: z.number().int().optional().describe('the memory, location or intention id'),
  entity: z.string().optional(),
  metric: z.string().optional(),
  from: ts.optional(),
  to: ts.optional(),
  count: z.number().int().optional().describe('readings or buckets read'),
  text: z.string().optional().describe('the fact, place or intention in words'),
  confidence: z.number().optional(),
});
export type Evidence = z.infer<typeof Evidence>;

/** `POST /ask` / MCP `ask`: `result` is one or two sentences a voice can speak as they are. */
export const AskOutput = z.looseObject({
  result: z.string(),
  answer: AskAnswer,
  sure: z
    .boolean()
    .describe('false when it rests on a possible fact, a loosely matched subject, or readings that stop early'),
  evidence: z.array(Evidence),
});
export type AskOutput = z.infer<typeof AskOutput>;

export const SensorRow = z.looseObject({
  entity_name: z.string(),
  aliases: z.array(z.string()),
  metric: z.string(),
  kind: z.enum(['numeric', 'two_state', 'categorical', 'composite']),
  unit: z.string().nullable(),
  first_ts: ts.nullable(),
  last_ts: ts.nullable(),
  last_value: Value.nullable(),
});
export type SensorRow = z.infer<typeof SensorRow>;

export const SensorsOutput = z.looseObject({ result: z.string(), sensors: z.array(SensorRow) });
export type SensorsOutput = z.infer<typeof SensorsOutput>;
