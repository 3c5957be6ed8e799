/**
 * Each memory-mcp row checked by the schema of the door that would have taken it in Hearth
 * (`RememberInput` for a memory, `RecordInput` for a reading, …) through the one validation path,
 * `lib/validation.ts` `check`: a row the API would refuse — a 5,000-character or empty name, control
 * characters, a 1.2 M-character fact, a reading in the year 3,000,000 — is refused here too, with
 * the same message. Only what memory-mcp itself allowed and Hearth reads the same way is adapted
 * (documented in docs/import-memory-mcp.md): an unknown category becomes `general`, a confidence or
 * trust outside its range is clamped, unparsable meta is `{}`.
 */
import { z } from 'zod';
import { EntityType, JsonObject, Text, Timestamp } from '../../lib/schema.js';
import { check } from '../../lib/validation.js';
import { LogTurnInput, OpenSessionInput } from '../../tiers/episodic/episodic.schemas.js';
import { CATEGORIES, RelateInput, RememberInput } from '../../tiers/memory/memory.schemas.js';
import { IntendInput } from '../../tiers/prospective/prospective.schemas.js';
import { ScheduleInput } from '../../tiers/schedule/schedule.schemas.js';
import { LocateInput } from '../../tiers/spatial/spatial.schemas.js';
import { MetricName, RecordInput } from '../../tiers/timeseries/timeseries.schemas.js';
import { WmOpenInput, WmSetInput } from '../../tiers/working/working.schemas.js';
import { EntityName } from '../../lib/schema.js';

export type Row = Record<string, any>;
/** A checked row, or the one-line reason it is skipped. */
export type Checked<T> = { ok: true; data: T } | { ok: false; problem: string };

const Time = Timestamp;
const OptTime = Timestamp.nullable().optional();
/** The times every copied row keeps (memory-mcp stores epoch seconds). */
const Times = z.object({ created: Time, updated: Time.optional() });

function run<S extends z.ZodType>(schema: S, data: unknown): Checked<z.output<S>> {
  const r = check(schema, data, 'row');
  return r.success ? { ok: true, data: r.data } : { ok: false, problem: r.message };
}
/** Door input and kept fields checked together: the first problem of either is the row's. */
function both<A extends z.ZodType, B extends z.ZodType>(
  door: A,
  input: unknown,
  extra: B,
  kept: unknown,
): Checked<{ input: z.output<A>; kept: z.output<B> }> {
  const a = run(door, input);
  if (!a.ok) return a;
  const b = run(extra, kept);
  return b.ok ? { ok: true, data: { input: a.data, kept: b.data } } : b;
}

export const clamp01 = (x: unknown, d = 1) =>
  typeof x === 'number' && Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : d;
/** A JSON object column: memory-mcp wrote JSON text; anything else reads as `{}` (or `fallback`). */
export function objectOf(
  s: unknown,
  fallback: Record<string, unknown> | undefined = {},
): Record<string, unknown> | undefined {
  if (typeof s !== 'string') return fallback;
  try {
    const v = JSON.parse(s);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : fallback;
  } catch {
    return fallback;
  }
}
const str = (v: unknown) => (v === null || v === undefined ? undefined : String(v));
const orUndef = <T>(v: T | null | undefined) => (v === null ? undefined : v);

const EntityRow = z.object({ name: EntityName, type: EntityType, meta: JsonObject });
export const entity = (r: Row) =>
  both(EntityRow, { name: str(r.name), type: str(r.type) || 'unknown', meta: objectOf(r.meta) }, Times, {
    created: r.created,
    updated: r.updated ?? r.created,
  });

export const memory = (r: Row, entityName: string) => {
  const category = (CATEGORIES as readonly string[]).includes(r.category) ? r.category : 'general';
  const trust = Number.isInteger(r.source_trust) ? Math.min(5, Math.max(1, r.source_trust)) : 5;
  return both(
    RememberInput,
    {
      entity_name: entityName,
      fact: str(r.fact),
      category,
      confidence: clamp01(r.confidence),
      source: str(r.source) || 'memory-mcp',
      source_trust: trust,
      valid_from: r.created,
    },
    Times.extend({ last_accessed: OptTime, access_count: z.number().int().min(0) }),
    {
      created: r.created,
      updated: r.updated ?? r.created,
      last_accessed: r.last_accessed ?? null,
      access_count: r.access_count ?? 0,
    },
  );
};

