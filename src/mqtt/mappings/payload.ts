/**
 * Defensive payload helpers shared by the mappings. Every function here either returns a value or
 * throws `ParseError`: payloads come from any device on the network and are treated as hostile
 * (size, encoding, nesting depth, prototype keys, non-finite numbers).
 */
import { FORBIDDEN_KEYS } from '../../lib/json-path.js';
import { epochProblem, MAX_EPOCH_S as MAX_TS, MIN_EPOCH_S as MIN_TS, parseIsoWithZone } from '../../lib/datetime.js';
import { matchTopic } from '../../lib/mqtt-topic.js';
import {
  ParseError,
  type CompositeValue,
  type Ingest,
  type Mapping,
  type MappingContext,
  type ReadingIngest,
} from './types.js';

/** Payloads above this are refused before decoding (SPEC §7: never block the bridge). */
export const MAX_PAYLOAD_BYTES = 256 * 1024;
/** Object depth kept when flattening or copying a composite value. */
export const MAX_DEPTH = 8;
/** Bracket nesting refused outright, before `JSON.parse` sees the text. */
export const MAX_JSON_NESTING = 32;
/** Readings one message may produce; more is a malformed (or malicious) payload. */
export const MAX_FIELDS = 1000;
/** Longest categorical string value kept as a reading. */
export const MAX_STRING = 1024;
/** Keys that could reach `Object.prototype` when copied; always skipped. */
export { FORBIDDEN_KEYS };

const utf8 = new TextDecoder('utf-8', { fatal: true });
// Strict decimal number: no hex, no `Infinity`, no `1_000`, no empty string (all of which Number() takes).
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const NON_FINITE = /^[+-]?(nan|inf|infinity)$/i;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Decode a payload as UTF-8 (size-checked, invalid sequences refused). */
export function text(payload: Buffer | Uint8Array | string): string {
  if (typeof payload === 'string') {
    if (payload.length > MAX_PAYLOAD_BYTES) throw new ParseError(`payload over ${MAX_PAYLOAD_BYTES} bytes`);
    return payload;
  }
  if (!(payload instanceof Uint8Array)) throw new ParseError('payload is not bytes');
  if (payload.byteLength > MAX_PAYLOAD_BYTES) throw new ParseError(`payload over ${MAX_PAYLOAD_BYTES} bytes`);
  try {
    return utf8.decode(payload);
  } catch {
    throw new ParseError('payload is not valid UTF-8');
  }
}

/** Parse JSON after refusing deep nesting with a linear scan (no recursion anywhere). */
export function parseJson(s: string): unknown {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > MAX_JSON_NESTING) throw new ParseError('JSON nested too deep');
    } else if (c === 125 || c === 93) depth--;
  }
  try {
    return JSON.parse(s);
  } catch {
    throw new ParseError('invalid JSON');
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Own, non-forbidden entries of a parsed JSON object. */
export function entries(o: Record<string, unknown>): [string, unknown][] {
  return Object.keys(o)
    .filter((k) => !FORBIDDEN_KEYS.has(k))
    .map((k) => [k, o[k]]);
}

/** A strict decimal number, or undefined. `NaN`/`Infinity` spellings and overflow throw. */
export function numeric(s: string): number | undefined {
  const t = s.trim();
  if (NON_FINITE.test(t)) throw new ParseError(`not a finite number: ${t}`);
  if (!NUMERIC.test(t)) return undefined;
  const n = Number(t);
  if (!Number.isFinite(n)) throw new ParseError(`number out of range: ${t.slice(0, 40)}`);
  return n;
}

/** A plain-text reading payload: number, `true`/`false`, or a categorical string. */
export function scalar(raw: string): number | string | boolean {
  const t = raw.trim();
  if (t === '') throw new ParseError('empty payload');
  const n = numeric(t);
  if (n !== undefined) return n;
  if (t === 'true' || t === 'false') return t === 'true';
  if (t.length > MAX_STRING) throw new ParseError(`value longer than ${MAX_STRING} characters`);
  if (CONTROL.test(t)) throw new ParseError('value contains control characters');
  return t;
}

/** A JSON value a reading may carry: finite number, boolean, bounded string, or a composite object. */
export function jsonValue(v: unknown): number | string | boolean | CompositeValue {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new ParseError('value is not a finite number');
    return v;
  }
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    if (v.trim() === '') throw new ParseError('value is empty');
    if (NON_FINITE.test(v.trim())) throw new ParseError(`not a finite number: ${v.trim()}`);
    if (v.length > MAX_STRING) throw new ParseError(`value longer than ${MAX_STRING} characters`);
    return v;
  }
  if (isObject(v)) return composite(v, 1);
  throw new ParseError(Array.isArray(v) ? 'value is an array' : 'value is missing or null');
}

