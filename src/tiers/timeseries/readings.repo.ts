/**
 * Writes and reads raw readings. Entity, series and source ids are cached in memory so the ingest
 * hot path is one INSERT per reading inside a batched transaction.
 */
import type { Db } from '../../db/open.js';
import { UNKNOWN_TYPE } from '../entities/entity-types.js';
import { entityIdByKey, fillTypeStatement } from '../entities/entities.repo.js';
import type { Clock } from '../../lib/clock.js';
import { HubError } from '../../lib/errors.js';
import { nameKey } from '../../lib/names.js';
import type { ReadingValue } from './timeseries.schemas.js';
import { TxCache } from './tx-cache.js';
import type { SeriesIndex } from './series-index.js';

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
  | {
      ok: true;
      id: number;
      value_type: ValueType;
      children: { metric: string; id: number; value_type: ValueType }[];
      skipped?: boolean;
    }
  | { ok: false; error: string; message: string };

interface Series {
  id: number;
  value_type: ValueType;
  unit: string | null;
  last?: { ts_ms: number; value: number | string | null };
}

const MAX_DEPTH = 4;

/** Composite parts → `[metric.key, value]` pairs; nested objects flattened with dots, arrays and nulls skipped. */
export function flattenComposite(
  obj: Record<string, unknown>,
  prefix: string,
  depth = 0,
  out: [string, number | string][] = [],
) {
  for (const [k, v] of Object.entries(obj)) {
    if (k === '__proto__' || k === 'constructor' || k === 'prototype') continue;
    const key = `${prefix}.${k}`;
    if (typeof v === 'number' && Number.isFinite(v)) out.push([key, v]);
    else if (typeof v === 'string' && v.length > 0 && v.length <= 1000) out.push([key, v]);
    else if (typeof v === 'boolean') out.push([key, String(v)]);
    else if (v && typeof v === 'object' && !Array.isArray(v) && depth < MAX_DEPTH)
      flattenComposite(v as Record<string, unknown>, key, depth + 1, out);
  }
  return out;
}

export const typeOf = (v: ReadingValue): ValueType =>
  typeof v === 'number' ? 'numeric' : typeof v === 'object' ? 'composite' : 'categorical';

