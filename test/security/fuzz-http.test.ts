/**
 * Property-based fuzzing of every HTTP route (issue "Reliability and security", item 5).
 *
 * Routes are enumerated from the OpenAPI document at GET /docs (plus the hidden /docs and /mcp), so a
 * new route without a base body below fails `every documented route has a fuzz base`. Each route gets:
 *   (a) arbitrary JSON (fc.jsonValue, objects over the route's own field names and prototype keys),
 *   (b) its valid base body with ONE field replaced by a hostile value, deleted, or an extra key added,
 *       plus a fixed list of raw JSON texts (10,000-level nesting, 1e999, duplicate keys, __proto__),
 *   (c) raw text / bytes with arbitrary content types;
 * GET routes get the same over their query string and path segments (path traversal, %00, …).
 * /write and /api/v2/write get generated line protocol, /mcp gets JSON-RPC garbage and every tool
 * called with hostile arguments.
 *
 * Contract checked on every response: never a 5xx; a 4xx is `{ok:false, error, message}` with the
 * message naming a field of that route (or body/query); a 2xx is `{ok:true, result: string}`; no
 * request adds a property to a built-in prototype (checked
 * after each request, and undone so one pollution does not poison the rest of the run). Before the fuzz a few facts, readings, a relation and a location are stored;
 * after it they read back exactly the same, and PRAGMA integrity_check is ok.
 *
 * How fast each answers is not asserted here (this runs beside other tests on a shared machine): the
 * slowest hostile request against a plain one, and the recurrence cases below, are rows of `npm run
 * bench` (scripts/bench/stopwatch-io.ts). Seeds are fixed and runs bounded (~15 s alone; each test's
 * timeout is sized for a loaded 2-core machine, FUZZ_TIMEOUT). A failing test lists every DISTINCT broken contract it met (not just
 * the first), each with the exact request, the response, and the server-side error with its stack.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import type { Llm } from '../../src/ai/types.js';
import { OPERATION_TABLES } from '../../src/operations.js';
import { buildTestHub, type TestHub } from '../helpers/hub.js';
import { pollution } from '../helpers/pollution.js';
import {
  CONTENT_TYPES,
  HUGE_STRINGS,
  NASTY_STRINGS,
  NASTY_VALUES,
  NUMERIC_STRINGS,
  PATH_SEGMENTS,
  PROTO,
  RAW_JSON_VALUES,
  TIMESTAMPS,
  UNICODE,
  CONTROL,
  FTS5,
  SQL,
  aroundMax,
  deepArray,
  deepObject,
  rawJsonBodies,
} from './nasty-strings.js';

const SEED = 0x5ec_0005;
/** Each fuzz test's timeout: ~15 s for the file alone on a quiet machine, several times that on a loaded one. */
const FUZZ_TIMEOUT = 120_000;
vi.setConfig({ testTimeout: FUZZ_TIMEOUT });
const RUNS = {
  arbitrary: 20,
  shaped: 60,
  deleted: 8,
  extra: 12,
  raw: 12,
  query: 30,
  path: 30,
  lines: 120,
  mcpEnvelope: 100,
  mcpTool: 20,
};

type Method = 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH' | 'OPTIONS' | 'HEAD';
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  maxLength?: number;
  anyOf?: JsonSchema[];
  [k: string]: unknown;
}
interface Route {
  method: Method;
  /** OpenAPI path, e.g. /profile/{entity_name} */
  path: string;
  body?: JsonSchema;
  query: Record<string, JsonSchema>;
  params: Record<string, JsonSchema>;
}
interface Sent {
  method: Method;
  url: string;
  payload?: string | Buffer;
  headers?: Record<string, string>;
}
interface Outcome extends Sent {
  /** Own properties the request added to Object.prototype / Array.prototype (removed again right away). */
  polluted: string[];
  status: number;
  contentType: string;
  text: string;
  ms: number;
  serverError?: unknown;
}

let hub: TestHub;
let lastServerError: unknown;
const ids: Record<string, number> = {};
const baselineMemoryIds = new Set<number>();
const baselineRelationIds = new Set<number>();
const BASELINE_NAMES = [
  'Ingrid Baseline',
  'Otto Baseline',
  'greenhouse-baseline',
  'baseline spectacles',
  'baseline study',
];
const norm = (s: unknown) => (typeof s === 'string' ? s.trim().toLowerCase() : s);

// ---------------------------------------------------------------------------------------------
// Fake LLM for /extract_and_remember: echoes the text as one fact; text containing `LLM:` makes
// it answer with whatever follows verbatim (a prompt-injected model answering garbage).
const fakeLlm: Llm = {
  provider: 'fake',
  model: 'fuzz',
  async chat(messages) {
    const user = messages.at(-1)?.content ?? '';
    const injected = /LLM:([\s\S]*)$/.exec(user);
    if (injected) return injected[1];
    return JSON.stringify({
      facts: [{ entity_name: 'Fuzz Extract', fact: `Fuzz Extract said: ${user.slice(-300)}`, category: 'general' }],
    });
  },
  async ping() {
    return true;
  },
};

// ---------------------------------------------------------------------------------------------
// Sending and checking

const trunc = (s: unknown, n = 600): string => {
  const t =
    typeof s === 'string'
      ? s
      : Buffer.isBuffer(s)
        ? `<${s.length} bytes> ${s.subarray(0, 120).toString('hex')}`
        : (JSON.stringify(s) ?? String(s));
  return t.length > n ? `${t.slice(0, n)}… (${t.length} chars)` : t;
};

let requestsSent = 0;
async function send(req: Sent): Promise<Outcome> {
  requestsSent++;
  lastServerError = undefined;
  const started = performance.now();
  const res = await hub.app.inject({ method: req.method, url: req.url, payload: req.payload, headers: req.headers });
  const ms = performance.now() - started;
  return {
    ...req,
    polluted: pollution(),
    status: res.statusCode,
    contentType: String(res.headers['content-type'] ?? ''),
    text: res.body,
    ms,
    serverError: res.statusCode >= 500 ? lastServerError : undefined,
  };
}

const stackOf = (e: unknown) =>
  e instanceof Error ? (e.stack ?? e.message) : e === undefined ? '(none captured)' : trunc(e);