/** Copy a composite value into fresh objects, skipping forbidden keys, refusing depth > MAX_DEPTH. */
function composite(o: Record<string, unknown>, depth: number): CompositeValue {
  if (depth > MAX_DEPTH) throw new ParseError(`value nested deeper than ${MAX_DEPTH}`);
  const out: CompositeValue = {};
  for (const [k, v] of entries(o)) out[k] = copy(v, depth);
  if (Object.keys(out).length === 0) throw new ParseError('value is an empty object');
  return out;
}

function copy(v: unknown, depth: number): unknown {
  if (Array.isArray(v)) {
    if (depth + 1 > MAX_DEPTH) throw new ParseError(`value nested deeper than ${MAX_DEPTH}`);
    return v.map((x) => copy(x, depth + 1));
  }
  if (isObject(v)) return composite(v, depth + 1);
  return v;
}

export type Leaf = number | string | boolean;

export interface FlattenOptions {
  /** `skip`: arrays are ignored (Zigbee2MQTT); `index`: elements become `key.1`, `key.2` (Tasmota channels). */
  arrays: 'skip' | 'index';
  /** Called with the full dotted key; return true to leave the value out. */
  omit?: (key: string) => boolean;
  /** Key transform applied to each level (Tasmota lower-cases). */
  key?: (k: string) => string;
}

/**
 * Flatten a JSON object into `[dotted.key, leaf]` pairs, in key order. Levels deeper than MAX_DEPTH,
 * null, empty or over-long strings and forbidden/odd keys are skipped; more than MAX_FIELDS leaves
 * is a ParseError. Recursion is bounded by MAX_DEPTH (and `parseJson` already capped nesting).
 */
export function flatten(root: Record<string, unknown>, opts: FlattenOptions): [string, Leaf][] {
  const out: [string, Leaf][] = [];
  const walk = (node: unknown, prefix: string, depth: number): void => {
    const kids: [string, unknown][] = Array.isArray(node)
      ? node.map((v, i) => [String(i + 1), v])
      : entries(node as Record<string, unknown>);
    for (const [rawKey, v] of kids) {
      const k = opts.key ? opts.key(rawKey) : rawKey;
      if (k === '' || k.length > 100 || CONTROL.test(k)) continue;
      const key = prefix === '' ? k : `${prefix}.${k}`;
      if (opts.omit?.(key)) continue;
      if (isObject(v) || (Array.isArray(v) && opts.arrays === 'index')) {
        if (depth < MAX_DEPTH) walk(v, key, depth + 1);
        continue;
      }
      const leaf = asLeaf(v);
      if (leaf === undefined) continue;
      if (out.length >= MAX_FIELDS) throw new ParseError(`more than ${MAX_FIELDS} fields`);
      out.push([key, leaf]);
    }
  };
  walk(root, '', 1);
  return out;
}

function asLeaf(v: unknown): Leaf | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'boolean') return v;
  // "NaN"/"Infinity" strings are a broken sensor, not a category.
  if (
    typeof v === 'string' &&
    v.trim() !== '' &&
    v.length <= MAX_STRING &&
    !CONTROL.test(v) &&
    !NON_FINITE.test(v.trim())
  )
    return v;
  return undefined;
}

/** Epoch seconds from a number (epoch seconds) or an ISO-8601 string with a zone; else ParseError. */
export function epochSeconds(v: unknown, what = 'ts'): number {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new ParseError(`${what} out of range`);
    if (v < MIN_TS || v > MAX_TS) throw new ParseError(`${what} out of range: ${epochProblem(v)}`);
    return v;
  }
  if (typeof v === 'string') {
    const t = v.trim();
    const ms = parseIsoWithZone(t); // as `lib/schema.ts` Timestamp: impossible dates refused, not rolled over
    if (ms === undefined) throw new ParseError(`${what} is not epoch seconds or ISO-8601 with a zone`);
    return inRange(ms / 1000, what);
  }
  throw new ParseError(`${what} is not epoch seconds or ISO-8601 with a zone`);
}

export function inRange(sec: number, what = 'ts'): number {
  if (!Number.isFinite(sec) || sec < MIN_TS || sec > MAX_TS) throw new ParseError(`${what} out of range`);
  return sec;
}

/**
 * An entity, metric or container name taken from a topic or payload: present, and not a key that
 * could reach an object's prototype downstream. Its length and characters are checked once, by the
 * shared schema the bridge hands it to (EntityName, MetricName), like a name from any other door.
 */
