/**
 * User mappings from config (`[[mqtt.mappings.user]]`, SPEC §7): a topic filter with `+`/`#` and
 * entity/metric templates.
 *
 * ```toml
 * [[mqtt.mappings.user]]
 * topic  = "home/+/sensor/#"     # home/kitchen/sensor/temp/1
 * entity = "{1}"                 # kitchen
 * metric = "{2}.{3}"             # temp.1    ({#} would give "temp/1")
 * value  = "$.temp"              # optional JSON path into the payload
 * unit   = "°C"
 * ```
 *
 * Placeholders: `{n}` is the n-th captured level, 1-based, in topic order — each `+` captures one
 * level and `#` captures each remaining level separately (see `topic.ts`); `{#}` is everything `#`
 * matched, joined with `/`. A placeholder with no match in a given topic is a ParseError.
 *
 * Payload without `value`: read like the native `record` payload (number, `true`/`false`, text, or
 * JSON `{value, unit?, ts?, source?}`). With `value` (`$` = the whole document, `$.a.b`, `a.b`,
 * `$.list[0]`, `$['odd key']`): the payload must be JSON; a string found there is read like a
 * plain-text payload (`"21.5"` → 21.5), an object becomes a composite reading, `null` means "no
 * value" (ignored), a missing path is a ParseError. `ts` is an optional JSON path to the time (epoch
 * seconds or ISO-8601 with a zone). Unit: config `unit`, else the payload's, else a learned one.
 */
import { z } from 'zod';
import { parseRecordPayload } from './native.js';
import { FORBIDDEN_KEYS, epochSeconds, guarded, isObject, jsonValue, learnedUnit, name, parseJson, scalar, text } from './payload.js';
import { isValidFilter, matchTopic, plusCount } from './topic.js';
import { ParseError, type Ingest, type Mapping, type ReadingIngest } from './types.js';

type Segment = string | number;
const PLACEHOLDER = /\{(\d+|#)\}/g;

/** Parse a JSON path into segments, or null when it is not one. */
export function parsePath(path: string): Segment[] | null {
  let s = path.trim();
  const segs: Segment[] = [];
  if (s.startsWith('$')) s = s.slice(1);
  else if (/^[^.[\]'"]/.test(s)) s = `.${s}`;
  while (s !== '') {
    const m = /^\.([^.[\]'"]+)/.exec(s) ?? /^\[(\d{1,6})\]/.exec(s) ?? /^\[['"]([^'"]+)['"]\]/.exec(s);
    if (!m) return null;
    const seg = m[0].startsWith('[') && /^\d+$/.test(m[1]) && !/['"]/.test(m[0]) ? Number(m[1]) : m[1];
    if (typeof seg === 'string' && FORBIDDEN_KEYS.has(seg)) return null;
    segs.push(seg);
    s = s.slice(m[0].length);
  }
  return segs.length > 32 ? null : segs;
}

function extract(doc: unknown, path: Segment[], label: string): unknown {
  let v = doc;
  for (const seg of path) {
    if (typeof seg === 'number' ? Array.isArray(v) && seg < v.length : isObject(v) && Object.hasOwn(v, seg)) {
      v = (v as Record<string | number, unknown>)[seg];
    } else throw new ParseError(`path ${label} not found in payload`);
  }
  return v;
}

const Template = z.string().trim().min(1).max(200);
const Path = z.string().trim().min(1).max(200).refine((p) => parsePath(p) !== null, 'not a JSON path like $.a.b');

export const UserMappingSchema = z
  .object({
    topic: z.string().min(1).max(1024).refine(isValidFilter, 'not a valid MQTT topic filter'),
    entity: Template.describe('entity name template, e.g. "{1}"'),
    metric: Template.describe('metric name template, e.g. "{2}.{3}" or "temperature"'),
    value: Path.optional().describe('JSON path of the value in the payload, e.g. "$.temp"'),
    ts: Path.optional().describe('JSON path of the reading time (epoch seconds or ISO-8601 with a zone)'),
    unit: z.string().trim().min(1).max(32).optional(),
    source: z.string().trim().min(1).max(100).default('mqtt'),
    entity_type: z.string().trim().min(1).max(50).optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    const hasHash = m.topic.endsWith('#');
    const plus = plusCount(m.topic);
    for (const field of ['entity', 'metric'] as const) {
      const t = m[field];
      if (t.replace(PLACEHOLDER, '').match(/[{}]/)) {
        ctx.addIssue({ code: 'custom', path: [field], message: 'braces must form {n} or {#}' });
      }
      for (const [, p] of t.matchAll(PLACEHOLDER)) {
        const bad =
          p === '#' ? !hasHash : Number(p) < 1 || (!hasHash && Number(p) > plus);
        if (bad) ctx.addIssue({ code: 'custom', path: [field], message: `{${p}} has no wildcard in "${m.topic}"` });
      }
    }
  });
export type UserMapping = z.output<typeof UserMappingSchema>;
export type UserMappingInput = z.input<typeof UserMappingSchema>;

function render(template: string, captures: string[], plus: number): string {
  return template.replace(PLACEHOLDER, (_, p: string) => {
    if (p === '#') return captures.slice(plus).join('/');
    const v = captures[Number(p) - 1];
    if (v === undefined) throw new ParseError(`{${p}} has no match in this topic`);
    return v;
  });
}

/** A mapping for one user entry (already validated by `UserMappingSchema`). */
export function userMapping(entry: UserMapping, index = 0): Mapping {
  const plus = plusCount(entry.topic);
  const valuePath = entry.value === undefined ? null : parsePath(entry.value);
  const tsPath = entry.ts === undefined ? null : parsePath(entry.ts);
  return {
    name: `user[${index}]:${entry.topic}`,
    filters: [entry.topic],
    parse: guarded((topic, payload, ctx): Ingest[] => {
      const captures = matchTopic(entry.topic, topic);
      if (!captures) return [];
      const entity = name(render(entry.entity, captures, plus), 'entity');
      const metric = name(render(entry.metric, captures, plus), 'metric');
      const raw = text(payload);
      let value: ReadingIngest['value'];
      let unit: string | undefined;
      let ts: number | undefined;
      let source: string | undefined;
      if (valuePath || tsPath) {
        const doc = parseJson(raw);
        if (tsPath) {
          const t = extract(doc, tsPath, entry.ts!);
          if (t !== null) ts = epochSeconds(t);
        }
        if (valuePath) {
          const v = extract(doc, valuePath, entry.value!);
          if (v === null) return [];
          value = typeof v === 'string' ? scalar(v) : jsonValue(v);
        } else ({ value, unit, source } = parseRecordPayload(raw));
      } else ({ value, unit, ts, source } = parseRecordPayload(raw));
      const r: ReadingIngest = { kind: 'reading', entity_name: entity, metric, value, source: source ?? entry.source };
      const u = entry.unit ?? unit ?? learnedUnit(ctx, entity, metric);
      if (u !== undefined) r.unit = u;
      if (ts !== undefined) r.ts = ts;
      if (entry.entity_type !== undefined) r.entity_type = entry.entity_type;
      return [r];
    }),
  };
}
