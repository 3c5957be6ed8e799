/**
 * InfluxDB line protocol → readings, for `POST /write` (v1) and `POST /api/v2/write` (SPEC §6).
 * Pure: no I/O, never throws; each bad line is reported by number and the good lines still count.
 *
 * Grammar (docs.influxdata.com "Line protocol"): `measurement[,tag=v…] field=v[,field=v…] [timestamp]`.
 * Escapes: `\,` and `\ ` in the measurement; `\,` `\ ` `\=` in tag keys, tag values and field keys;
 * `\"` and `\\` in string field values (any other backslash is literal). Field values: float `1.5`
 * `-2e3`, integer `1i`, unsigned `1u`, string `"x"`, boolean `t T true True TRUE f F false False
 * FALSE`; NaN/Inf are not numbers here. Blank lines and `#` comments are skipped. The timestamp is an
 * integer in the request's precision (v1 `n u ms s`, v2 `ns us ms s`); absent → `nowSec`.
 *
 * Mapping to readings (one reading per field):
 * - Home Assistant's InfluxDB integration (lines with both a `domain` and an `entity_id` tag, e.g.
 *   `°C,domain=sensor,entity_id=bedroom_temperature,friendly_name=… value=21.5 1700000000000000000`):
 *   entity = `<domain>.<entity_id>` (`sensor.bedroom_temperature`, as the Statestream mapping names
 *   it); field `value` → metric `state` (again as Statestream), with unit = the measurement when the
 *   measurement is not the entity id itself (HA uses the unit as measurement, the entity id when there
 *   is none; `domain__device_class` measurements are not units either); a string field `state`
 *   (`state="on"`, written for non-numeric states) → metric `state`, and then the numeric `value` HA
 *   adds beside it (on → 1) is dropped, so one series keeps one type; attribute fields ending `_str`
 *   are ignored; other (numeric attribute) fields → a metric of the same name; other tags ignored.
 *   A custom HA `default_measurement`/`override_measurement` would be taken as the unit.
 * - Anything else (Telegraf, scripts): entity = the `host` tag, else the `entity` tag, else the
 *   measurement; metric = `<measurement>.<field>` (`cpu.usage_idle`), or just `<field>` when the
 *   entity is the measurement. Other tags are not kept: lines that differ only in other tags
 *   (Telegraf's per-CPU `cpu=cpu0`) land on the same metric.
 * Source `influxdb`. Integers/unsigned become JS numbers (exact up to 2^53).
 * Limits: more than 50,000 lines or 10 MiB → one error (line 0), no points; a line with more than
 * 1,000 fields is an error of that line (it alone could hold the event loop); more than 100,000
 * readings in one request is refused whole by the caller (413, timeseries.service.ts).
 */
import { haEntityType } from '../entities/entity-types.js';

/** A reading from one field of one line (structurally a `kind: 'reading'` Ingest of the MQTT bridge). */
export interface LineReading {
  kind: 'reading';
  entity_name: string;
  metric: string;
  value: number | string | boolean;
  unit?: string;
  ts: number;
  source: string;
  /** Home Assistant lines: the type the domain implies (entity-types.ts). */
  entity_type?: string;
}
export interface LineError {
  line: number;
  message: string;
}
export type Precision = 'ns' | 'us' | 'ms' | 's' | 'n' | 'u';

export const MAX_LINES = 50_000;
export const MAX_BYTES = 10 * 1024 * 1024;
/** Fields of one line: Telegraf's widest inputs have a few hundred; beyond this a line is refused. */
export const MAX_FIELDS_PER_LINE = 1000;
/** Readings of one request: 20,000 Telegraf metrics of 5 fields. More → 413, nothing stored. */
export const MAX_READINGS = 100_000;
const SOURCE = 'influxdb';
const DIVISOR: Record<Precision, bigint> = {
  ns: 1_000_000_000n,
  n: 1_000_000_000n,
  us: 1_000_000n,
  u: 1_000_000n,
  ms: 1000n,
  s: 1n,
};
const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const BOOLEAN: Record<string, boolean> = {
  t: true,
  T: true,
  true: true,
  True: true,
  TRUE: true,
  f: false,
  F: false,
  false: false,
  False: false,
  FALSE: false,
};
const MIN_TS = -62135596800;
const MAX_TS = 253402300799;

class LineError_ extends Error {}
const fail = (message: string): never => {
  throw new LineError_(message);
};

interface Line {
  measurement: string;
  tags: Map<string, string>;
  fields: [string, number | string | boolean][];
  ts?: bigint;
}