function describeOutcome(o: Outcome, problem: string): string {
  return [
    `${problem}`,
    `request: ${o.method} ${trunc(o.url, 300)}`,
    o.headers && Object.keys(o.headers).length ? `headers: ${JSON.stringify(o.headers)}` : '',
    o.payload !== undefined ? `payload: ${trunc(o.payload)}` : '',
    `response: ${o.status} (${Math.round(o.ms)} ms) ${trunc(o.text, 400)}`,
    o.status >= 500 ? `server error: ${stackOf(o.serverError)}` : '',
    o.polluted.length ? `polluted: ${o.polluted.join('; ')}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

const ERROR_CODES = new Set([
  'invalid',
  'unauthorized',
  'not_found',
  'method_not_allowed',
  'conflict',
  'too_large',
  'rate_limited',
]);

/** Field names a message may start with for this route. */
function fieldsOf(route: Route | undefined): Set<string> {
  const s = new Set(['body', 'query', 'params', 'url']);
  if (!route) return s;
  for (const k of Object.keys(route.body?.properties ?? {})) s.add(k);
  for (const k of Object.keys(route.query)) s.add(k);
  for (const k of Object.keys(route.params)) s.add(k);
  return s;
}

/** The contract every HTTP answer must keep; returns a problem or null. */
function problemWith(
  o: Outcome,
  route: Route | undefined,
  opts: { noContent?: boolean; text?: boolean } = {},
): string | null {
  if (o.polluted.length) return `the request polluted a built-in prototype: ${o.polluted.join('; ')}`;
  if (o.status >= 500) return `5xx for client input`;
  if (o.status < 300 && opts.noContent && o.status === 204) return null;
  if (o.status < 300 && opts.text) return null;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(o.text);
  } catch {
    return `answer is not JSON (content-type ${o.contentType})`;
  }
  if (o.status < 300) {
    if (body.ok !== true) return 'a 2xx without ok:true';
    if (typeof body.result !== 'string') return 'a 2xx without a string result';
    return null;
  }
  if (body.ok !== false) return `a ${o.status} without ok:false (not the {ok, error, message} shape)`;
  if (typeof body.error !== 'string' || !ERROR_CODES.has(body.error))
    return `unknown error code ${JSON.stringify(body.error)}`;
  if (typeof body.message !== 'string' || !body.message) return 'error without a message';
  if (o.status === 404 && /^no route (GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS) /.test(body.message)) return null;
  // A path served under other methods (issue #35 item 15): 405 naming the ones to use.
  if (
    o.status === 405 &&
    /^method: \/\S* does not answer [A-Z]+; use [A-Z]+( or [A-Z]+)*( with a JSON body)?$/.test(body.message)
  )
    return null;
  const m = /^([^\s:]+): \S/.exec(body.message);
  if (!m) return `message does not name a field: ${JSON.stringify(body.message)}`;
  const head = m[1].split(/[.[]/)[0];
  if (!fieldsOf(route).has(head))
    return `message names "${m[1]}", not a field of ${route?.method} ${route?.path}: ${JSON.stringify(body.message)}`;
  return null;
}

/** A broken contract; `kind` groups failures that differ only in the generated values. */
class ContractError extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}
const kindOf = (o: Outcome, problem: string) =>
  o.polluted.length
    ? `polluted ${o.polluted.map((p) => p.split(' = ')[0]).join(',')}`
    : `${o.status} ${problem
        .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
        .replace(/\d+/g, 'N')
        .slice(0, 120)}`;

async function expectContract(
  req: Sent,
  route: Route | undefined,
  opts: { noContent?: boolean; text?: boolean } = {},
): Promise<Outcome> {
  const o = await send(req);
  const p = problemWith(o, route, opts);
  if (p) throw new ContractError(kindOf(o, p), describeOutcome(o, p));
  return o;
}

/**
 * Runs `check` on `runs` generated values (fixed seed) and fails with every DISTINCT broken contract
 * found (not just the first), each with its exact request, response and server stack.
 */
async function fuzz<T>(
  arb: fc.Arbitrary<T>,
  runs: number,
  salt: number,
  check: (value: T) => Promise<unknown>,
): Promise<void> {
  const found = new Map<string, string>();
  await fc.assert(
    fc.asyncProperty(arb, async (value) => {
      try {
        await check(value);
      } catch (e) {
        if (!(e instanceof ContractError)) throw e;
        if (!found.has(e.kind)) found.set(e.kind, e.message);
      }
    }),
    { seed: SEED + salt, numRuns: runs },
  );
  if (found.size) throw new Error(`${found.size} distinct problem(s):\n\n${[...found.values()].join('\n\n')}`);
}

/** The same over a fixed list (exhaustive sweeps). */
async function sweep<T>(values: readonly T[], check: (value: T) => Promise<unknown>): Promise<void> {
  const found = new Map<string, string>();
  for (const v of values) {
    try {
      await check(v);
    } catch (e) {
      if (!(e instanceof ContractError)) throw e;
      if (!found.has(e.kind)) found.set(e.kind, e.message);
    }
  }
  if (found.size) throw new Error(`${found.size} distinct problem(s):\n\n${[...found.values()].join('\n\n')}`);
}

// ---------------------------------------------------------------------------------------------
// Bodies

/** A JSON text with `value` at `field` of `base` (raw literals spliced in as written). */
const RAW = Symbol('raw');
type Raw = { [RAW]: string };
const raw = (text: string): Raw => ({ [RAW]: text });
const isRaw = (v: unknown): v is Raw => typeof v === 'object' && v !== null && RAW in v;

function jsonWith(
  base: Record<string, unknown>,
  op: 'replace' | 'delete' | 'extra',
  field: string,
  value: unknown,
): string {
  const obj: Record<string, unknown> = { ...base };
  if (op === 'delete') {
    delete obj[field];
    return JSON.stringify(obj);
  }
  const key = op === 'extra' ? field : field;
  const placeholder = 'RAW_PLACEHOLDER_5ec';
  // Own-property define so "__proto__" becomes a real key (JSON.stringify then writes it).
  Object.defineProperty(obj, key, {
    value: isRaw(value) ? placeholder : value,
    enumerable: true,
    configurable: true,
    writable: true,
  });
  const text = JSON.stringify(obj);
  return isRaw(value) ? text.replace(`"${placeholder}"`, value[RAW]) : text;
}

const withJson = (payload: string | Buffer, ct = 'application/json') => ({ payload, headers: { 'content-type': ct } });

function schemaMax(s: JsonSchema | undefined): number | undefined {
  if (!s) return undefined;
  if (typeof s.maxLength === 'number') return s.maxLength;
  for (const a of s.anyOf ?? []) {
    const m = schemaMax(a);
    if (m !== undefined) return m;
  }
  return undefined;
}

/** A hostile value for one field (its own max length included). */
function nastyFor(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const max = schemaMax(schema);
  return fc.oneof(
    { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 6 },
    { arbitrary: fc.constantFrom(...NASTY_VALUES), weight: 4 },
    { arbitrary: fc.constantFrom(...TIMESTAMPS), weight: 2 },
    { arbitrary: fc.constantFrom(...RAW_JSON_VALUES).map(raw), weight: 2 },
    {
      arbitrary: fc
        .constantFrom(
          deepArray(10_000),
          deepObject(10_000),
          deepObject(1_000, '__proto__'),
          `{"__proto__":{"polluted":1},"a":1}`,
        )
        .map(raw),
      weight: 1,
    },
    { arbitrary: max ? fc.constantFrom(...aroundMax(max)) : fc.constantFrom(...HUGE_STRINGS), weight: 2 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
    { arbitrary: fc.double(), weight: 2 },
    { arbitrary: fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), weight: 1 },
    { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
  );
}

const protoKey = fc.constantFrom(...PROTO);

/** (a) arbitrary JSON: any JSON value, or an object over the route's field names with random values. */
function arbitraryJson(fields: string[]): fc.Arbitrary<string> {
  const key = fields.length
    ? fc.oneof(fc.constantFrom(...fields), protoKey, fc.string({ maxLength: 12 }))
    : fc.oneof(protoKey, fc.string({ maxLength: 12 }));
  return fc.oneof(
    fc.json({ maxDepth: 4 }),
    fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 }).map((o) => JSON.stringify(o)),
    fc
      .tuple(fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }), protoKey, fc.jsonValue({ maxDepth: 2 }))
      .map(([o, k, v]) => jsonWith(o, 'extra', k, v)),
  );
}

/** (c) raw text/bytes with a random content type (or none). */
const rawBody = fc.record({
  payload: fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.constantFrom(...NASTY_STRINGS),
    fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
    fc.json({ maxDepth: 2 }).map((j) => j.slice(0, Math.max(1, j.length - 1))),
  ),
  contentType: fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined }),
  encoding: fc.option(fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-nope'), { nil: undefined, freq: 6 }),
});

// ---------------------------------------------------------------------------------------------
// Valid bases (ids filled in beforeAll). Keys are `${method} ${openapi path}`.

const now = () => hub.clock.now();
const VOICE = Array.from({ length: 16 }, (_, i) => Math.sin(i + 1));
const BASES: Record<string, () => Record<string, unknown>> = {
  'POST /forget': () => ({ memory_id: ids.forgettable }),
  'POST /record': () => ({
    entity_name: 'fuzz room',
    metric: 'temperature',
    value: 21.5,
    unit: '°C',
    source: 'fuzz',
    ts: now() - 60,
  }),
  'POST /record/bulk': () => ({
    readings: [
      { entity_name: 'fuzz room', metric: 'humidity', value: 40, ts: now() - 30 },
      { entity_name: 'fuzz room', metric: 'state', value: 'on' },
    ],
  }),
  'POST /query_stream': () => ({
    entity_name: 'fuzz room',
    metric: 'temperature',
    granularity: 'hour',
    start_ts: now() - 86_400,
    end_ts: now(),
    limit: 100,
  }),
  // One-off: every stored recurring event makes GET /schedule?from=<far future> walk all its occurrences
  // (pinned finding below); recurrence is still fuzzed as the replaced field.
  'POST /schedule': () => ({
    entity_name: 'fuzz calendar',
    title: 'Fuzz practice',
    start_ts: now() + 3600,
    end_ts: now() + 7200,
    meta: { where: 'park' },
  }),
  'POST /get_context_budget': () => ({
    entity_name: 'Fuzz Person',
    query: 'tea',
    token_budget: 400,
    recall_mode: 'hybrid',
    include_readings: true,
  }),
  'POST /cross_query': () => ({ query: 'how is Fuzz Person today', entity_name: 'Fuzz Person', top_k: 3 }),
  'POST /extract_and_remember': () => ({
    text: 'Fuzz Person loves jazz on Sundays',
    entity_name: 'Fuzz Person',
    source: 'fuzz',
  }),
  'POST /open_session': () => ({
    entity_name: 'Fuzz Person',
    entity_type: 'person',
    meta: { device: 'kitchen speaker' },
  }),
  'POST /log_turn': () => ({
    session_id: ids.session,
    role: 'user',
    content: 'please remember the boiler service',
    ts: now(),
  }),
  'POST /close_session': () => ({ session_id: ids.closableSession, summary: 'Talked about the boiler.' }),
  'POST /search_sessions': () => ({ query: 'boiler', entity_name: 'Fuzz Person', limit: 5 }),
  'POST /wm/open': () => ({ task_name: 'plan the fuzz party', entity_name: 'Fuzz Person', ttl_seconds: 3600 }),
  'POST /wm/set': () => ({ task_id: ids.task, key: 'guests', value: ['a', 'b'] }),
  'POST /wm/get': () => ({ task_id: ids.task, key: 'guests' }),
  'POST /wm/close': () => ({ task_id: ids.closableTask, promote: true }),
  'POST /intend': () => ({
    entity_name: 'Fuzz Person',
    trigger_text: 'when Fuzz Person gets home',
    action_text: 'remind about the plumber',
    once: false,
    expires_ts: now() + 86_400,
  }),
  'POST /check_intentions': () => ({ text: 'Fuzz Person just got home', entity_name: 'Fuzz Person' }),
  'POST /dismiss_intention': () => ({ intention_id: ids.intention }),
  'POST /locate': () => ({
    entity_name: 'fuzz keys',
    container_name: 'fuzz drawer',
    confidence: 0.8,
    source: 'fuzz',
    note: 'under the mail',
    ts: now() - 10,
  }),
  'POST /find': () => ({ entity_name: 'fuzz keys', query: 'where are the fuzz keys' }),
  'POST /seen_at': () => ({ entity_name: 'fuzz keys', container_name: 'fuzz drawer', source: 'fuzz', ts: now() - 5 }),
  'GET /health': () => ({}),
  'GET /metrics': () => ({}),
  'GET /schedule': () => ({
    entity_name: 'fuzz calendar',
    from: String(now()),
    to: String(now() + 86_400 * 14),
    limit: '20',
  }),
  'GET /wm/list': () => ({ status: 'all', entity_name: 'Fuzz Person', limit: '10' }),
  'GET /intentions': () => ({ entity_name: 'Fuzz Person', active_only: 'false' }),
  'GET /location_history/{entity_name}': () => ({ entity_name: 'fuzz keys', limit: '5' }),
  'GET /get_session/{session_id}': () => ({ session_id: String(ids.session) }),
  'GET /wm/{task_id}': () => ({ task_id: String(ids.task) }),
  'GET /audit': () => ({ op: 'memory.*', actor: 'http', limit: '10', since: '0' }),
  'GET /api/graph': () => ({ type: 'person,room' }),
  // Line protocol routes take text; their JSON "base" is only used by the JSON strategies (→ 400).
  'POST /write': () => ({}),
  'POST /api/v2/write': () => ({}),
  // issue 15: markdown sync and voices ('Fuzz Notes' / 'Fuzz Speaker' keep delete_missing and merges away from the baseline)
  'GET /export/markdown': () => ({}),
  'GET /export/markdown/{name}': () => ({ name: 'Fuzz Person' }),
  'POST /voices/identify': () => ({ embedding: VOICE, threshold: 0.75, room: 'fuzz hall' }),
  'GET /voices/unknown': () => ({ limit: '10', min_detections: '0' }),
  'POST /voices/enroll': () => ({ entity_name: 'Fuzz Speaker', embedding: VOICE }),
  'POST /voices/merge': () => ({ source_name: 'Fuzz Speaker Two', target_name: 'Fuzz Speaker' }),
  'POST /voices/update_print': () => ({ entity_name: 'Fuzz Speaker', embedding: VOICE, weight: 0.5 }),
  // issue 29: entity management (the others' seeds are their operations' examples; end_relation is one-shot)
  'POST /entities/end_relation': () => ({ relation_id: ids.fuzzRelation }),
};
const LINE_ROUTES = ['/write', '/api/v2/write'];

/** Requests that would legitimately delete the data the test checks afterwards (not an attack). */
function touchesBaseline(path: string, body: unknown): boolean {
  if (!['/forget', '/unrelate', 'forget', 'unrelate'].includes(path) && !path.startsWith('/entities/')) return false;
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  if (typeof b.memory_id === 'number' && baselineMemoryIds.has(b.memory_id)) return true;
  if (
    (typeof b.relation_id === 'number' || typeof b.relation_id === 'string') &&
    baselineRelationIds.has(Number(b.relation_id))
  )
    return true;
  return [b.entity_name, b.entity_a, b.entity_b, b.source_name, b.target_name, b.new_name].some((n) =>
    BASELINE_NAMES.some((x) => norm(x) === norm(n)),
  );
}
const parsedOrUndefined = (t: string): unknown => {
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
};

const key = (r: Route) => `${r.method} ${r.path}`;
/** encodeURIComponent that also takes lone surrogates (sent as their UTF-8 replacement bytes). */
const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');
  }
};
const urlOf = (r: Route, params: Record<string, string>, query = '') =>
  r.path.replace(/\{([^}]+)\}/g, (_, p: string) => params[p] ?? 'x') + (query ? `?${query}` : '');
const qs = (q: Record<string, unknown>) =>
  Object.entries(q)
    .map(([k, v]) => `${enc(k)}=${enc(typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined'))}`)
    .join('&');

// ---------------------------------------------------------------------------------------------
// Baseline: stored before the fuzz, read back identically after it.

async function ok(method: Method, url: string, body?: unknown) {
  const o = await send({ method, url, ...(body !== undefined && withJson(JSON.stringify(body))) });
  if (o.status !== 200) throw new Error(`setup ${method} ${url} → ${o.status} ${o.text}`);
  return JSON.parse(o.text);
}

const stripScores = (results: Record<string, unknown>[]) =>
  results.map(({ score: _s, explain: _e, ...rest }) => rest).sort((a, b) => Number(a.id) - Number(b.id));

const BASELINE_FACTS: [string, string, string][] = [
  ['Ingrid Baseline', 'Ingrid Baseline keeps the greenhouse at 18 degrees', 'preference'],
  ['Ingrid Baseline', 'Ingrid Baseline is allergic to walnuts', 'general'],
  ['Otto Baseline', 'Otto Baseline walks the dog every morning at seven', 'routine'],
];

/**
 * What the baseline reads back as: each fact recalled (by its own words, scoped to its entity, in
 * every mode) with all its fields but the corpus-dependent score; profile, relations, readings
 * (raw, hourly, categorical), the object's place and history.
 */
async function snapshot() {
  const recalled: Record<string, unknown>[] = [];
  for (const [entity_name, fact] of BASELINE_FACTS) {
    for (const mode of ['keyword', 'vector', 'hybrid']) {
      const results = (await ok('POST', '/recall', { query: fact, entity_name, mode, top_k: 10 })).results as Record<
        string,
        unknown
      >[];
      recalled.push({ mode, fact, hit: stripScores(results.filter((r) => r.fact === fact)) });
    }
  }
  return {
    recalled,
    profile: await ok('GET', '/profile/Ingrid%20Baseline'),
    related: (await ok('POST', '/get_related', { entity_name: 'Ingrid Baseline' })).relations,
    raw: (await ok('POST', '/query_stream', { entity_name: 'greenhouse-baseline', metric: 'temperature', start_ts: 0 }))
      .points,
    hourly: (
      await ok('POST', '/query_stream', {
        entity_name: 'greenhouse-baseline',
        metric: 'temperature',
        granularity: 'hour',
        start_ts: 0,
      })
    ).points,
    state: (await ok('POST', '/query_stream', { entity_name: 'greenhouse-baseline', metric: 'vent', start_ts: 0 }))
      .points,
    found: await ok('POST', '/find', { entity_name: 'baseline spectacles' }),
    history: (await ok('GET', '/location_history/baseline%20spectacles')).locations,
  };
}
let before: Awaited<ReturnType<typeof snapshot>>;

/** Every route in the OpenAPI document (read from a throwaway hub at collection time), plus GET /docs. */
async function discoverRoutes(): Promise<Route[]> {
  const h = await buildTestHub();
  try {
    const docs = (await h.app.inject({ url: '/docs' })).json() as {
      paths: Record<string, Record<string, Record<string, any>>>;
    };
    const out: Route[] = [{ method: 'GET', path: '/docs', query: {}, params: {} }];
    for (const [path, ops] of Object.entries(docs.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const params = (op.parameters ?? []) as { in: string; name: string; schema: JsonSchema }[];
        out.push({
          method: method.toUpperCase() as Method,
          path,
          body: op.requestBody?.content?.['application/json']?.schema,
          query: Object.fromEntries(params.filter((p) => p.in === 'query').map((p) => [p.name, p.schema])),
          params: Object.fromEntries(
            params.filter((p) => p.in === 'path' && path.includes(`{${p.name}}`)).map((p) => [p.name, p.schema]),
          ),
        });
      }
    }
    return out;
  } finally {
    await h.close();
  }
}
const routes: Route[] = await discoverRoutes();
BASES['GET /docs'] = () => ({});
// Operations declared in a tier's table bring their own seed (their `example`).
for (const op of OPERATION_TABLES.flatMap((t) => t.operations))
  if (op.http && op.example)
    BASES[`${op.http.method} ${op.http.path.replace(/:(\w+)/g, '{$1}')}`] ??= () => structuredClone(op.example!);
const routeFor = (method: Method, path: string) => routes.find((r) => r.method === method && r.path === path);

beforeAll(async () => {
  hub = await buildTestHub({ llm: fakeLlm });
  // Capture the server-side error (with its stack) behind any 5xx.
  hub.app.addHook('onError', async (_req, _reply, err) => {
    lastServerError = err;
  });

  // Baseline data.
  for (const [entity_name, fact, category] of BASELINE_FACTS)
    baselineMemoryIds.add((await ok('POST', '/remember', { entity_name, fact, category })).id);
  baselineRelationIds.add(
    (await ok('POST', '/relate', { entity_a: 'Ingrid Baseline', entity_b: 'Otto Baseline', rel_type: 'spouse_of' })).id,
  );
  for (let i = 0; i < 12; i++) {
    await ok('POST', '/record', {
      entity_name: 'greenhouse-baseline',
      metric: 'temperature',
      value: 17 + (i % 4) * 0.5,
      unit: '°C',
      ts: now() - 3600 * 6 + i * 1800,
    });
  }
  await ok('POST', '/record', { entity_name: 'greenhouse-baseline', metric: 'vent', value: 'open', ts: now() - 120 });
  await ok('POST', '/locate', {
    entity_name: 'baseline spectacles',
    container_name: 'baseline study',
    ts: now() - 300,
  });
  before = await snapshot();

  // Ids the bases refer to, and one of each thing the bases read.
  ids.forgettable = (
    await ok('POST', '/remember', { entity_name: 'Fuzz Forgettable', fact: 'Fuzz Forgettable is temporary' })
  ).id;
  ids.session = (await ok('POST', '/open_session', { entity_name: 'Fuzz Person' })).session_id;
  ids.closableSession = (await ok('POST', '/open_session', { entity_name: 'Fuzz Person' })).session_id;
  await ok('POST', '/log_turn', { session_id: ids.session, role: 'user', content: 'the boiler needs a service' });
  ids.task = (await ok('POST', '/wm/open', { task_name: 'fuzz scratchpad', entity_name: 'Fuzz Person' })).task_id;
  ids.closableTask = (await ok('POST', '/wm/open', { task_name: 'fuzz closable' })).task_id;
  await ok('POST', '/wm/set', { task_id: ids.task, key: 'guests', value: 3 });
  ids.intention = (
    await ok('POST', '/intend', {
      entity_name: 'Fuzz Person',
      trigger_text: 'when the fuzz starts',
      action_text: 'say hello',
    })
  ).id;
  for (const path of ['/remember', '/record', '/locate', '/relate', '/schedule'])
    await ok('POST', path, BASES[`POST ${path}`]());
  for (const name of ['Fuzz Speaker', 'Fuzz Speaker Two'])
    await ok('POST', '/voices/enroll', { entity_name: name, embedding: VOICE });
  await ok('POST', '/alias', { entity_name: 'Fuzz Person', alias: 'Fuzz Nickname Two' });
  ids.fuzzRelation = (
    await ok('POST', '/relate', { entity_a: 'Fuzz Person', entity_b: 'Fuzz Pet', rel_type: 'owns' })
  ).id;
  for (const name of ['Fuzz Mergeable', 'Fuzz Renamable', 'Fuzz Deletable'])
    await ok('POST', '/remember', { entity_name: name, fact: `${name} is here for the fuzz` });
}, 60_000);

afterAll(async () => {
  if (process.env.FUZZ_STATS) console.log(`fuzz-http: ${requestsSent} requests`);
  await hub?.close();
});

// ---------------------------------------------------------------------------------------------

describe('HTTP fuzz: route discovery', () => {
  it('every documented route has a fuzz base (new routes must be added here)', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.map(key).filter((k) => !BASES[k])).toEqual([]);
  });

  it('each base is valid as written (so one-field mutations test one thing)', async () => {
    for (const r of routes) {
      if (
        [
          '/forget',
          '/close_session',
          '/wm/close',
          '/dismiss_intention',
          '/voices/merge',
          '/entities/end_relation',
          ...LINE_ROUTES,
        ].includes(r.path)
      )
        continue; // one-shot or text
      const base = BASES[key(r)]();
      const o =
        r.method === 'POST'
          ? await send({ method: 'POST', url: r.path, ...withJson(JSON.stringify(base)) })
          : await send({
              method: r.method,
              url: urlOf(
                r,
                base as Record<string, string>,
                qs(Object.fromEntries(Object.entries(base).filter(([k]) => !(k in r.params)))),
              ),
            });
      expect(o.status, `${key(r)}: ${o.text.slice(0, 300)}`).toBeLessThan(300);
    }
  });
});

const STRING_CORPUS = [...FTS5, ...SQL, ...PROTO, ...CONTROL, ...UNICODE];
const OPS = [
  ['one field replaced by a hostile value', 'replace', RUNS.shaped],
  ['one field deleted', 'delete', RUNS.deleted],
  ['a hostile extra key', 'extra', RUNS.extra],
] as const;

for (const [i, r] of routes.filter((x) => x.method === 'POST' && !LINE_ROUTES.includes(x.path)).entries()) {
  const props = r.body?.properties ?? {};
  const fields = Object.keys(props);
  const stringFields = Object.entries(props)
    .filter(([, s]) => s.type === 'string' && !('enum' in s))
    .map(([f]) => f);
  describe(`HTTP fuzz: POST ${r.path}`, () => {
    it(`(a) arbitrary JSON ×${RUNS.arbitrary}`, async () => {
      await fuzz(arbitraryJson(fields), RUNS.arbitrary, i, async (text) => {
        fc.pre(!touchesBaseline(r.path, parsedOrUndefined(text)));
        await expectContract({ method: 'POST', url: r.path, ...withJson(text) }, r);
      });
    });

    for (const [name, op, runs] of OPS) {
      if (!fields.length && op !== 'extra') continue;
      it(`(b) ${name} ×${runs}`, async () => {
        const fieldArb =
          op === 'extra' ? fc.oneof(protoKey, fc.constantFrom(...NASTY_STRINGS)) : fc.constantFrom(...fields);
        const arb = fieldArb.chain((field) =>
          fc.tuple(fc.constant(field), op === 'delete' ? fc.constant(undefined) : nastyFor(props[field])),
        );
        await fuzz(arb, runs, i + 100, async ([field, value]) => {
          const body = jsonWith(BASES[key(r)](), op, field, value);
          fc.pre(!touchesBaseline(r.path, parsedOrUndefined(body)));
          await expectContract({ method: 'POST', url: r.path, ...withJson(body) }, r);
        });
      });
    }

    if (stringFields.length) {
      it(`(b) the FTS5/SQL/control/Unicode corpus round-robin over ${stringFields.join(', ')}; prototype keys in each`, async () => {
        // Prototype keys go to every field (dictionary lookups by user text); the rest round-robin.
        const cases = [
          ...stringFields.flatMap((f) => PROTO.map((v) => [f, v] as const)),
          ...STRING_CORPUS.filter((v) => !(PROTO as readonly string[]).includes(v)).map(
            (v, j) => [stringFields[(j + i) % stringFields.length], v] as const,
          ),
        ];
        await sweep(cases, async ([field, value]) => {
          const body = jsonWith(BASES[key(r)](), 'replace', field, value);
          if (touchesBaseline(r.path, JSON.parse(body))) return;
          await expectContract({ method: 'POST', url: r.path, ...withJson(body) }, r);
        });
      });
    }

    it('(b) raw JSON texts: 10,000-level nesting, 1e999, duplicate keys, __proto__, huge arrays, broken JSON', async () => {
      await sweep(rawJsonBodies(fields), (text) =>
        expectContract({ method: 'POST', url: r.path, ...withJson(text) }, r),
      );
    });

    it(`(c) raw text and bytes with arbitrary content types ×${RUNS.raw}`, async () => {
      await fuzz(rawBody, RUNS.raw, i + 200, async ({ payload, contentType, encoding }) => {
        const headers: Record<string, string> = {};
        if (contentType !== undefined) headers['content-type'] = contentType;
        if (encoding !== undefined) headers['content-encoding'] = encoding;
        const o = await expectContract({ method: 'POST', url: r.path, payload, headers }, r);
        // An empty or blank payload is no body, which a route whose fields are all optional takes as {} (next test).
        const noBody = String(payload).trim() === '';
        if (o.status < 400 && !noBody)
          throw new ContractError('text accepted', describeOutcome(o, 'a non-JSON body was accepted'));
      });
    });

    it('empty body, no body, null, and a body over the 1 MiB limit', async () => {
      const bodies: { payload?: string; headers: Record<string, string> }[] = [
        { payload: '', headers: { 'content-type': 'application/json' } },
        { payload: undefined, headers: {} },
        { payload: 'null', headers: { 'content-type': 'application/json' } },
        {
          payload: JSON.stringify({ ...BASES[key(r)](), pad: 'x'.repeat(1024 * 1024) }),
          headers: { 'content-type': 'application/json' },
        },
      ];
      await sweep(bodies, async (req) => {
        const o = await expectContract({ method: 'POST', url: r.path, ...req }, r);
        // Bodies whose every field is optional may accept "no body"; the oversized one never.
        if (req.payload && req.payload !== 'null' && o.status < 400)
          throw new ContractError('accepted', describeOutcome(o, 'an oversized body was accepted'));
      });
    });
  });
}

for (const [i, r] of routes.filter((x) => x.method === 'GET').entries()) {
  const names = Object.keys(r.query);
  const base = () => BASES[key(r)]() as Record<string, string>;
  const query = () => Object.fromEntries(Object.entries(base()).filter(([k]) => !(k in r.params)));
  const textual = r.path === '/metrics' || r.path === '/docs' || r.path.startsWith('/export/markdown');
  describe(`HTTP fuzz: GET ${r.path}`, () => {
    it(`(a) arbitrary query strings ×${RUNS.query}`, async () => {
      const keys = [...names, ...PROTO, 'a[b]', 'a.b'];
      const arb = fc.oneof(
        fc
          .dictionary(
            fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 8 })),
            fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom(...NASTY_STRINGS)),
            { maxKeys: 5 },
          )
          .map(qs),
        fc.string({ maxLength: 80 }), // unencoded: %, #, &&, =, …
        fc.constantFrom(...PATH_SEGMENTS),
        ...(names.length
          ? [
              fc
                .constantFrom(...names)
                .chain((k) =>
                  fc
                    .array(fc.constantFrom(...NUMERIC_STRINGS, 'true', 'x'), { minLength: 2, maxLength: 4 })
                    .map((vs) => vs.map((v) => `${k}=${enc(v)}`).join('&')),
                ),
            ]
          : []),
      );
      await fuzz(arb, RUNS.query, i + 300, (q) =>
        expectContract({ method: 'GET', url: urlOf(r, base(), q) }, r, { text: textual }),
      );
    });

    if (names.length) {
      it(`(b) one query parameter replaced by a hostile value ×${RUNS.query}`, async () => {
        await fuzz(fc.tuple(fc.constantFrom(...names), nastyFor(undefined)), RUNS.query, i + 400, ([name, value]) =>
          expectContract(
            { method: 'GET', url: urlOf(r, base(), qs({ ...query(), [name]: isRaw(value) ? value[RAW] : value })) },
            r,
          ),
        );
      });
    }

    const param = Object.keys(r.params)[0];
    if (param) {
      it(`(b) path segment: traversal, %00, encoded slashes, huge and Unicode ×${RUNS.path} + the traversal list`, async () => {
        const segment = fc.oneof(
          fc.constantFrom(...PATH_SEGMENTS),
          fc.constantFrom(...NASTY_STRINGS).map(enc),
          fc
            .constantFrom(...NASTY_STRINGS.filter((s) => !/[\ud800-\udfff]/.test(s)))
            .map((s) => encodeURIComponent(s).replaceAll('%2F', '/')),
          fc.string({ unit: 'grapheme', maxLength: 30 }).map(enc),
          fc.constantFrom(...aroundMax(200)).map(enc),
        );
        const at = (seg: string) =>
          expectContract({ method: 'GET', url: `${r.path.replace(`{${param}}`, seg)}?${qs(query())}` }, r, {
            text: textual,
          });
        await fuzz(segment, RUNS.path, i + 500, at);
        await sweep(PATH_SEGMENTS, at);
      });
    }
  });
}