export const relation = (r: Row, a: string, b: string) =>
  both(
    RelateInput,
    { entity_a: a, entity_b: b, rel_type: str(r.rel_type), meta: objectOf(r.meta) },
    z.object({ created: Time, valid_from: Time, valid_until: OptTime }),
    { created: r.created, valid_from: r.valid_from ?? r.created, valid_until: r.valid_until ?? null },
  );

/** A reading's value by its stored type; `undefined` when the row holds none of that type. */
function readingValue(r: Row, type: string): unknown {
  if (type === 'numeric') return typeof r.value_num === 'number' ? r.value_num : undefined;
  if (type === 'categorical') return r.value_cat == null ? undefined : String(r.value_cat);
  return objectOf(r.value_json, undefined);
}
export const reading = (r: Row, entityName: string) => {
  const type = ['numeric', 'categorical', 'composite'].includes(r.value_type) ? r.value_type : 'numeric';
  const value = readingValue(r, type);
  if (value === undefined)
    return {
      ok: false,
      problem: `value: a ${type} reading without a ${type === 'composite' ? 'JSON object' : type === 'numeric' ? 'number' : 'value'}`,
    } as const;
  const checked = run(RecordInput, {
    entity_name: entityName,
    metric: str(r.metric),
    value,
    unit: orUndef(str(r.unit)),
    source: str(r.source) || undefined,
    ts: r.ts,
  });
  return checked.ok ? { ok: true as const, data: { ...checked.data, type, value } } : checked;
};

export const scheduleEvent = (r: Row, entityName: string) => {
  const recurrence = !r.recurrence || r.recurrence === 'none' ? undefined : String(r.recurrence);
  return both(
    ScheduleInput,
    {
      entity_name: entityName,
      title: str(r.title),
      start_ts: r.start_ts,
      end_ts: orUndef(r.end_ts),
      recurrence,
      meta: objectOf(r.meta),
    },
    Times,
    { created: r.created },
  );
};

export const session = (r: Row, entityName: string) => {
  const meta = objectOf(r.meta)!;
  if (r.consolidated) meta.consolidated = true;
  return both(
    OpenSessionInput,
    { entity_name: entityName, meta },
    z.object({ started_at: Time, ended_at: OptTime, summary: Text(4000).nullable() }),
    { started_at: r.started_at, ended_at: r.ended_at ?? null, summary: r.summary ?? null },
  );
};

export const turn = (r: Row, sessionId: number) =>
  run(LogTurnInput, { session_id: sessionId, role: str(r.role), content: str(r.content), ts: r.ts });

export const task = (r: Row, entityName: string | undefined) =>
  both(
    WmOpenInput,
    { task_name: str(r.name), entity_name: entityName },
    z.object({ created: Time, ttl_ts: OptTime, closed_at: OptTime }),
    { created: r.created, ttl_ts: r.ttl_ts ?? null, closed_at: r.closed_at ?? null },
  );

export const slot = (r: Row, taskId: number) => {
  let value: unknown = String(r.value);
  try {
    value = JSON.parse(value as string);
  } catch {
    // a bare string slot from an older version stays that string
  }
  return both(WmSetInput, { task_id: taskId, key: str(r.key), value }, Times, {
    created: r.created,
    updated: r.updated ?? r.created,
  });
};

export const intention = (r: Row, entityName: string) =>
  both(
    IntendInput,
    {
      entity_name: entityName,
      trigger_text: str(r.trigger_text),
      action_text: str(r.action_text),
      once: false,
      expires_ts: orUndef(r.expires_ts),
    },
    z.object({ created: Time, last_fired: OptTime, fired_count: z.number().int().min(0) }),
    { created: r.created, last_fired: r.last_fired ?? null, fired_count: r.fired_count ?? 0 },
  );

export const location = (r: Row, entityName: string) =>
  both(
    LocateInput,
    {
      entity_name: entityName,
      container_name: str(r.container_name),
      confidence: clamp01(r.confidence),
      source: orUndef(str(r.source)),
      note: orUndef(str(r.note)),
      ts: r.last_confirmed_ts,
    },
    Times,
    { created: r.created },
  );

export const pattern = (r: Row) =>
  run(z.object({ metric: MetricName, pattern_key: Text(500), detected: Time }), {
    metric: str(r.metric),
    pattern_key: str(r.pattern_key),
    detected: r.detected,
  });