/** Read an escaped token from `s` at `i` until one of `stops` (unescaped); returns [text, end]. */
function token(s: string, i: number, stops: string, escapable: string): [string, number] {
  let out = '';
  while (i < s.length && !stops.includes(s[i])) {
    if (s[i] === '\\' && i + 1 < s.length && escapable.includes(s[i + 1])) {
      out += s[i + 1];
      i += 2;
    } else out += s[i++];
  }
  return [out, i];
}

function fieldValue(raw: string, key: string): number | boolean {
  if (raw === '') fail(`field "${key}" has no value`);
  const last = raw[raw.length - 1];
  if ((last === 'i' || last === 'u') && /^[+-]?\d+[iu]$/.test(raw)) {
    const n = BigInt(raw.slice(0, -1));
    const ok = last === 'i' ? n >= -(2n ** 63n) && n < 2n ** 63n : n >= 0n && n < 2n ** 64n;
    if (!ok) fail(`field "${key}": ${last === 'i' ? 'integer' : 'unsigned'} out of range`);
    return Number(n);
  }
  if (Object.hasOwn(BOOLEAN, raw)) return BOOLEAN[raw];
  if (!FLOAT.test(raw)) fail(`field "${key}" has an invalid value: ${raw.slice(0, 40)}`);
  const n = Number(raw);
  if (!Number.isFinite(n)) fail(`field "${key}": number out of range`);
  return n;
}

function parseLine(s: string): Line {
  let [measurement, i] = token(s, 0, ', ', ', ');
  if (measurement === '') fail('missing measurement');
  const tags = new Map<string, string>();
  while (s[i] === ',') {
    let key: string, value: string;
    [key, i] = token(s, i + 1, '=, ', ',= ');
    if (s[i] !== '=') fail(`tag "${key}" has no "="`);
    [value, i] = token(s, i + 1, ', =', ',= ');
    if (s[i] === '=') fail(`tag "${key}" value has an unescaped "="`);
    if (key === '' || value === '') fail(key === '' ? 'empty tag key' : `tag "${key}" has no value`);
    tags.set(key, value);
  }
  if (s[i] !== ' ') fail('missing fields');
  while (s[i] === ' ') i++;
  const fields: Line['fields'] = [];
  for (;;) {
    let key: string;
    [key, i] = token(s, i, '=, ', ',= ');
    if (key === '') fail(i >= s.length ? 'missing fields' : 'empty field key');
    if (s[i] !== '=') fail(`field "${key}" has no "="`);
    i++;
    if (s[i] === '"') {
      let str = '';
      i++;
      while (i < s.length && s[i] !== '"') {
        if (s[i] === '\\' && (s[i + 1] === '"' || s[i + 1] === '\\')) {
          str += s[i + 1];
          i += 2;
        } else str += s[i++];
      }
      if (i >= s.length) fail(`field "${key}": unterminated string`);
      i++;
      fields.push([key, str]);
    } else {
      const start = i;
      while (i < s.length && s[i] !== ',' && s[i] !== ' ') i++;
      fields.push([key, fieldValue(s.slice(start, i), key)]);
    }
    if (s[i] === ',') i++;
    else break;
    if (fields.length >= MAX_FIELDS_PER_LINE) fail(`more than ${MAX_FIELDS_PER_LINE} fields in one line; split it`);
  }
  if (i < s.length && s[i] !== ' ') fail(`unexpected "${s[i]}" after field "${fields[fields.length - 1][0]}"`);
  const rest = s.slice(i).trim();
  if (rest === '') return { measurement, tags, fields };
  if (!/^-?\d{1,20}$/.test(rest)) fail(`invalid timestamp: ${rest.slice(0, 40)}`);
  return { measurement, tags, fields, ts: BigInt(rest) };
}

function seconds(ts: bigint, precision: Precision): number {
  const d = DIVISOR[precision];
  const sec = Number(ts / d) + Number(ts % d) / Number(d);
  if (sec < MIN_TS || sec > MAX_TS) fail('timestamp out of range (check the precision)');
  return sec;
}

function checkName(s: string, what: string): string {
  if (s.length > 200) fail(`${what} longer than 200 characters`);
  if (/[\u0000-\u001f\u007f]/.test(s)) fail(`${what} contains control characters`);
  if (s === '__proto__' || s === 'constructor' || s === 'prototype') fail(`${what} "${s}" is reserved`);
  return s;
}

