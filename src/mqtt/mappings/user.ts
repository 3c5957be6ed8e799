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
import { PLACEHOLDER, type UserMapping } from '../../config/mappings.js';
import { parsePath, type Segment } from '../../lib/json-path.js';
import { plusCount } from '../../lib/mqtt-topic.js';
import { parseRecordPayload } from './native.js';
import {
  epochSeconds,
  isObject,
  jsonValue,
  learnedUnit,
  name,
  parseJson,
  scalar,
  text,
  topicMapping,
} from './payload.js';
import { ParseError, type Ingest, type Mapping, type ReadingIngest } from './types.js';

// The schema of an entry lives with the configuration (it is part of it); re-exported for the mapping's users.
export { parsePath } from '../../lib/json-path.js';
export { UserMappingSchema, type UserMapping, type UserMappingInput } from '../../config/mappings.js';

function extract(doc: unknown, path: Segment[], label: string): unknown {
  let v = doc;
  for (const seg of path) {
    if (typeof seg === 'number' ? Array.isArray(v) && seg < v.length : isObject(v) && Object.hasOwn(v, seg)) {
      v = (v as Record<string | number, unknown>)[seg];
    } else throw new ParseError(`path ${label} not found in payload`);
  }
  return v;
}

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
  return topicMapping(`user[${index}]:${entry.topic}`, [entry.topic], (captures, payload, ctx): Ingest[] => {
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
  });
}