describe('HTTP fuzz: unusual methods', () => {
  it('PUT, PATCH, DELETE, OPTIONS on every path, and HEAD on the GET routes, keep the error shape', async () => {
    const paths = [...new Set(routes.map((r) => r.path.replace(/\{[^}]+\}/g, 'x')))];
    const cases = paths.flatMap((path) =>
      (['PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const).map((method) => [method, path] as const),
    );
    await sweep(cases, ([method, url]) =>
      expectContract({ method: method as Method, url, ...withJson('{}') }, undefined),
    );
    for (const r of routes.filter((x) => x.method === 'GET')) {
      const o = await send({ method: 'HEAD' as Method, url: r.path.replace(/\{[^}]+\}/g, '1') });
      expect(o.status, describeOutcome(o, 'HEAD')).toBeLessThan(500);
    }
  });
});

describe('HTTP fuzz: path traversal', () => {
  it('the path routes are the six expected', () => {
    expect(
      routes
        .filter((r) => Object.keys(r.params).length)
        .map((r) => r.path)
        .sort(),
    ).toEqual([
      '/aliases/{entity_name}',
      '/export/markdown/{name}',
      '/get_session/{session_id}',
      '/location_history/{entity_name}',
      '/profile/{entity_name}',
      '/wm/{task_id}',
    ]);
  });
  it('a traversal segment never reaches the file system or another route', async () => {
    for (const url of [
      '/profile/..%2F..%2F..%2Fetc%2Fpasswd',
      '/profile/%2e%2e%2f%2e%2e%2fhealth',
      '/location_history/..%2Fhealth',
      '/profile/..%2F..%2Fdocs',
      '/aliases/..%2F..%2Fhealth',
    ]) {
      const o = await send({ method: 'GET', url });
      expect(o.status, o.text).toBe(404);
      expect(o.text).not.toMatch(/root:|"status":"ok"|openapi/);
    }
  });
});
// ---------------------------------------------------------------------------------------------
// Line protocol

