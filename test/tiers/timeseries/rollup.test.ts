import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { openDatabase, type Db } from '../../../src/db/open.js';
import { createRollups } from '../../../src/tiers/timeseries/rollup.js';
import { createRollupsRepo } from '../../../src/tiers/timeseries/rollups.repo.js';
import { bagOf, bagQuantile7, mergeBags, quantile7, type Stats } from '../../../src/tiers/timeseries/bag.js';

type ValueType = 'numeric' | 'categorical' | 'composite';
/** A reading_rollups row: its key and the bucket statistics. */
interface RollupRow extends Stats {
  series_id: number;
  bucket_type: string;
  bucket_ts: number;
}

const s = (iso: string) => Date.parse(iso) / 1000;
const dirs: string[] = [];
const dbs: Db[] = [];

function tempDb(): Db {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-rollup-'));
  dirs.push(dir);
  const db = openDatabase({ dataDir: dir });
  dbs.push(db);
  return db;
}

/**
 * Counts calls of `method` on the statements whose SQL contains `fragment` (and, with `when`, only the
 * calls whose arguments it accepts): which repository reads a rollup pass makes.
 */
function countCalls(
  db: Db,
  fragment: string,
  method: 'all' | 'iterate',
  when: (args: unknown[]) => boolean = () => true,
) {
  const counter = { n: 0 };
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const stmt = prepare(sql);
    if (!sql.includes(fragment)) return stmt;
    const call = (stmt[method] as (...a: unknown[]) => unknown).bind(stmt);
    return Object.assign(stmt, {
      [method]: (...args: unknown[]) => ((counter.n += when(args) ? 1 : 0), call(...args)),
    });
  }) as typeof db.prepare;
  return counter;
}

function addSeries(db: Db, metric: string, type: ValueType): number {
  const e = db.prepare(
    "INSERT INTO entities (name, name_key, type, meta, created, updated) VALUES (?, ?, 'room', '{}', 0, 0)",
  );
  const name = `room-${metric}-${dbs.indexOf(db)}-${Math.random()}`;
  const entityId = e.run(name, name).lastInsertRowid;
  return Number(
    db
      .prepare('INSERT INTO series (entity_id, metric, value_type, created) VALUES (?, ?, ?, 0)')
      .run(entityId, metric, type).lastInsertRowid,
  );
}

/** Inserts [series, tsSec, value] rows in one transaction; strings go to value_cat. */
function insert(db: Db, rows: [number, number, number | string | null][]): number[] {
  const stmt = db.prepare('INSERT INTO readings (series_id, ts_ms, value_num, value_cat) VALUES (?, ?, ?, ?)');
  return db.transaction(() =>
    rows.map(([sid, ts, v]) =>
      Number(
        stmt.run(sid, Math.round(ts * 1000), typeof v === 'number' ? v : null, typeof v === 'string' ? v : null)
          .lastInsertRowid,
      ),
    ),
  )();
}

const rollups = (db: Db, seriesId?: number) =>
  db
    .prepare(
      `SELECT * FROM reading_rollups ${seriesId === undefined ? '' : 'WHERE series_id = ?'}
       ORDER BY series_id, bucket_type, bucket_ts`,
    )
    .all(...(seriesId === undefined ? [] : [seriesId])) as RollupRow[];
const row = (db: Db, sid: number, type: string, ts: number) =>
  db
    .prepare('SELECT * FROM reading_rollups WHERE series_id = ? AND bucket_type = ? AND bucket_ts = ?')
    .get(sid, type, ts) as RollupRow | undefined;
const watermark = (db: Db, sid: number) =>
  db.prepare('SELECT last_id, last_ts FROM rollup_watermarks WHERE series_id = ?').get(sid) as
    | { last_id: number; last_ts: number }
    | undefined;

afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('quantiles (Hyndman & Fan type 7, as R and NumPy)', () => {
  it('matches hand-computed values', () => {
    expect(quantile7([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.1)).toBeCloseTo(1.9, 12); // h = 0.9
    expect(quantile7([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBeCloseTo(9.1, 12); // h = 8.1
    expect(quantile7([10, 20, 40], 0.1)).toBeCloseTo(12, 12); // h = 0.2 → 10 + 0.2·10
    expect(quantile7([10, 20, 40], 0.9)).toBeCloseTo(36, 12); // h = 1.8 → 20 + 0.8·20
    expect(quantile7([0, 100], 0.1)).toBeCloseTo(10, 12);
    expect(quantile7([7], 0.1)).toBe(7);
    expect(quantile7([7], 0.9)).toBe(7);
  });

  it('is what a numeric bucket stores, whatever the insertion order', () => {
    const db = tempDb();
    const sid = addSeries(db, 'temp', 'numeric');
    insert(db, [
      [sid, s('2026-01-05T10:40:00Z'), 40],
      [sid, s('2026-01-05T10:05:00Z'), 10],
      [sid, s('2026-01-05T10:20:00Z'), 20],
    ]);
    expect(createRollups(db, { timeZone: 'UTC' }).run()).toEqual({ series: 1, buckets: 3, readings: 3 });
    const h = row(db, sid, 'hour', s('2026-01-05T10:00:00Z'))!;
    expect(h).toMatchObject({ count: 3, min_num: 10, max_num: 40, mode_cat: null });
    expect(h.avg_num).toBeCloseTo(70 / 3, 12);
    expect(h.p10_num).toBeCloseTo(12, 12);
    expect(h.p90_num).toBeCloseTo(36, 12);
    expect(row(db, sid, 'day', s('2026-01-05T00:00:00Z'))).toMatchObject({ count: 3 });
    expect(row(db, sid, 'week', s('2026-01-05T00:00:00Z'))).toMatchObject({ count: 3 }); // a Monday
  });
});

describe('categorical buckets', () => {
  it('keep count and the mode; ties go to the smallest value; numeric fields are NULL', () => {
    const db = tempDb();
    const sid = addSeries(db, 'mood', 'categorical');
    const t = s('2026-01-05T10:00:00Z');
    insert(
      db,
      ['a', 'c', 'b', 'b', 'a'].map((v, i): [number, number, string] => [sid, t + i * 60, v]),
    );
    insert(db, [
      [sid, t + 3600, 'Z'],
      [sid, t + 3660, 'zz'],
      [sid, t + 3720, 'Z'],
      [sid, t + 3780, 'zz'],
    ]);
    createRollups(db, { timeZone: 'UTC' }).run();
    expect(row(db, sid, 'hour', t)).toEqual({
      series_id: sid,
      bucket_type: 'hour',
      bucket_ts: t,
      count: 5,
      avg_num: null,
      min_num: null,
      max_num: null,
      p10_num: null,
      p90_num: null,
      mode_cat: 'a',
    });
    expect(row(db, sid, 'hour', t + 3600)).toMatchObject({ count: 4, mode_cat: 'Z' });
    expect(row(db, sid, 'day', t - 10 * 3600)).toMatchObject({ count: 9, mode_cat: 'Z' }); // a:2 b:2 Z:2 zz:2
  });
});

describe('buckets follow the configured zone', () => {
  it('Europe/Berlin fall-back day: 25 hour buckets, one day of 25 h', () => {
    const db = tempDb();
    const sid = addSeries(db, 'temp', 'numeric');
    const from = s('2026-10-24T22:00:00Z'); // 2026-10-25 00:00 CEST
    insert(
      db,
      Array.from({ length: 25 * 6 }, (_, i): [number, number, number] => [sid, from + i * 600, i]),
    );
    createRollups(db, { timeZone: 'Europe/Berlin' }).run();
    const rows = rollups(db, sid);
    expect(rows.filter((r) => r.bucket_type === 'hour')).toHaveLength(25);
    expect(rows.filter((r) => r.bucket_type === 'hour').every((r) => r.count === 6)).toBe(true);
    expect(rows.filter((r) => r.bucket_type === 'day')).toEqual([
      expect.objectContaining({ bucket_ts: from, count: 150 }),
    ]);
    expect(rows.filter((r) => r.bucket_type === 'week')).toEqual([
      expect.objectContaining({ bucket_ts: s('2026-10-18T22:00:00Z'), count: 150 }),
    ]);
  });
});

describe('incremental runs', () => {
  it('a late reading recomputes its hour, day and week exactly and nothing else', () => {
    const db = tempDb();
    const sid = addSeries(db, 'temp', 'numeric');
    const r = createRollups(db, { timeZone: 'America/New_York' });
    const from = s('2026-03-02T05:00:00Z'); // Monday 00:00 EST
    insert(
      db,
      Array.from({ length: 48 * 4 }, (_, i): [number, number, number] => [sid, from + i * 900, i % 7]),
    );
    expect(r.run()).toEqual({ series: 1, buckets: 48 + 2 + 1, readings: 192 });
    expect(r.run()).toEqual({ series: 0, buckets: 0, readings: 0 });
    const before = rollups(db, sid);
    const wm = watermark(db, sid)!;
    expect(wm.last_ts).toBe(from + 191 * 900);

    const [lateId] = insert(db, [[sid, from + 5 * 3600 + 123, 100]]);
    expect(r.run()).toEqual({ series: 1, buckets: 3, readings: 1 });
    const after = rollups(db, sid);
    const changed = after.filter((a, i) => JSON.stringify(a) !== JSON.stringify(before[i]));
    expect(changed.map((c) => [c.bucket_type, c.bucket_ts])).toEqual([
      ['day', from],
      ['hour', from + 5 * 3600],
      ['week', from],
    ]);
    expect(row(db, sid, 'hour', from + 5 * 3600)).toMatchObject({ count: 5, max_num: 100 });
    expect(watermark(db, sid)).toEqual({ last_id: lateId, last_ts: wm.last_ts });

    const fresh = tempDb();
    const sid2 = addSeries(fresh, 'temp', 'numeric');
    insert(
      fresh,
      db
        .prepare('SELECT ts_ms, value_num FROM readings ORDER BY id DESC')
        .raw()
        .all()
        .map(([ts, v]: any): [number, number, number] => [sid2, ts / 1000, v]),
    );
    createRollups(fresh, { timeZone: 'America/New_York' }).run();
    expect(rollups(fresh, sid2).map((x) => ({ ...x, series_id: sid }))).toEqual(after);
  });

  it('rolls up composite parts as their own series, never the composite parent', () => {
    const db = tempDb();
    const parent = addSeries(db, 'power', 'composite');
    const partA = addSeries(db, 'power.a', 'numeric');
    const t = s('2026-01-05T10:00:00Z');
    const [pid] = insert(db, [[parent, t, 0]]);
    db.prepare('UPDATE readings SET value_num = NULL, value_json = ? WHERE id = ?').run('{"a":5}', pid);
    insert(db, [[partA, t, 5]]);
    const res = createRollups(db, { timeZone: 'UTC' }).run();
    expect(res).toEqual({ series: 2, buckets: 3, readings: 2 });
    expect(rollups(db, parent)).toEqual([]);
    expect(rollups(db, partA)).toHaveLength(3);
    // the parent's watermark moves so retention can prune it once old
    expect(watermark(db, parent)).toEqual({ last_id: pid, last_ts: t });
  });

  it('run({ seriesIds }) touches only those series', () => {
    const db = tempDb();
    const a = addSeries(db, 'a', 'numeric');
    const b = addSeries(db, 'b', 'numeric');
    insert(db, [
      [a, s('2026-01-05T10:00:00Z'), 1],
      [b, s('2026-01-05T10:00:00Z'), 2],
    ]);
    const r = createRollups(db, { timeZone: 'UTC' });
    expect(r.run({ seriesIds: [b] })).toEqual({ series: 1, buckets: 3, readings: 1 });
    expect(rollups(db, a)).toEqual([]);
    expect(r.run()).toEqual({ series: 1, buckets: 3, readings: 1 });
  });

  it("the shared scan hands over only readings newer than their series' watermark, late ones included", () => {
    const db = tempDb();
    const a = addSeries(db, 'a', 'numeric');
    const b = addSeries(db, 'b', 'numeric');
    const t = s('2026-01-05T10:00:00Z');
    insert(
      db,
      Array.from({ length: 50 }, (_, i) => [i % 2 ? a : b, t + i, i] as [number, number, number]),
    );
    const r = createRollups(db, { timeZone: 'UTC' });
    expect(r.run()).toMatchObject({ series: 2, readings: 50 });
    const repo = createRollupsRepo(db);
    expect([...repo.newSince(0)]).toEqual([]); // all rolled up: nothing reaches JS
    const [late] = insert(db, [[a, t - 3600, 99]]);
    const c = addSeries(db, 'c', 'numeric'); // no watermark yet: read through its own index entries
    insert(db, [[c, t, 1]]);
    expect([...repo.newSince(0)]).toEqual([[late, a, (t - 3600) * 1000]]);
    expect(r.run()).toMatchObject({ series: 2, readings: 2 });
    expect([...repo.newSince(0)]).toEqual([]);
  });

  it('a series that stopped reporting is read through its own index once, not every pass; late and moved readings still reach it', () => {
    const db = tempDb();
    // Counts the reads of the stopped series' own index entries (rollups.repo.ts `newOfSeries`).
    let stopped = 0;
    const seeks = countCalls(db, '+id > ? ORDER BY id', 'iterate', (args) => args[0] === stopped);
    stopped = addSeries(db, 'stopped', 'numeric');
    const busy = addSeries(db, 'busy', 'numeric');
    const t = s('2026-01-05T00:00:00Z');
    const burst = (n: number, from: number) =>
      insert(
        db,
        Array.from({ length: n }, (_, i) => [busy, from + i, i % 50] as [number, number, number]),
      );
    insert(
      db,
      Array.from({ length: 100 }, (_, i) => [stopped, t + i * 60, i] as [number, number, number]),
    );
    burst(25_000, t); // `stopped` is now far behind the newest id
    const r = createRollups(db, { timeZone: 'UTC' });
    r.run();
    expect(seeks.n).toBe(1); // no watermark yet
    seeks.n = 0;
    burst(10, t + 30_000);
    expect(r.run()).toMatchObject({ series: 1, readings: 10 });
    expect(seeks.n).toBe(0); // nothing past its watermark up to the last pass's newest id: the shared scan covers it
    burst(30_000, t + 40_000); // far behind again: one read of its index, then none
    r.run();
    expect(seeks.n).toBe(1);
    burst(10, t + 80_000);
    r.run();
    expect(seeks.n).toBe(1);
    const [late] = insert(db, [[stopped, t + 30, 999]]); // a late reading, far below the newest ts
    expect(r.run()).toMatchObject({ series: 1, readings: 1 });
    expect(watermark(db, stopped)?.last_id).toBe(late);
    // A merge moves another series' rows (ids between) into it and drops both watermarks.
    const other = addSeries(db, 'other', 'numeric');
    insert(db, [[other, t + 90, 7]]);
    burst(25_000, t + 90_000);
    r.run();
    db.prepare('UPDATE readings SET series_id = ? WHERE series_id = ?').run(stopped, other);
    db.prepare('DELETE FROM reading_rollups WHERE series_id IN (?, ?)').run(stopped, other);
    db.prepare('DELETE FROM rollup_watermarks WHERE series_id IN (?, ?)').run(stopped, other);
    db.prepare("UPDATE counters SET n = n + 1 WHERE name = 'readings_deleted'").run();
    db.prepare('DELETE FROM series WHERE id = ?').run(other);
    r.run();
    const incremental = rollups(db, stopped);
    expect(incremental.find((b) => b.bucket_type === 'day')?.count).toBe(102);
    r.recomputeAll(stopped);
    expect(rollups(db, stopped)).toEqual(incremental);
  });

  it('run({ maxReadings }) rolls a backlog in slices that end where one whole pass ends', () => {
    const [sliced, whole] = [tempDb(), tempDb()];
    for (const db of [sliced, whole]) {
      const ids = ['a', 'b', 'c'].map((m) => addSeries(db, m, 'numeric'));
      const far = addSeries(db, 'far', 'numeric'); // rolled once long ago: read through its own index
      insert(db, [[far, s('2026-01-01T00:00:00Z'), 1]]);
      createRollups(db, { timeZone: 'UTC' }).run();
      const rows: [number, number, number][] = [];
      for (let i = 0; i < 3000; i++)
        rows.push([ids[i % 3], s('2026-01-05T00:00:00Z') + ((i * 7919) % 3000) * 60, (i * 31) % 97]);
      for (let i = 0; i < 500; i++) rows.push([far, s('2026-01-02T00:00:00Z') + i * 300, i % 13]);
      insert(db, rows);
    }
    const r = createRollups(sliced, { timeZone: 'UTC' });
    let slices = 0;
    for (let res = r.run({ maxReadings: 400 }); ; res = r.run({ maxReadings: 400 })) {
      slices++;
      expect(res.readings).toBeLessThanOrEqual(400);
      if (!res.more) break;
    }
    expect(slices).toBeGreaterThanOrEqual(9); // 3,500 readings, 400 at a time
    createRollups(whole, { timeZone: 'UTC' }).run();
    const strip = (rs: RollupRow[]) => rs.map(({ series_id: _s, ...rest }) => rest);
    expect(strip(rollups(sliced))).toEqual(strip(rollups(whole)));
    expect(rollups(sliced).length).toBeGreaterThan(50);
    expect(r.run()).toEqual({ series: 0, buckets: 0, readings: 0 });
  });

  it('recomputeAll rebuilds a damaged bucket and leaves the rest as they were', () => {
    const db = tempDb();
    const sid = addSeries(db, 'temp', 'numeric');
    const t = s('2026-01-05T10:00:00Z');
    insert(
      db,
      Array.from({ length: 100 }, (_, i): [number, number, number] => [sid, t + i * 97, Math.sin(i)]),
    );
    const r = createRollups(db, { timeZone: 'Asia/Kolkata' });
    r.run();
    const good = rollups(db, sid);
    db.prepare("UPDATE reading_rollups SET avg_num = 999, p90_num = -1 WHERE bucket_type = 'hour'").run();
    expect(r.recomputeAll(sid)).toMatchObject({ series: 1, buckets: good.length, readings: 100 });
    expect(rollups(db, sid)).toEqual(good);
  });
});

/** mulberry32: a tiny seeded PRNG, so every failure replays. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('property: incremental rollups equal a from-scratch run', () => {
  // fast-check is not a dependency; a seeded loop gives the same reproducible random streams.
  const zones = ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe'];
  const starts = ['2026-03-01T00:00:00Z', '2026-10-15T00:00:00Z', '2026-09-20T00:00:00Z', '2026-06-01T00:00:00Z'];
  let inc: Db;
  let ref: Db;
  beforeEach(() => {
    inc = tempDb();
    ref = tempDb();
    // thousands of small transactions: skip the fsync per commit (durability is not under test here)
    for (const db of [inc, ref]) db.pragma('synchronous = OFF');
  });

  it('over 60 random out-of-order streams with late readings', () => {
    for (let iter = 0; iter < 60; iter++) {
      const rnd = prng(1000 + iter);
      const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
      const timeZone = pick(zones);
      const base = s(pick(starts));
      const span = (3 + rnd() * 25) * 86_400; // up to four weeks
      const series = Array.from({ length: 1 + Math.floor(rnd() * 3) }, (_, k) => {
        const type: ValueType = rnd() < 0.6 ? 'numeric' : 'categorical';
        return { type, inc: addSeries(inc, `m${iter}.${k}`, type), ref: addSeries(ref, `m${iter}.${k}`, type) };
      });
      expect(series.map((x) => x.inc)).toEqual(series.map((x) => x.ref));
      // Readings in roughly ts order with random displacement: some arrive days late.
      const stream: { k: number; ts: number; v: number | string | null }[] = [];
      for (const [k, sr] of series.entries()) {
        const n = 5 + Math.floor(rnd() * 150);
        for (let i = 0; i < n; i++) {
          const ts = Math.round((base + rnd() * span) * 1000) / 1000;
          const v =
            rnd() < 0.03
              ? null // a value-less row must be ignored, on every path
              : sr.type === 'numeric'
                ? rnd() < 0.3
                  ? Math.floor(rnd() * 5)
                  : Math.round(rnd() * 2e4) / 100 - 50
                : pick(['a', 'b', 'c', 'Z']);
          stream.push({ k, ts, v });
        }
      }
      // half the streams are nearly in order (the common, cached path), half days late
      const lateness = rnd() < 0.5 ? rnd() * 3600 : rnd() * 3 * 86_400;
      stream.sort((x, y) => x.ts + rnd() * lateness - (y.ts + rnd() * lateness));
      const chunkRows = rnd() < 0.3 ? 1 + Math.floor(rnd() * 10) : undefined;
      const r = createRollups(inc, { timeZone, chunkRows });
      for (let i = 0; i < stream.length; ) {
        const size = 1 + Math.floor(rnd() * 40);
        insert(
          inc,
          stream.slice(i, i + size).map((x): [number, number, number | string | null] => [series[x.k].inc, x.ts, x.v]),
        );
        r.run();
        i += size;
      }
      // The reference gets the same readings in another order, all at once.
      const shuffled = [...stream].sort(() => rnd() - 0.5);
      insert(
        ref,
        shuffled.map((x): [number, number, number | string | null] => [series[x.k].ref, x.ts, x.v]),
      );
      createRollups(ref, { timeZone }).run();

      for (const sr of series) {
        const a = rollups(inc, sr.inc);
        const b = rollups(ref, sr.ref);
        expect(a.length, `iteration ${iter}`).toBe(b.length);
        expect(a.length).toBeGreaterThan(0);
        for (const [i, x] of a.entries()) {
          const y = b[i];
          const ctx = `iteration ${iter} ${timeZone} ${x.bucket_type} ${x.bucket_ts}`;
          expect([x.bucket_type, x.bucket_ts, x.count, x.min_num, x.max_num, x.mode_cat], ctx).toEqual([
            y.bucket_type,
            y.bucket_ts,
            y.count,
            y.min_num,
            y.max_num,
            y.mode_cat,
          ]);
          for (const f of ['avg_num', 'p10_num', 'p90_num'] as const) {
            if (y[f] === null) expect(x[f], ctx).toBeNull();
            else expect(Math.abs(x[f]! - y[f]!), `${ctx} ${f}`).toBeLessThanOrEqual(1e-9);
          }
        }
        const counts = a.filter((x) => x.bucket_type === 'week').reduce((n, x) => n + x.count, 0);
        expect(counts).toBe(stream.filter((x) => series[x.k] === sr && x.v !== null).length);
      }
    }
  }, 120_000);
});

describe('bags: a bucket kept as distinct values with counts', () => {
  it('give the quantiles, merges and modes of the expanded values', () => {
    const rnd = prng(7);
    for (let iter = 0; iter < 200; iter++) {
      const gen = () =>
        Array.from({ length: 1 + Math.floor(rnd() * 60) }, () =>
          rnd() < 0.5 ? Math.floor(rnd() * 6) : Math.round(rnd() * 1e4) / 100,
        );
      const [a, b] = [gen(), gen()];
      const all = Float64Array.from([...a, ...b]).sort();
      const merged = mergeBags(bagOf(a, true), bagOf(b, true));
      expect(merged).toEqual(bagOf([...b, ...a], true));
      expect(merged.n).toBe(all.length);
      expect(merged.keys.length).toBe(new Set(all).size);
      for (const p of [0, 0.1, 0.5, 0.9, 1]) expect(bagQuantile7(merged, p)).toBeCloseTo(quantile7(all, p), 12);
    }
    const cats = mergeBags(bagOf(['b', 'a', 'c'], false), bagOf(['c', 'b'], false));
    expect([...cats.keys]).toEqual(['a', 'b', 'c']);
    expect([...cats.counts]).toEqual([1, 2, 2]);
  });
});

describe('the in-memory hour/day/week cache', () => {
  it('grows with the spread of values, not with the number of readings', () => {
    const db = tempDb();
    db.pragma('synchronous = OFF');
    const sids = [addSeries(db, 'temp', 'numeric'), addSeries(db, 'mode', 'categorical')];
    const r = createRollups(db, { timeZone: 'UTC' });
    const from = s('2026-03-02T00:00:00Z');
    const sizes: number[] = [];
    for (let pass = 0; pass < 20; pass++) {
      const rows = Array.from({ length: 500 }, (_, i): [number, number, number | string][] => {
        const n = pass * 500 + i;
        return [
          [sids[0], from + n * 4, 18 + (n % 70) / 10],
          [sids[1], from + n * 4, ['heat', 'cool', 'off'][n % 3]],
        ];
      }).flat();
      insert(db, rows);
      r.run();
      sizes.push(r.cacheStats().bytes);
    }
    expect(r.cacheStats().series).toBe(2);
    // 10,000 readings per series, 70 + 3 distinct values: the cache is as big after pass 20 as after pass 2
    expect(sizes[19]).toBe(sizes[1]);
    // three bags (the latest hour, day and week), each at most 70 numbers and 3 strings
    expect(sizes[19]).toBeLessThanOrEqual(3 * (70 * 12 + 3 * 40));
    expect(row(db, sids[0], 'week', from)).toMatchObject({ count: 10_000, min_num: 18, max_num: 24.9 });
  });

  it("adds on-time readings to the latest hour without re-reading that hour's rows", () => {
    const db = tempDb();
    // Counts reads of whole bucket ranges (rollups.repo.ts `ranges().all`).
    const rangeReads = countCalls(db, 'ts_ms < ? ORDER BY ts_ms', 'all');
    const sid = addSeries(db, 'temp', 'numeric');
    const hour = s('2026-03-02T10:00:00Z');
    const r = createRollups(db, { timeZone: 'UTC' });
    insert(db, [[sid, hour + 1, 20]]);
    r.run(); // cold: the week read once
    rangeReads.n = 0;
    for (let pass = 0; pass < 5; pass++) {
      insert(db, [
        [sid, hour + 60 + pass * 60, 20 + pass],
        [sid, hour + 90 + pass * 60, 19 - pass],
      ]);
      r.run();
    }
    expect(rangeReads.n).toBe(0);
    insert(db, [[sid, hour + 3600 + 5, 30]]); // the next hour: read once (it is new), then cached
    r.run();
    insert(db, [[sid, hour + 3600 + 65, 31]]);
    r.run();
    expect(rangeReads.n).toBe(1);
    const incremental = rollups(db, sid);
    expect(row(db, sid, 'hour', hour)).toMatchObject({ count: 11, min_num: 15, max_num: 24 });
    r.recomputeAll(sid);
    expect(rollups(db, sid)).toEqual(incremental);
  });

  it('over its byte budget, series are re-read from disk with the same results', () => {
    const [small, big] = [tempDb(), tempDb()];
    const from = s('2026-03-02T00:00:00Z');
    const results = [small, big].map((db, k) => {
      const sids = [0, 1, 2].map((i) => addSeries(db, `t${i}`, 'numeric'));
      const r = createRollups(db, { timeZone: 'UTC', cacheBytes: k === 0 ? 1000 : undefined });
      for (let pass = 0; pass < 5; pass++) {
        insert(
          db,
          sids.flatMap((sid, j) =>
            Array.from({ length: 40 }, (_, i): [number, number, number] => [
              sid,
              from + (pass * 40 + i) * 60,
              (pass * 40 + i) * (j + 1),
            ]),
          ),
        );
        r.run();
      }
      expect(r.cacheStats().bytes).toBeLessThanOrEqual(k === 0 ? 1000 : Infinity);
      return { rows: rollups(db), cached: r.cacheStats().series };
    });
    expect(results[0].cached).toBeLessThan(3);
    expect(results[1].cached).toBe(3);
    expect(results[0].rows).toEqual(results[1].rows);
  });

  it('is dropped when readings are deleted, even by another connection, so results never depend on it', () => {
    const from = s('2026-03-02T00:00:00Z');
    const [warmDb, coldDb] = [tempDb(), tempDb()];
    const [sw, sc] = [addSeries(warmDb, 'temp', 'numeric'), addSeries(coldDb, 'temp', 'numeric')];
    const warm = createRollups(warmDb, { timeZone: 'UTC' });
    const day = Array.from({ length: 200 }, (_, i) => [from + i * 60, i % 50] as const);
    insert(
      warmDb,
      day.map(([ts, v]): [number, number, number] => [sw, ts, v]),
    );
    insert(
      coldDb,
      day.map(([ts, v]): [number, number, number] => [sc, ts, v]),
    );
    warm.run();
    createRollups(coldDb, { timeZone: 'UTC' }).run();
    expect(warm.cacheStats().series).toBe(1);
    // like `hearth prune` from another process: delete the first hour's rows
    for (const db of [warmDb, coldDb]) {
      const other = new Database(db.name);
      other.prepare('DELETE FROM readings WHERE ts_ms < ?').run((from + 3600) * 1000);
      other.close();
    }
    insert(warmDb, [[sw, from + 300 * 60, -100]]);
    insert(coldDb, [[sc, from + 300 * 60, -100]]);
    warm.run();
    createRollups(coldDb, { timeZone: 'UTC' }).run(); // a restarted hub: no cache
    const strip = (rows: RollupRow[]) => rows.map(({ series_id: _, ...x }) => x);
    expect(strip(rollups(warmDb, sw))).toEqual(strip(rollups(coldDb, sc)));
    expect(row(warmDb, sw, 'day', from)).toMatchObject({ count: 201, min_num: -100 });
  });
});