export function name(s: unknown, what: string): string {
  if (typeof s !== 'string' || s.trim() === '') throw new ParseError(`${what} is empty`);
  // Downstream code may key objects by these names; a device has no business using these three.
  if (FORBIDDEN_KEYS.has(s)) throw new ParseError(`${what} "${s}" is reserved`);
  return s;
}

/** A name that no schema checks after the mapping (an OwnTracks region used as a presence value). */
export function label(s: unknown, what: string): string {
  const n = name(s, what);
  if (n.length > 200) throw new ParseError(`${what} longer than 200 characters`);
  if (CONTROL.test(n)) throw new ParseError(`${what} contains control characters`);
  return n;
}

/** An optional string field of a JSON payload. */
export function optString(o: Record<string, unknown>, key: string): string | undefined {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.trim() === '') throw new ParseError(`${key} must be a non-empty string`);
  return v;
}

/** An optional finite number field of a JSON payload. */
export function optNumber(o: Record<string, unknown>, key: string): number | undefined {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ParseError(`${key} must be a number`);
  return v;
}

/** First non-blank character decides whether a text payload is JSON (`{`, `[` or `"`). */
export function looksLikeJson(s: string): boolean {
  const c = s.trimStart()[0];
  return c === '{' || c === '[' || c === '"';
}

/**
 * Wrap a mapping's parse so that the contract holds whatever happens inside: only ParseError
 * escapes (an unexpected error, e.g. from the bridge's `ctx.units`, is reported as one).
 */
export function guarded(
  parse: (topic: string, payload: Buffer, ctx: MappingContext) => Ingest[],
): (topic: string, payload: Buffer, ctx: MappingContext) => Ingest[] {
  return (topic, payload, ctx) => {
    try {
      if (typeof topic !== 'string') throw new ParseError('topic is not a string');
      return parse(topic, payload, ctx);
    } catch (e) {
      if (e instanceof ParseError) throw e;
      throw new ParseError(`unexpected: ${e instanceof Error ? e.message : String(e)}`.slice(0, 200));
    }
  };
}

/**
 * A mapping of the topics its `filters` match: `parse` gets the levels the first matching filter
 * captured, and which filter that was; a topic none matches gives nothing. Guarded (above).
 */
export function topicMapping(
  name: string,
  filters: string[],
  parse: (levels: string[], payload: Buffer, ctx: MappingContext, filter: number) => Ingest[],
): Mapping {
  return {
    name,
    filters,
    parse: guarded((topic, payload, ctx) => {
      for (let i = 0; i < filters.length; i++) {
        const m = matchTopic(filters[i], topic);
        if (m) return parse(m, payload, ctx, i);
      }
      return [];
    }),
  };
}

/** A payload that must be a JSON object (else `notObject`); undefined when empty (a retained message cleared). */
export function objectPayload(payload: Buffer, notObject: string): Record<string, unknown> | undefined {
  const raw = text(payload);
  if (raw.trim() === '') return undefined;
  const json = parseJson(raw);
  if (!isObject(json)) throw new ParseError(notObject);
  return json;
}

/** A learned unit, swallowing nothing: `ctx.units.get` errors become ParseError via `guarded`. */
export function learnedUnit(ctx: MappingContext, entity: string, metric: string): string | undefined {
  const u = ctx.units?.get(entity, metric);
  return typeof u === 'string' && u !== '' ? u : undefined;
}

/** A reading from a device bridge (Zigbee2MQTT, Tasmota): typed `device`, with its unit and time when known. */
export function deviceReading(
  source: string,
  entity: string,
  metric: string,
  value: ReadingIngest['value'],
  unit: string | undefined,
  ts: number | undefined,
): ReadingIngest {
  const r: ReadingIngest = { kind: 'reading', entity_name: entity, metric, value, source, entity_type: 'device' };
  if (unit !== undefined) r.unit = unit;
  if (ts !== undefined) r.ts = ts;
  return r;
}

/**
 * Device readings of flattened fields (`flatten`), each with the unit `unitOf` knows for it, else the
 * one learned for it.
 */
export function deviceReadings(
  source: string,
  entity: string,
  fields: [string, Leaf][],
  unitOf: (metric: string, value: Leaf) => string | undefined,
  ctx: MappingContext,
  ts: number | undefined,
): ReadingIngest[] {
  return fields.map(([metric, value]) =>
    deviceReading(source, entity, metric, value, unitOf(metric, value) ?? learnedUnit(ctx, entity, metric), ts),
  );
}