const lpName = fc.oneof(
  fc.constantFrom(
    'cpu',
    'weather',
    'sensor',
    '°C',
    'a b',
    'a,b',
    'a=b',
    '#comment',
    '"quoted"',
    ...PROTO,
    ...UNICODE.slice(0, 8),
  ),
  fc.string({ maxLength: 12 }),
);
const lpEscape = (s: string) => s.replace(/([ ,=\\])/g, '\\$1');
const lpValue = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => String(d)),
  fc.integer().map((n) => `${n}i`),
  fc.nat().map((n) => `${n}u`),
  fc.constantFrom(
    't',
    'F',
    'true',
    'FALSE',
    'NaN',
    'Inf',
    '-Inf',
    '1e999',
    '-0',
    '1i',
    '-1u',
    '9999999999999999999999i',
    '18446744073709551616u',
    '',
    '"',
    '""',
    '"\\"',
    '"a\\"b"',
    '1.2.3',
    '0x10',
  ),
  fc.string({ maxLength: 20 }).map((s) => `"${s.replace(/(["\\])/g, '\\$1')}"`),
  fc.string({ maxLength: 10 }),
);
const lpTs = fc.oneof(
  fc.constant(''),
  fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
  fc.constantFrom(
    '-62135596800',
    '253402300799',
    '1796058600000000000',
    '0',
    '-0',
    '1e9',
    'now',
    '99999999999999999999999999999',
  ),
  fc.constant(undefined).map(() => String(BigInt(Math.round(now())) * 1_000_000_000n)),
);
const lpLine = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(
        lpName,
        fc.array(fc.tuple(lpName, lpName), { maxLength: 3 }),
        fc.array(fc.tuple(lpName, lpValue), { minLength: 0, maxLength: 3 }),
        lpTs,
      )
      .map(
        ([m, tags, fields, ts]) =>
          `${lpEscape(m)}${tags.map(([k, v]) => `,${lpEscape(k)}=${lpEscape(v)}`).join('')} ${fields.map(([k, v]) => `${lpEscape(k)}=${v}`).join(',')}${ts ? ` ${ts}` : ''}`,
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '#',
      '',
      ' ',
      '\\',
      'm',
      'm ',
      'm v',
      'm v=',
      'm =1',
      'm,=x v=1',
      'm,t= v=1',
      'm v=1 x',
      'm v=1 1 2',
      '\u0000 v=1',
      'm\u0000 v=1',
      'm v="\u0000"',
      `${'m'.repeat(70_000)} v=1`,
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
);

