/**
 * Hearth's own topics (SPEC §7), root `hearth` by default:
 *
 * - `<root>/record/<entity>/<metric>`: `21.5` → number, `true`/`false` → boolean, other text →
 *   categorical string, `"quoted"` → that string, or JSON `{value, unit?, ts?, source?}` where `value`
 *   keeps its JSON type (an object is a composite reading) and `ts` is epoch seconds or ISO-8601
 *   with a zone.
 * - `<root>/remember/<entity>`: text (the fact) or JSON `{fact, category?, fact_key?, source_trust?,
 *   confidence?, source?, …}`: any field of `remember` but entity_name, which is the topic's.
 * - `<root>/locate/<object>`: text (the container) or JSON `{container_name, confidence?, note?, source?, …}`,
 *   any field of `locate` but entity_name.
 *
 * Entity names are the topic level exactly as published (`living_room` stays `living_room`). Source
 * defaults to `mqtt`. A payload whose first character is `{` must be valid JSON.
 *
 * Unknown keys: remember and locate payloads are written for Hearth alone, so their other keys go
 * on to the shared schema, which refuses an unknown one by name (`payload: unknown field "catgory"
 * — did you mean category?`), as HTTP and MCP do. A record payload's other keys are ignored, on purpose: this
 * topic also receives device payloads forwarded as they are (the shipped Node-RED flow republishes
 * `home/<room>/<metric>` unchanged; user mappings parse device JSON with `parseRecordPayload`), and
 * those carry keys of their own (`battery`, `linkquality`, …) — refusing them would drop readings.
 */
import {
  entries,
  epochSeconds,
  isObject,
  jsonValue,
  learnedUnit,
  looksLikeJson,
  name,
  optNumber,
  optString,
  parseJson,
  scalar,
  text,
  topicMapping,
} from './payload.js';
import {
  ParseError,
  type BuiltinConfig,
  type Ingest,
  type LocateIngest,
  type Mapping,
  type MappingContext,
  type ReadingIngest,
  type RememberIngest,
} from './types.js';

const SOURCE = 'mqtt';

/** Parse a record payload (shared with user mappings): plain text, a JSON string, or `{value, …}`. */
export function parseRecordPayload(raw: string): {
  value: ReadingIngest['value'];
  unit?: string;
  ts?: number;
  source?: string;
} {
  if (!looksLikeJson(raw)) return { value: scalar(raw) };
  const json = parseJson(raw);
  if (typeof json === 'string') return { value: scalar(json) };
  if (!isObject(json)) throw new ParseError('expected a number, text or a JSON object {value, …}');
  if (!Object.hasOwn(json, 'value')) throw new ParseError('JSON payload has no "value"');
  const out: { value: ReadingIngest['value']; unit?: string; ts?: number; source?: string } = {
    value: jsonValue(json.value),
  };
  const unit = optString(json, 'unit');
  if (unit !== undefined) out.unit = unit;
  if (Object.hasOwn(json, 'ts') && json.ts !== null) out.ts = epochSeconds(json.ts);
  const source = optString(json, 'source');
  if (source !== undefined) out.source = source;
  return out;
}

function record(entity: string, metric: string, raw: string, ctx: MappingContext): ReadingIngest {
  const p = parseRecordPayload(raw);
  const r: ReadingIngest = { kind: 'reading', entity_name: entity, metric, value: p.value, source: p.source ?? SOURCE };
  const unit = p.unit ?? learnedUnit(ctx, entity, metric);
  if (unit !== undefined) r.unit = unit;
  if (p.ts !== undefined) r.ts = p.ts;
  return r;
}

/**
 * The keys of a remember/locate payload this parser does not read, passed on for the shared schema
 * to accept (valid_from, ts, entity_type…) or refuse (a misspelling). Null means absent, as above.
 */
function rest(json: Record<string, unknown>, read: readonly string[], topic: string): Record<string, unknown> {
  if (Object.hasOwn(json, 'entity_name'))
    throw new ParseError(`entity_name comes from the topic (${topic}), not the payload`);
  return Object.fromEntries(entries(json).filter(([k, v]) => !read.includes(k) && v !== null));
}

const REMEMBER_READ = ['fact', 'category', 'fact_key', 'source_trust', 'confidence', 'source'];
const LOCATE_READ = ['container_name', 'confidence', 'note', 'source'];

function remember(entity: string, raw: string): RememberIngest {
  if (!raw.trimStart().startsWith('{'))
    return { kind: 'remember', entity_name: entity, fact: plain(raw, 'fact'), source: SOURCE };
  const json = parseJson(raw);
  if (!isObject(json)) throw new ParseError('expected text or a JSON object {fact, …}');
  const fact = optString(json, 'fact');
  if (fact === undefined) throw new ParseError('JSON payload has no "fact"');
  const r: RememberIngest = {
    ...rest(json, REMEMBER_READ, 'hearth/remember/<entity>'),
    kind: 'remember',
    entity_name: entity,
    fact,
    source: optString(json, 'source') ?? SOURCE,
  };
  const category = optString(json, 'category');
  if (category !== undefined) r.category = category;
  const key = optString(json, 'fact_key');
  if (key !== undefined) r.fact_key = key;
  const trust = Object.hasOwn(json, 'source_trust') ? json.source_trust : undefined;
  if (trust !== undefined && trust !== null) {
    if (typeof trust !== 'string' && (typeof trust !== 'number' || !Number.isFinite(trust))) {
      throw new ParseError('source_trust must be a number or a label');
    }
    r.source_trust = trust;
  }
  const confidence = optNumber(json, 'confidence');
  if (confidence !== undefined) r.confidence = confidence;
  return r;
}

function locate(entity: string, raw: string): LocateIngest {
  const base = { kind: 'locate', entity_name: entity, source: SOURCE } as const;
  if (!raw.trimStart().startsWith('{')) return { ...base, container_name: name(plain(raw, 'container'), 'container') };
  const json = parseJson(raw);
  if (!isObject(json)) throw new ParseError('expected text or a JSON object {container_name, …}');
  const r: LocateIngest = {
    ...rest(json, LOCATE_READ, 'hearth/locate/<object>'),
    ...base,
    container_name: name(optString(json, 'container_name'), 'container_name'),
    source: optString(json, 'source') ?? SOURCE,
  };
  const confidence = optNumber(json, 'confidence');
  if (confidence !== undefined) r.confidence = confidence;
  const note = optString(json, 'note');
  if (note !== undefined) r.note = note;
  return r;
}

/** Plain-text payloads: trimmed, non-empty. (Length limits are the service schema's job.) */
function plain(raw: string, what: string): string {
  const t = raw.trim();
  if (t === '') throw new ParseError(`empty ${what}`);
  if (t.includes('\u0000')) throw new ParseError(`${what} contains NUL`);
  return t;
}

export function nativeMapping(cfg: BuiltinConfig = { enabled: true, root: 'hearth' }): Mapping {
  const { root } = cfg;
  const filters = [`${root}/record/+/+`, `${root}/remember/+`, `${root}/locate/+`];
  return topicMapping('native', filters, (m, payload, ctx, filter): Ingest[] => {
    if (filter === 0) return [record(name(m[0], 'entity'), name(m[1], 'metric'), text(payload), ctx)];
    if (filter === 1) return [remember(name(m[0], 'entity'), text(payload))];
    return [locate(name(m[0], 'object'), text(payload))];
  });
}
