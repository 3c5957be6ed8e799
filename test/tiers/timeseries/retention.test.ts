import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/db/open.js';
import { manualClock } from '../../../src/lib/clock.js';
import { createRetention } from '../../../src/tiers/timeseries/retention.js';
import { createRollups } from '../../../src/tiers/timeseries/rollup.js';

const DAY = 86_400;
const T0 = Date.parse('2026-01-05T00:00:00Z') / 1000; // a Monday
let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hearth-retention-'));
  db = openDatabase({ dataDir: dir });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function addSeries(metric: string, type: 'numeric' | 'categorical' | 'composite'): number {
  const e = db
    .prepare("INSERT INTO entities (name, name_key, type, meta, created, updated) VALUES (?, ?, 'room', '{}', 0, 0)")
    .run(`room-${metric}`, `room-${metric}`);
  return Number(
    db
      .prepare('INSERT INTO series (entity_id, metric, value_type, created) VALUES (?, ?, ?, 0)')
      .run(e.lastInsertRowid, metric, type).lastInsertRowid,
  );
}
function insert(rows: [number, number, number | null][]): number[] {
  const stmt = db.prepare('INSERT INTO readings (series_id, ts_ms, value_num) VALUES (?, ?, ?)');
  return db.transaction(() => rows.map(([sid, ts, v]) => Number(stmt.run(sid, ts * 1000, v).lastInsertRowid)))();
}
const count = (sql: string, ...p: unknown[]) =>
  db
    .prepare(sql)
    .pluck()
    .get(...p) as number;
const allRollups = () => db.prepare('SELECT * FROM reading_rollups ORDER BY series_id, bucket_type, bucket_ts').all();
const hourly = (sid: number, fromDay: number, toDay: number): [number, number, number][] =>
  Array.from({ length: (toDay - fromDay) * 24 }, (_, i) => [sid, T0 + fromDay * DAY + i * 3600, i % 10]);