function toReadings(line: Line, ts: number): LineReading[] {
  const { measurement, tags, fields } = line;
  const out: LineReading[] = [];
  const push = (entity: string, metric: string, value: LineReading['value'], unit?: string) => {
    const r: LineReading = {
      kind: 'reading',
      entity_name: checkName(entity, 'entity'),
      metric: checkName(metric, 'metric'),
      value,
      ts,
      source: SOURCE,
    };
    if (unit !== undefined) r.unit = unit;
    const type = haEntityType(entity);
    if (type) r.entity_type = type;
    out.push(r);
  };
  const domain = tags.get('domain');
  const entityId = tags.get('entity_id');
  if (domain !== undefined && entityId !== undefined) {
    const entity = `${domain}.${entityId}`;
    const isUnit =
      measurement !== entity && measurement !== entityId && !/^\w+__\w+$/.test(measurement) && measurement.length <= 32;
    const hasState = fields.some(([k, v]) => k === 'state' && typeof v === 'string');
    for (const [key, value] of fields) {
      if (key.endsWith('_str')) continue;
      if (key === 'value') {
        if (!hasState) push(entity, 'state', value, isUnit && typeof value === 'number' ? measurement : undefined);
      } else if (key === 'state') {
        if (typeof value === 'string' && value !== '') push(entity, 'state', value);
      } else push(entity, key, value);
    }
    return out;
  }
  const entity = tags.get('host') ?? tags.get('entity');
  for (const [key, value] of fields) {
    if (typeof value === 'string' && value === '') continue;
    push(entity ?? measurement, entity === undefined ? key : `${measurement}.${key}`, value);
  }
  return out;
}

/** Parse a line-protocol body into readings plus per-line errors (1-based line numbers). Never throws. */
export function parseLineProtocol(
  body: string,
  precision: Precision,
  nowSec: number,
): { points: LineReading[]; errors: LineError[] } {
  const points: LineReading[] = [];
  const errors: LineError[] = [];
  for (const chunk of lineProtocolChunks(body, precision, nowSec, Infinity)) {
    points.push(...chunk.points);
    errors.push(...chunk.errors);
  }
  return { points, errors };
}

/**
 * Why a whole body is refused before a line is read (over MAX_BYTES, or more than MAX_LINES lines
 * that are not blank), or undefined. The HTTP door answers these 413 (issue #35 item 12: Telegraf
 * splits a batch and retries on 413, and drops it on 400); `lines` is the body split at newlines.
 */
export function tooLarge(body: string, lines = body.length > MAX_BYTES ? [] : body.split('\n')): string | undefined {
  if (body.length > MAX_BYTES || Buffer.byteLength(body, 'utf8') > MAX_BYTES) return `body over ${MAX_BYTES} bytes`;
  if (lines.length > MAX_LINES && lines.slice(MAX_LINES).some((l) => l.trim() !== ''))
    return `more than ${MAX_LINES} lines`;
  return undefined;
}

/**
 * The same parse, at most `linesPerChunk` lines or (the line that reaches it included) `pointsPerChunk`
 * readings at a time, so a caller can yield to the event loop between chunks: a 10 MiB body (a
 * million readings, as few lines of many fields) must not stall /health or MQTT PUBACKs for seconds.
 */
export function* lineProtocolChunks(
  body: string,
  precision: Precision,
  nowSec: number,
  linesPerChunk: number,
  pointsPerChunk = Infinity,
  /** The body split at newlines, when the caller already split it (writeLines checks `tooLarge` first). */
  split?: string[],
): Generator<{ points: LineReading[]; errors: LineError[] }> {
  if (typeof body !== 'string') return yield { points: [], errors: [{ line: 0, message: 'body is not text' }] };
  if (!Object.hasOwn(DIVISOR, precision))
    return yield { points: [], errors: [{ line: 0, message: `unknown precision "${String(precision)}"` }] };
  const lines = split ?? (body.length > MAX_BYTES ? [] : body.split('\n'));
  const whole = tooLarge(body, lines);
  if (whole) return yield { points: [], errors: [{ line: 0, message: whole }] };
  for (let from = 0; from < lines.length; ) {
    const points: LineReading[] = [];
    const errors: LineError[] = [];
    const to = Math.min(lines.length, from + linesPerChunk);
    let n = from;
    for (; n < to && points.length < pointsPerChunk; n++) {
      const text = lines[n].replace(/^[ \t]+/, '').replace(/\r$/, '');
      if (text.trim() === '' || text.startsWith('#')) continue;
      try {
        const line = parseLine(text);
        const ts = line.ts === undefined ? nowSec : seconds(line.ts, precision);
        points.push(...toReadings(line, ts));
      } catch (e) {
        errors.push({ line: n + 1, message: e instanceof LineError_ ? e.message : 'unreadable line' });
      }
    }
    from = n;
    yield { points, errors };
  }
}