describe('HTTP fuzz: line protocol', () => {
  for (const [i, r] of routes.filter((x) => LINE_ROUTES.includes(x.path)).entries()) {
    describe(`POST ${r.path}`, () => {
      it(`generated line protocol, any precision, plain and gzip ×${RUNS.lines}`, async () => {
        const precision = fc.oneof(
          fc.constantFrom('n', 'ns', 'u', 'us', 'ms', 's'),
          fc.constantFrom(...NASTY_STRINGS.slice(0, 20)),
        );
        const arb = fc.tuple(
          fc.array(lpLine, { minLength: 1, maxLength: 8 }),
          precision,
          fc.boolean(),
          fc.constantFrom('\n', '\r\n', '\n\n'),
        );
        await fuzz(arb, RUNS.lines, i + 600, async ([lines, p, gzip, sep]) => {
          const text = lines.join(sep);
          const headers: Record<string, string> = {
            'content-type': 'text/plain; charset=utf-8',
            ...(gzip && { 'content-encoding': 'gzip' }),
          };
          await expectContract(
            {
              method: 'POST',
              url: `${r.path}?${qs({ precision: p, db: 'home', bucket: 'home', org: 'x' })}`,
              payload: gzip ? gzipSync(text) : text,
              headers,
            },
            r,
            { noContent: true },
          );
        });
      });

      it(`(a)/(c) JSON, raw text and bytes with any content type ×${RUNS.raw * 2}`, async () => {
        await fuzz(
          fc.oneof(
            rawBody,
            arbitraryJson([]).map((payload) => ({ payload, contentType: 'application/json', encoding: undefined })),
          ),
          RUNS.raw * 2,
          i + 650,
          async ({ payload, contentType, encoding }) => {
            const headers: Record<string, string> = {};
            if (contentType !== undefined) headers['content-type'] = contentType;
            if (encoding !== undefined) headers['content-encoding'] = encoding;
            await expectContract({ method: 'POST', url: r.path, payload, headers }, r, { noContent: true });
          },
        );
      });

      it('oversized, gzip bombs, truncated gzip, 50,001 lines, 20,000 fields', async () => {
        const bodies: [Buffer | string, Record<string, string>][] = [
          [gzipSync(Buffer.alloc(11 * 1024 * 1024, 0x61)), { 'content-encoding': 'gzip' }],
          [gzipSync('m v=1').subarray(0, 10), { 'content-encoding': 'gzip' }],
          [Buffer.from('not gzip'), { 'content-encoding': 'gzip' }],
          [Array.from({ length: 50_001 }, () => 'm v=1').join('\n'), {}],
          [Buffer.alloc(10 * 1024 * 1024 + 1, 0x61), {}],
          ['\\'.repeat(100_000), {}],
          [`m ${'f=1,'.repeat(20_000)}g=1`, {}],
          ['', {}],
        ];
        await sweep(bodies, ([payload, headers]) =>
          expectContract(
            { method: 'POST', url: r.path, payload, headers: { 'content-type': 'text/plain', ...headers } },
            r,
            { noContent: true },
          ),
        );
      });
    });
  }
});
// ---------------------------------------------------------------------------------------------
// MCP

