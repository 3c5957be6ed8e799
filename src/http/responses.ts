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

const RESPONSES: Record<string, Record<string, z.ZodType>> = {
  // timeseries.routes.ts
  'POST /record': { id: int, value_type: z.enum(['numeric', 'categorical']), children: z.array(z.unknown()) },
  'POST /record/bulk': {
    count: int,
    inserted: int,
    rejected: int,
    results: list({ ok: bool, id: int.optional(), error: str.optional(), message: str.optional() }).describe(
      'one per reading, in order',
    ),
  },
  'POST /query_stream': {
    entity_name: str,
    metric: str,
    granularity: str,
    unit: str.nullable(),
    value_type: str,
    points: list({ ts, value: z.union([z.number(), str]).nullable() }),
  },
  'POST /prune': { dry_run: bool, deleted: int, kept_unrolled: int, cutoff_ts: ts, by_series: z.array(z.unknown()) },
  'POST /schedule': { id: int, next_ts: ts.nullable() },
  'GET /schedule': {
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
  },
  // patterns.routes.ts
  'POST /patterns/run': {
    found: z.array(obj({ pattern_key: str, detector: str })),
    promoted: list({ pattern_key: str, memory_id: int, action: str, fact: str }),
    errors: list({ detector: str, message: str }),
    duration_ms: z.number(),
  },
  'GET /patterns': { detectors: list({ name: str, description: str, options: obj({}) }), promoted: z.array(obj({})) },
  'POST /get_trends': {
    entity_name: str,
    metric: str,
    unit: str.nullable(),
    days: int,
    window: str.describe('the period in words: "the last 24 hours", "yesterday"'),
    from: z.number(),
    to: z.number(),
    whole_days: z.boolean(),
    level: z.number().nullable(),
    direction: str.nullable(),
    slope_per_day: z.number().nullable(),
    change_vs_previous: z.number().nullable(),
    warnings,
  },
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
