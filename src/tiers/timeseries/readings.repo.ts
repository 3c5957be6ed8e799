/**
 * Writes and reads raw readings. Entity, series and source ids are cached in memory so the ingest
 * hot path is one INSERT per reading inside a batched transaction.
 */
import type { Db } from '../../db/open.js';
import { UNKNOWN_TYPE } from '../entities/entity-types.js';
import type { Clock } from '../../lib/clock.js';
import { HubError } from '../../lib/errors.js';
import type { ReadingValue } from './timeseries.schemas.js';

export type ValueType = 'numeric' | 'categorical' | 'composite';

/** A validated reading ready to store; `ts_ms` is integer milliseconds. */
export interface PreparedReading {
  entity_name: string;
  entity_type?: string;
  metric: string;
  value: ReadingValue;
  unit?: string;
  source: string;
  ts_ms: number;
  /** Skip when already stored: `exact` = same ts and value exists; `latest` = equals the latest stored value. */
  dedupe?: 'exact' | 'latest';
}

export type WriteResult =
  | { ok: true; id: number; value_type: ValueType; children: { metric: string; id: number; value_type: ValueType }[]; skipped?: boolean }
  | { ok: false; error: string; message: string };

interface Series {
  id: number;
  value_type: ValueType;
  unit: string | null;
  last?: { ts_ms: number; value: number | string | null };
}

const MAX_DEPTH = 4;

/** Composite parts → `[metric.key, value]` pairs; nested objects flattened with dots, arrays and nulls skipped. */
export function flattenComposite(obj: Record<string, unknown>, prefix: string, depth = 0, out: [string, number | string][] = []) {
  for (const [k, v] of Object.entries(obj)) {
    if (k === '__proto__' || k === 'constructor' || k === 'prototype') continue;
    const key = `${prefix}.${k}`;
    if (typeof v === 'number' && Number.isFinite(v)) out.push([key, v]);
    else if (typeof v === 'string' && v.length > 0 && v.length <= 1000) out.push([key, v]);
    else if (typeof v === 'boolean') out.push([key, String(v)]);
    else if (v && typeof v === 'object' && !Array.isArray(v) && depth < MAX_DEPTH) flattenComposite(v as Record<string, unknown>, key, depth + 1, out);
  }
  return out;
}

export const typeOf = (v: ReadingValue): ValueType => (typeof v === 'number' ? 'numeric' : typeof v === 'object' ? 'composite' : 'categorical');