const ACCEPT = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const TOOL_BASES: Record<string, () => Record<string, unknown>> = {
  get_profile: () => ({ entity_name: 'Fuzz Person' }),
  get_session: () => ({ session_id: ids.session }),
  location_history: () => ({ entity_name: 'fuzz keys', limit: 5 }),
  wm_list: () => ({ status: 'all' }),
  list_intentions: () => ({ entity_name: 'Fuzz Person', active_only: false }),
  get_fading_memories: () => ({ threshold: 0.5 }),
};
const toolBase = (tool: string) => {
  const http = `POST /${tool.replace(/^wm_/, 'wm/')}`;
  return (TOOL_BASES[tool] ?? BASES[http] ?? (() => ({})))();
};

function isSdkEnvelopeIssue(message: string): boolean {
  const issues = parsedOrUndefined(message);
  return (
    Array.isArray(issues) &&
    issues.length > 0 &&
    issues.every((i) => Array.isArray(i?.path) && i.path[0] === 'params' && typeof i.code === 'string')
  );
}

/** MCP answers in JSON-RPC: 2xx with a result or error, 202 for notifications, 4xx JSON-RPC errors; never a 5xx or an internal tool error. */
function mcpProblem(o: Outcome): string | null {
  if (o.polluted.length) return `the request polluted a built-in prototype: ${o.polluted.join('; ')}`;
  if (o.status >= 500) return '5xx from /mcp';
  if (o.status === 202 && o.text === '') return null;
  let body: any;
  try {
    body = JSON.parse(o.text);
  } catch {
    return `answer is not JSON: ${o.contentType}`;
  }
  if (o.status >= 400 && body?.ok === false)
    return problemWith(o, { method: 'POST', path: '/mcp', query: {}, params: {} }); // Fastify-level error (bad JSON)
  const messages = Array.isArray(body) ? body : [body];
  for (const m of messages) {
    if (m?.jsonrpc !== '2.0') return 'not a JSON-RPC answer';
    if (m.error) {
      if (typeof m.error.code !== 'number' || typeof m.error.message !== 'string')
        return 'JSON-RPC error without code/message';
      // The SDK answers an envelope that fails its own schema (e.g. `arguments` not an object) with
      // -32603 and the zod issues (it should be -32602); anything else with -32603 came from our code.
      if (m.error.code === -32603 && !isSdkEnvelopeIssue(m.error.message))
        return `JSON-RPC internal error: ${m.error.message}`;
      continue;
    }
    const sc = m.result?.structuredContent;
    if (m.result?.isError && sc?.error === 'internal') return `tool failed internally: ${JSON.stringify(sc)}`;
    if (
      m.result?.isError &&
      (typeof sc?.message !== 'string' || !/^[^\s:]+: \S/.test(sc.message) || !ERROR_CODES.has(sc.error))
    ) {
      return `tool error without {error, message naming a field}: ${trunc(m.result)}`;
    }
  }
  return null;
}