export function createReadingsRepo(db: Db, clock: Clock, seriesIndex?: SeriesIndex) {
  // Every cache is a TxCache: what a rolled-back item or batch added is undone with it (see begin/undo).
  const entityIds = new TxCache<string, number>();
  const series = new TxCache<string, Series>();
  const sources = new TxCache<string, number>();
  /** Entities whose type a typed reading has filled in (or found known) since the cache was last dropped. */
  const typed = new TxCache<number, true>();
  const caches = [entityIds, series, sources, typed];
  /** `PRAGMA data_version` at the last batch: it changes when another connection (process) commits. */
  let seenVersion = -1;
  const dataVersion = db.prepare('PRAGMA data_version').pluck();

  // Entities by `nameKey` (lib/names.ts), their own name or an alias, as in entities.repo.ts; the
  // cache is keyed by the same key and dropped when an alias changes (services.ts).
  const findEntity = db.prepare(`SELECT ${entityIdByKey('@key')} AS id`);
  const seriesByName = db.prepare(
    `SELECT s.id, s.value_type, s.unit, e.name AS entity_name FROM series s JOIN entities e ON e.id = s.entity_id
       WHERE s.entity_id = ${entityIdByKey('@key')} AND s.metric = @metric`,
  );
  const insertEntity = db.prepare(
    "INSERT INTO entities (name, name_key, type, meta, created, updated) VALUES (?, ?, ?, '{}', ?, ?)",
  );
  const fillType = fillTypeStatement(db);
  const findSeries = db.prepare('SELECT id, value_type, unit FROM series WHERE entity_id = ? AND metric = ?');
  const insertSeries = db.prepare(
    'INSERT INTO series (entity_id, metric, unit, value_type, created) VALUES (?, ?, ?, ?, ?)',
  );
  const setUnit = db.prepare('UPDATE series SET unit = ? WHERE id = ?');
  const findSource = db.prepare('SELECT id FROM sources WHERE name = ?');
  const insertSource = db.prepare('INSERT INTO sources (name) VALUES (?)');
  const insert = db.prepare(
    'INSERT INTO readings (series_id, ts_ms, value_num, value_cat, value_json, source_id, parent_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const exact = db.prepare(
    'SELECT id FROM readings WHERE series_id = ? AND ts_ms = ? AND (value_num IS ? AND value_cat IS ?) LIMIT 1',
  );
  const latest = db.prepare(
    'SELECT id, ts_ms, value_num, value_cat FROM readings WHERE series_id = ? ORDER BY ts_ms DESC LIMIT 1',
  );

  function entityId(name: string, type: string): number {
    const key = nameKey(name);
    let id = entityIds.get(key);
    if (id === undefined) {
      const found = (findEntity.get({ key }) as { id: number | null }).id;
      const now = clock.now();
      id = entityIds.set(key, found ?? Number(insertEntity.run(name, key, type, now, now).lastInsertRowid));
    }
    // A typed reading fills an entity still `unknown` (entity-types.ts); once per entity while cached.
    if (type !== UNKNOWN_TYPE && !typed.get(id)) {
      fillType.run(type, clock.now(), id);
      typed.set(id, true);
    }
    return id;
  }

  function seriesOf(
    e: { id: number; name: string },
    metric: string,
    type: ValueType,
    unit: string | undefined,
  ): Series {
    const key = `${e.id}\u0000${metric}`;
    const s = series.get(key);
    if (s) return s;
    const row = findSeries.get(e.id, metric) as Series | undefined;
    if (row) return series.set(key, row);
    const id = Number(insertSeries.run(e.id, metric, unit ?? null, type, clock.now()).lastInsertRowid);
    seriesIndex?.added(id, e.name, metric);
    return series.set(key, { id, value_type: type, unit: unit ?? null });
  }

  /** Records a changed unit — only once the value was accepted, so a refused reading changes nothing. */
  function withUnit(eid: number, metric: string, s: Series, unit: string | undefined): Series {
    if (unit === undefined || unit === s.unit) return s;
    setUnit.run(unit, s.id);
    return series.set(`${eid}\u0000${metric}`, { ...s, unit });
  }

  function sourceId(name: string): number {
    let id = sources.get(name);
    if (id === undefined) {
      const row = findSource.get(name) as { id: number } | undefined;
      id = sources.set(name, row ? row.id : Number(insertSource.run(name).lastInsertRowid));
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

  /** The latest stored value of a series (for `dedupe: 'latest'`), cached on the series entry. */
  function lastOf(eid: number, metric: string, s: Series): NonNullable<Series['last']> {
    if (s.last !== undefined) return s.last;
    const row = latest.get(s.id) as { ts_ms: number; value_num: number | null; value_cat: string | null } | undefined;
    const last = row ? { ts_ms: row.ts_ms, value: row.value_num ?? row.value_cat } : { ts_ms: -Infinity, value: null };
    series.set(`${eid}\u0000${metric}`, { ...s, last });
    return last;
  }

  function insertScalar(
    eid: number,
    metric: string,
    value: number | string,
    r: PreparedReading,
    src: number,
    parent: number | null,
  ) {
    const unit = parent === null ? r.unit : undefined;
    let s = seriesOf(
      { id: eid, name: r.entity_name },
      metric,
      typeof value === 'number' ? 'numeric' : 'categorical',
      unit,
    );
    const { num, cat } = coerce(s, metric, value); // throws before this reading wrote anything: a new series cannot conflict
    s = withUnit(eid, metric, s, unit);
    if (r.dedupe === 'exact' && exact.get(s.id, r.ts_ms, num, cat)) return { id: 0, s, skipped: true };
    if (r.dedupe === 'latest' && lastOf(eid, metric, s).value === (num ?? cat)) return { id: 0, s, skipped: true };
    const last = lastOf(eid, metric, s);
    const id = Number(insert.run(s.id, r.ts_ms, num, cat, null, src, parent).lastInsertRowid);
    if (r.ts_ms >= last.ts_ms)
      series.set(`${eid}\u0000${metric}`, { ...s, last: { ts_ms: r.ts_ms, value: num ?? cat } });
    return { id, s, skipped: false };
  }

  /**
   * Stores one reading (and a composite's parts); caller owns the transaction. A scalar reading is
   * refused (HubError) before it writes anything; a composite may fail after writing some parts,
   * so the caller gives it a savepoint.
   */
  function write(r: PreparedReading): WriteResult {
    const eid = entityId(r.entity_name, r.entity_type ?? UNKNOWN_TYPE);
    const src = sourceId(r.source);
    if (typeof r.value !== 'object') {
      const v = typeof r.value === 'boolean' ? String(r.value) : r.value;
      const { id, s, skipped } = insertScalar(eid, r.metric, v, r, src, null);
      return { ok: true, id, value_type: s.value_type, children: [], ...(skipped && { skipped }) };
    }
    const parts = flattenComposite(r.value, r.metric);
    if (!parts.length)
      throw new HubError('invalid', 'value: a composite value needs at least one number, string or boolean');
    let s = seriesOf({ id: eid, name: r.entity_name }, r.metric, 'composite', r.unit);
    if (s.value_type !== 'composite')
      throw new HubError('conflict', `value: ${r.metric} is ${s.value_type}; got an object`);
    s = withUnit(eid, r.metric, s, r.unit);
    const id = Number(insert.run(s.id, r.ts_ms, null, null, JSON.stringify(r.value), src, null).lastInsertRowid);
    const children = parts.map(([metric, v]) => {
      const c = insertScalar(eid, metric, v, { ...r, dedupe: undefined }, src, id);
      return { metric, id: c.id, value_type: c.s.value_type };
    });
    return { ok: true, id, value_type: 'composite', children };
  }

  return {
    write,
    /**
     * Starts a batch (inside its write transaction, so no other connection can commit until it
     * ends): when another process has committed since the last batch — a forget, a new entity —
     * every cached id is dropped and looked up again.
     */
    begin() {
      const v = dataVersion.get() as number;
      if (v !== seenVersion) for (const c of caches) c.clear();
      seenVersion = v;
    },
    /** A point to undo the caches back to when one item fails (its savepoint rolled back). */
    mark: (): number[] => caches.map((c) => c.mark()),
    /** Undoes cache changes since `mark` (default: since `begin`, for a rolled-back batch). */
    undo(mark?: number[]) {
      caches.forEach((c, i) => c.undo(mark?.[i] ?? 0));
    },
    /** The batch committed: its cache changes stay. */
    commit() {
      for (const c of caches) c.commit();
    },
    /** `PRAGMA data_version`: it moves when another connection (process) commits. */
    dataVersion: () => dataVersion.get() as number,
    /** Forget cached ids (after an entity is deleted). */
    invalidate() {
      for (const c of caches) c.clear();
    },
    seriesId(
      entityName: string,
      metric: string,
    ): { id: number; value_type: ValueType; unit: string | null; entity_name: string } | undefined {
      return seriesByName.get({ key: nameKey(entityName), metric }) as
        | { id: number; value_type: ValueType; unit: string | null; entity_name: string }
        | undefined;
    },
  };
}
export type ReadingsRepo = ReturnType<typeof createReadingsRepo>;