describe('prune', () => {
  it('deletes only rolled-up rows past retention, in batches; dry run deletes nothing; rollups stay', () => {
    const a = addSeries('a', 'numeric');
    const never = addSeries('never', 'numeric'); // no rollup has run for it
    insert(hourly(a, 0, 20));
    const rollups = createRollups(db, { timeZone: 'UTC' });
    rollups.run({ seriesIds: [a] });
    insert(hourly(never, 0, 2));
    const late = insert([
      [a, T0 + DAY + 1800, 50],
      [a, T0 + DAY + 1900, 60],
    ]); // after the rollup: not rolled up yet
    const clock = manualClock(T0 + 20 * DAY);
    const retention = createRetention(db, clock, { retentionDays: 7, batchSize: 50 });

    const before = count('SELECT count(*) FROM readings');
    const dry = retention.prune({ dryRun: true });
    expect(dry).toMatchObject({ deleted: 13 * 24, kept_unrolled: 2 + 48, cutoff_ts: T0 + 13 * DAY });
    expect(dry.by_series).toEqual([
      { series_id: a, entity_id: expect.any(Number), metric: 'a', deleted: 13 * 24, kept_unrolled: 2 },
      { series_id: never, entity_id: expect.any(Number), metric: 'never', deleted: 0, kept_unrolled: 48 },
    ]);
    expect(count('SELECT count(*) FROM readings')).toBe(before);

    const snapshot = allRollups();
    const real = retention.prune({ dryRun: false });
    expect(real).toEqual({ ...dry });
    expect(count('SELECT count(*) FROM readings')).toBe(before - 13 * 24);
    expect(count('SELECT count(*) FROM readings WHERE series_id = ? AND ts_ms < ?', a, (T0 + 13 * DAY) * 1000)).toBe(2);
    expect(count('SELECT count(*) FROM readings WHERE id IN (?, ?)', ...late)).toBe(2);
    expect(count('SELECT count(*) FROM readings WHERE series_id = ?', never)).toBe(48);
    expect(allRollups()).toEqual(snapshot);
    expect(retention.prune({ dryRun: false })).toMatchObject({ deleted: 0, kept_unrolled: 50 });
  });

  it('a late reading into a pruned bucket is merged into its rollup, not recomputed from what is left', () => {
    const a = addSeries('a', 'numeric');
    // four readings per hour on day 0
    insert(Array.from({ length: 96 }, (_, i): [number, number, number] => [a, T0 + i * 900, (i % 4) + 1]));
    createRollups(db, { timeZone: 'UTC' }).run();
    const hourRow = () =>
      db
        .prepare("SELECT * FROM reading_rollups WHERE series_id = ? AND bucket_type = 'hour' AND bucket_ts = ?")
        .get(a, T0) as any;
    expect(hourRow()).toMatchObject({ count: 4, avg_num: 2.5, min_num: 1, max_num: 4 });
    const pruned = createRetention(db, manualClock(T0 + 30 * DAY), { retentionDays: 7 }).prune({ dryRun: false });
    // the newest row stays, or SQLite would reuse ids below the watermark for new readings
    expect(pruned.deleted).toBe(95);
    expect(count('SELECT max(id) FROM readings')).toBe(96);

    expect(insert([[a, T0 + 60, 10]])).toEqual([97]);
    const rollups = createRollups(db, { timeZone: 'UTC' });
    rollups.run();
    // count, avg, min and max stay exact; p10/p90 keep the values computed from the full hour
    expect(hourRow()).toMatchObject({ count: 5, avg_num: 20 / 5, min_num: 1, max_num: 10, p10_num: 1.3, p90_num: 3.7 });
    insert([[a, T0 + 120, 20]]); // and again, now that the bucket's surviving rows include the first late one
    rollups.run();
    expect(hourRow()).toMatchObject({ count: 6, avg_num: 40 / 6, min_num: 1, max_num: 20, p10_num: 1.3, p90_num: 3.7 });
    expect(
      db.prepare("SELECT count FROM reading_rollups WHERE series_id = ? AND bucket_type = 'day'").pluck().get(a),
    ).toBe(98);
  });

  it('keeps the current week right when retention cuts into it between two runs', () => {
    const a = addSeries('a', 'numeric');
    insert(hourly(a, 0, 4)); // Monday to Thursday
    const rollups = createRollups(db, { timeZone: 'UTC' });
    rollups.run(); // caches this week's values
    const week = () =>
      db
        .prepare("SELECT count, avg_num FROM reading_rollups WHERE series_id = ? AND bucket_type = 'week'")
        .get(a) as any;
    const sumBefore = week().avg_num * week().count;
    const pruned = createRetention(db, manualClock(T0 + 4 * DAY), { retentionDays: 2 }).prune({ dryRun: false });
    expect(pruned.deleted).toBe(48);
    insert([[a, T0 + 4 * DAY - 60, 100]]);
    rollups.run();
    expect(week().count).toBe(97);
    expect(week().avg_num).toBeCloseTo((sumBefore + 100) / 97, 9);
  });

  it('prunes composite parents once the rollup has passed them', () => {
    const parent = addSeries('power', 'composite');
    const [pid] = insert([[parent, T0, null]]);
    db.prepare('UPDATE readings SET value_json = ? WHERE id = ?').run('{"a":1}', pid);
    const retention = createRetention(db, manualClock(T0 + 30 * DAY), { retentionDays: 7 });
    expect(retention.prune({ dryRun: false })).toMatchObject({ deleted: 0, kept_unrolled: 1 });
    createRollups(db, { timeZone: 'UTC' }).run();
    insert([[parent, T0 + 29 * DAY, null]]); // a newer row, so the old one is not the table's last
    createRollups(db, { timeZone: 'UTC' }).run();
    expect(retention.prune({ dryRun: false })).toMatchObject({ deleted: 1, kept_unrolled: 0 });
  });

  it('deletes more than one default batch', () => {
    const a = addSeries('a', 'numeric');
    insert(Array.from({ length: 12_000 }, (_, i): [number, number, number] => [a, T0 + i * 60, i]));
    createRollups(db, { timeZone: 'UTC' }).run();
    const r = createRetention(db, manualClock(T0 + 40 * DAY), { retentionDays: 30 }).prune({ dryRun: false });
    expect(r.deleted).toBe(11_999);
    expect(count('SELECT count(*) FROM readings')).toBe(1);
    expect(count("SELECT sum(count) FROM reading_rollups WHERE bucket_type = 'day'")).toBe(12_000);
  });
});