async function mcp(payload: string, headers: Record<string, string> = ACCEPT) {
  const o = await send({ method: 'POST', url: '/mcp', payload, headers });
  const p = mcpProblem(o);
  if (p) throw new ContractError(kindOf(o, p), describeOutcome(o, p));
  return o;
}

describe('HTTP fuzz: POST /mcp (JSON-RPC)', () => {
  it(`garbage bodies and malformed envelopes ×${RUNS.mcpEnvelope}: 4xx or a JSON-RPC error, never a 5xx`, async () => {
    const method = fc.oneof(
      fc.constantFrom(
        'initialize',
        'tools/list',
        'tools/call',
        'ping',
        'notifications/initialized',
        'resources/list',
        'prompts/get',
        'logging/setLevel',
        'completion/complete',
        '',
        'rpc.discover',
      ),
      fc.constantFrom(...NASTY_STRINGS),
    );
    const envelope = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), fc.constantFrom('1.0', '', 2, null)),
        id: fc.oneof(
          fc.integer(),
          fc.string({ maxLength: 10 }),
          fc.constant(null),
          fc.constantFrom(...NASTY_VALUES.slice(0, 10)),
        ),
        method,
        params: fc.oneof(
          fc.jsonValue({ maxDepth: 3 }),
          fc.record({ name: fc.constantFrom(...NASTY_STRINGS), arguments: fc.jsonValue({ maxDepth: 2 }) }),
        ),
      },
      { requiredKeys: [] },
    );
    const arb = fc.tuple(
      fc.oneof(
        envelope.map((e) => JSON.stringify(e)),
        fc.array(envelope, { maxLength: 4 }).map((a) => JSON.stringify(a)),
        fc.json({ maxDepth: 3 }),
        fc.string({ maxLength: 100 }),
      ),
      fc.constantFrom(
        ACCEPT,
        { 'content-type': 'application/json' },
        { accept: 'text/event-stream', 'content-type': 'application/json' },
        { ...ACCEPT, 'content-type': 'text/plain' },
      ),
    );
    await fuzz(arb, RUNS.mcpEnvelope, 700, ([payload, headers]) => mcp(payload, headers));
  });

  it('raw JSON texts (10,000-level nesting, 1e999, __proto__, …) and GET/DELETE', async () => {
    await sweep(rawJsonBodies(['jsonrpc', 'method']), (text) => mcp(text));
    for (const m of ['GET', 'DELETE'] as const)
      expect((await send({ method: m, url: '/mcp', headers: { accept: ACCEPT.accept } })).status).toBe(405);
  });

  it(`every tool called with hostile arguments (×${RUNS.mcpTool} each): never an internal tool error`, async () => {
    const list = JSON.parse((await mcp(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }))).text);
    const tools = list.result.tools as { name: string; inputSchema: JsonSchema }[];
    expect(tools.length).toBeGreaterThanOrEqual(35);
    const found: string[] = [];
    for (const [i, t] of tools.entries()) {
      const props = t.inputSchema.properties ?? {};
      const fields = Object.keys(props);
      // Arguments as JSON text (raw literals and 10,000-level nesting spliced in as written).
      const args = fc.oneof(
        fields.length
          ? fc
              .constantFrom(...fields)
              .chain((f) => fc.tuple(fc.constant(f), nastyFor(props[f])))
              .map(([f, v]) => jsonWith(toolBase(t.name), 'replace', f, v))
          : fc.constant(JSON.stringify(toolBase(t.name))),
        fc.json({ maxDepth: 3 }),
        fc
          .dictionary(
            fc.oneof(fc.constantFrom(...(fields.length ? fields : ['x'])), fc.constantFrom(...PROTO)),
            fc.jsonValue({ maxDepth: 2 }),
            { maxKeys: 5 },
          )
          .map((o) => JSON.stringify(o)),
      );
      const call = async (a: string) => {
        fc.pre(!touchesBaseline(t.name, parsedOrUndefined(a)));
        await mcp(
          `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":${JSON.stringify(t.name)},"arguments":${a}}}`,
        );
      };
      try {
        await fuzz(args, RUNS.mcpTool, i + 800, call);
        // Every field once as 10,000-level nesting and once as "constructor".
        await sweep(
          fields.flatMap((f) => [
            jsonWith(toolBase(t.name), 'replace', f, raw(deepArray(10_000))),
            jsonWith(toolBase(t.name), 'replace', f, 'constructor'),
          ]),
          (a) =>
            mcp(
              `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":${JSON.stringify(t.name)},"arguments":${a}}}`,
            ),
        );
      } catch (e) {
        found.push(`tool ${t.name}: ${(e as Error).message}`);
      }
    }
    if (found.length) throw new Error(found.join('\n\n'));
  });
});

// ---------------------------------------------------------------------------------------------
// Findings pinned as plain regression tests (each also surfaces in the fuzz above).