export function createReadingsRepo(db: Db, clock: Clock) {
  const entityIds = new Map<string, number>();
  const series = new Map<string, Series>();
  const sources = new Map<string, number>();

  const findEntity = db.prepare('SELECT id FROM entities WHERE name = ?');
  const seriesByName = db.prepare('SELECT s.id, s.value_type, s.unit FROM series s JOIN entities e ON e.id = s.entity_id WHERE e.name = ? AND s.metric = ?');
  const insertEntity = db.prepare("INSERT INTO entities (name, type, meta, created, updated) VALUES (?, ?, '{}', ?, ?)");
  const fillType = db.prepare(`UPDATE entities SET type = ?, updated = ? WHERE id = ? AND type = '${UNKNOWN_TYPE}'`);
  const typed = new Set<number>();
  const findSeries = db.prepare('SELECT id, value_type, unit FROM series WHERE entity_id = ? AND metric = ?');
  const insertSeries = db.prepare('INSERT INTO series (entity_id, metric, unit, value_type, created) VALUES (?, ?, ?, ?, ?)');
  const setUnit = db.prepare('UPDATE series SET unit = ? WHERE id = ?');
  const findSource = db.prepare('SELECT id FROM sources WHERE name = ?');
  const insertSource = db.prepare('INSERT INTO sources (name) VALUES (?)');
  const insert = db.prepare(
    'INSERT INTO readings (series_id, ts_ms, value_num, value_cat, value_json, source_id, parent_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const exact = db.prepare(
    'SELECT id FROM readings WHERE series_id = ? AND ts_ms = ? AND (value_num IS ? AND value_cat IS ?) LIMIT 1',
  );
  const latest = db.prepare('SELECT id, ts_ms, value_num, value_cat FROM readings WHERE series_id = ? ORDER BY ts_ms DESC LIMIT 1');

  function entityId(name: string, type: string): number {
    const key = name.toLowerCase();
    let id = entityIds.get(key);
    if (id === undefined) {
      const row = findEntity.get(name) as { id: number } | undefined;
      const now = clock.now();
      id = row ? row.id : Number(insertEntity.run(name, type, now, now).lastInsertRowid);
      entityIds.set(key, id);
    }
    // A typed reading fills an entity still `unknown` (entity-types.ts); once per entity per process.
    if (type !== UNKNOWN_TYPE && !typed.has(id)) {
      fillType.run(type, clock.now(), id);
      typed.add(id);
    }
    return id;
  }

  function seriesOf(eid: number, metric: string, type: ValueType, unit: string | undefined): Series {
    const key = `${eid}\u0000${metric}`;
    let s = series.get(key);
    if (!s) {
      const row = findSeries.get(eid, metric) as Series | undefined;
      s = row ?? { id: Number(insertSeries.run(eid, metric, unit ?? null, type, clock.now()).lastInsertRowid), value_type: type, unit: unit ?? null };
      series.set(key, s);
    }
    if (unit !== undefined && unit !== s.unit) {
      setUnit.run(unit, s.id);
      s.unit = unit;
    }
    return s;
  }

  function sourceId(name: string): number {
    let id = sources.get(name);
    if (id === undefined) {
      const row = findSource.get(name) as { id: number } | undefined;
      id = row ? row.id : Number(insertSource.run(name).lastInsertRowid);
      sources.set(name, id);
    }
    return id;
  }

  /** Coerces a value to the series' type, or throws a conflict naming the field. */
  function coerce(s: Series, metric: string, value: number | string): { num: number | null; cat: string | null } {
    if (s.value_type === 'numeric') {
      const n = typeof value === 'number' ? value : Number(value);
      if (typeof value === 'string' && (value.trim() === '' || !Number.isFinite(n))) {
        throw new HubError('conflict', `value: ${metric} is numeric; got "${value.slice(0, 40)}"`);
      }
      return { num: n, cat: null };
    }
    if (s.value_type === 'categorical') return { num: null, cat: String(value) };
    throw new HubError('conflict', `value: ${metric} holds composite values; send an object`);
  }

  function lastOf(s: Series) {
    if (s.last === undefined) {
      const row = latest.get(s.id) as { ts_ms: number; value_num: number | null; value_cat: string | null } | undefined;
      s.last = row ? { ts_ms: row.ts_ms, value: row.value_num ?? row.value_cat } : { ts_ms: -Infinity, value: null };
    }
    return s.last;
  }

  function insertScalar(eid: number, metric: string, value: number | string, r: PreparedReading, src: number, parent: number | null) {
    const s = seriesOf(eid, metric, typeof value === 'number' ? 'numeric' : 'categorical', parent === null ? r.unit : undefined);
    const { num, cat } = coerce(s, metric, value);
    if (r.dedupe === 'exact' && exact.get(s.id, r.ts_ms, num, cat)) return { id: 0, s, skipped: true };
    if (r.dedupe === 'latest') {
      const last = lastOf(s);
      if (last.value === (num ?? cat)) return { id: 0, s, skipped: true };
    }
    const id = Number(insert.run(s.id, r.ts_ms, num, cat, null, src, parent).lastInsertRowid);
    const last = lastOf(s);
    if (r.ts_ms >= last.ts_ms) s.last = { ts_ms: r.ts_ms, value: num ?? cat };
    return { id, s, skipped: false };
  }

  /** Stores one reading (and a composite's parts); caller owns the transaction. */
  function write(r: PreparedReading): WriteResult {
    const eid = entityId(r.entity_name, r.entity_type ?? UNKNOWN_TYPE);
    const src = sourceId(r.source);
    if (typeof r.value !== 'object') {
      const v = typeof r.value === 'boolean' ? String(r.value) : r.value;
      const { id, s, skipped } = insertScalar(eid, r.metric, v, r, src, null);
      return { ok: true, id, value_type: s.value_type, children: [], ...(skipped && { skipped }) };
    }
    const parts = flattenComposite(r.value, r.metric);
    if (!parts.length) throw new HubError('invalid', 'value: a composite value needs at least one number, string or boolean');
    const s = seriesOf(eid, r.metric, 'composite', r.unit);
    if (s.value_type !== 'composite') throw new HubError('conflict', `value: ${r.metric} is ${s.value_type}; got an object`);
    const id = Number(insert.run(s.id, r.ts_ms, null, null, JSON.stringify(r.value), src, null).lastInsertRowid);
    const children = parts.map(([metric, v]) => {
      const c = insertScalar(eid, metric, v, { ...r, dedupe: undefined }, src, id);
      return { metric, id: c.id, value_type: c.s.value_type };
    });
    return { ok: true, id, value_type: 'composite', children };
  }

  return {
    write,
    /** Forget cached ids (after an entity is deleted). */
    invalidate() {
      entityIds.clear();
      typed.clear();
      series.clear();
    },
    seriesId(entityName: string, metric: string): { id: number; value_type: ValueType; unit: string | null } | undefined {
      return seriesByName
        .get(entityName, metric) as { id: number; value_type: ValueType; unit: string | null } | undefined;
    },
  };
}
export type ReadingsRepo = ReturnType<typeof createReadingsRepo>;