describe('HTTP fuzz: pinned findings', () => {
  it('POST /wm/set with a 10,000-level nested value is a 400, not a 500 (stack overflow in the size check)', async () => {
    await expectContract(
      {
        method: 'POST',
        url: '/wm/set',
        ...withJson(`{"task_id":${ids.task},"key":"deep","value":${deepArray(10_000)}}`),
      },
      routes.find((r) => r.path === '/wm/set'),
    );
    await expectContract(
      {
        method: 'POST',
        url: '/wm/set',
        ...withJson(`{"task_id":${ids.task},"key":"deep","value":${deepObject(10_000)}}`),
      },
      routes.find((r) => r.path === '/wm/set'),
    );
  });

  it('a malformed percent-encoding in the URL answers the {ok:false, error, message} shape', async () => {
    for (const url of ['/profile/%', '/profile/%zz', '/location_history/%E0%A4%A', '/wm/%', '/get_session/%']) {
      const o = await send({ method: 'GET', url });
      const p = problemWith(
        o,
        routes.find((r) => url.startsWith(r.path.split('{')[0]) && r.path.includes('{')),
      );
      expect(p, describeOutcome(o, p ?? '')).toBeNull();
    }
  });

  // How long these two take (the recurrence walked from the event start blocked the hub for seconds) is a
  // row of `npm run bench` (scripts/bench/stopwatch-io.ts); here, the answer keeps the contract.
  it('GET /schedule with a far-future window keeps the contract (recurrence expansion from the event start)', async () => {
    // One ordinary weekly event starting now; `from` near year 9999 makes rrule walk every week in between
    // (2.3 s here; a daily event 13 s, an hourly one minutes — and the hub answers no one meanwhile).
    await ok('POST', '/schedule', {
      entity_name: 'fuzz weekly',
      title: 'Bins out',
      start_ts: now(),
      recurrence: 'FREQ=WEEKLY',
    });
    await expectContract(
      { method: 'GET', url: '/schedule?entity_name=fuzz%20weekly&from=253402000000' },
      routeFor('GET', '/schedule'),
    );
  });

  it('POST /schedule of an hourly event starting in year 1 keeps the contract', async () => {
    // Computing next_ts walks every hour since the start: ~3.5 s here (year 1 is expanded from 1901 — Date.UTC
    // maps years 0–99 to 19xx), 33 s from year 1000; MINUTELY from year 1 > 60 s, SECONDLY hours. Every later
    // GET /schedule, profile and get_context_budget of that entity pays the same again.
    const r = routeFor('POST', '/schedule');
    const body = {
      entity_name: 'fuzz year one',
      title: 'Ancient chime',
      start_ts: -62135596800,
      recurrence: 'FREQ=HOURLY',
    };
    await expectContract({ method: 'POST', url: '/schedule', ...withJson(JSON.stringify(body)) }, r);
  });

  it('a weekly event starting in year 1 recurs on its own weekday (0001-01-01 is a Monday; Date.UTC maps years 0–99 to 19xx)', async () => {
    await ok('POST', '/schedule', {
      entity_name: 'fuzz year one weekly',
      title: 'Ancient market',
      start_ts: '0001-01-01T09:00:00Z',
      recurrence: 'FREQ=WEEKLY',
    });
    const list = await ok('GET', '/schedule?entity_name=fuzz%20year%20one%20weekly');
    const days = (list.occurrences as { start_ts: number }[]).map((o) => new Date(o.start_ts * 1000).getUTCDay());
    expect(days.length).toBeGreaterThan(0);
    expect(days, JSON.stringify(list.occurrences)).toEqual(days.map(() => 1));
  });

  it('/extract_and_remember survives an LLM answering hostile JSON (prompt injection): never a 500', async () => {
    const r = routeFor('POST', '/extract_and_remember');
    // A model answering junk is a backend failure: 503 `unavailable` is the documented answer (SPEC §6), 500 is not.
    const check = async (answer: string) => {
      const o = await send({
        method: 'POST',
        url: '/extract_and_remember',
        ...withJson(JSON.stringify({ text: `LLM:${answer}` })),
      });
      const body = parsedOrUndefined(o.text) as Record<string, unknown> | undefined;
      if (o.status === 503 && body?.error === 'unavailable' && /LLM/.test(String(body.message))) return;
      const p = problemWith(o, r);
      if (p) throw new ContractError(kindOf(o, p), describeOutcome(o, p));
    };
    await sweep(
      [
        '{"facts":[null]}',
        '{"facts":[1,"x",true,[]]}',
        '{"facts":[{"entity_name":{"__proto__":1},"fact":["a"]}]}',
        `{"facts":[{"entity_name":"Fuzz Extract","fact":"x","fact_key":${deepArray(5000)}}]}`,
        '{"facts":[{"entity_name":"__proto__","fact":"constructor","category":"toString"}]}',
        '{"facts":{"length":3}}',
        '{"facts":"all of them"}',
        '{}',
        'not json at all',
        '{"facts":[{"entity_name":"\\u0000","fact":"\\u0000"}]}',
      ],
      check,
    );
    await fuzz(fc.json({ maxDepth: 4 }), 40, 900, check);
  });

  it('POST /check_intentions with the word "constructor" is not a 500 (prototype lookup in IRREGULAR)', async () => {
    await expectContract(
      {
        method: 'POST',
        url: '/check_intentions',
        ...withJson(JSON.stringify({ text: 'The building constructor is at the door' })),
      },
      routeFor('POST', '/check_intentions'),
    );
  });

  it('POST /record with source "__proto__" does not pollute Object.prototype (ingest stats by_source)', async () => {
    const body = { entity_name: 'fuzz room', metric: 'proto_source', value: 1, source: '__proto__' };
    await expectContract(
      { method: 'POST', url: '/record', ...withJson(JSON.stringify(body)) },
      routeFor('POST', '/record'),
    );
  });

  it('POST /unrelate with an unknown entity names the field sent (entity_a / entity_b), not entity_name', async () => {
    await expectContract(
      {
        method: 'POST',
        url: '/unrelate',
        ...withJson(JSON.stringify({ entity_a: 'Fuzz Person', entity_b: 'Nobody Fuzz' })),
      },
      routeFor('POST', '/unrelate'),
    );
  });

  it('an entity name of 101–200 characters (valid) can be read back through GET /profile/{name} and /location_history/{name}', async () => {
    const name = `Fuzz ${'long'.repeat(35)}`; // 145 characters
    await ok('POST', '/locate', { entity_name: name, container_name: 'fuzz drawer' });
    for (const path of ['/profile/', '/location_history/']) {
      const o = await send({ method: 'GET', url: path + encodeURIComponent(name) });
      expect(o.status, describeOutcome(o, 'a valid name is refused')).toBe(200);
    }
  });

  it('GET /location_history/{name}?limit=1 honours limit (the path-param schema defaults it to 100 and overrides the query)', async () => {
    for (const c of ['fuzz shelf', 'fuzz desk', 'fuzz bag'])
      await ok('POST', '/locate', { entity_name: 'fuzz wallet', container_name: c });
    const o = await ok('GET', '/location_history/fuzz%20wallet?limit=1');
    expect(o.locations).toHaveLength(1);
  });

  it('a far-future ts on /locate cannot pin an object so that later real sightings are ignored', async () => {
    await ok('POST', '/locate', { entity_name: 'fuzz umbrella', container_name: 'hallway', ts: 253402300799 });
    const moved = await ok('POST', '/locate', { entity_name: 'fuzz umbrella', container_name: 'car' });
    const found = await ok('POST', '/find', { entity_name: 'fuzz umbrella' });
    expect(found.container_name, `locate ts=9999-12-31 then a sighting now: ${JSON.stringify(moved)}`).toBe('car');
  });
});

// ---------------------------------------------------------------------------------------------

describe('HTTP fuzz: afterwards', () => {
  it('data stored before the fuzz reads back the same, the database is intact, nothing is polluted', async () => {
    expect(pollution()).toEqual([]);
    const after = await snapshot();
    // Every baseline fact was found before (else the comparison would prove nothing) …
    for (const r of before.recalled) expect((r as { hit: unknown[] }).hit, JSON.stringify(r)).toHaveLength(1);
    expect(before.raw).toHaveLength(12);
    // … and reads back identically after.
    expect(after.recalled).toEqual(before.recalled);
    expect(after.profile).toEqual(before.profile);
    expect(after.related).toEqual(before.related);
    expect(after.raw).toEqual(before.raw);
    expect(after.hourly).toEqual(before.hourly);
    expect(after.state).toEqual(before.state);
    expect(after.found).toEqual(before.found);
    expect(after.history).toEqual(before.history);
    expect(hub.db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    expect(hub.db.pragma('foreign_key_check')).toEqual([]);
    const health = await send({ method: 'GET', url: '/health' });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text).status).toBe('ok');
  });
});
