/**
 * Fixtures for detector tests: a REAL SQLite file in a mkdtemp dir (migrations applied), series and
 * readings inserted with SQL, the real rollup job, and the real read-only PatternContext.
 */
import { nameKey } from '../../src/lib/names.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { afterEach } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../src/db/open.js';
import { localToUtc, wallTime } from '../../src/lib/tz.js';
import { createPatternReads } from '../../src/tiers/patterns/patterns.repo.js';
import { createPatternContext } from '../../src/patterns/context.js';
import type { Detector, Finding } from '../../src/patterns/detector.js';
import { createRollups } from '../../src/tiers/timeseries/rollup.js';
import { prng } from '../../scripts/lib/prng.js';

export const TZ = 'America/New_York';
/** Sunday 30 Nov 2025, 21:00 in New York (UTC−5); the fixtures' history crosses the 2 Nov DST change. */
export const NOW = localToUtc({ year: 2025, month: 11, day: 30, hour: 21, minute: 0, second: 0 }, TZ);

export type Value = number | string | Record<string, number | string>;
export type Point = [ts: number, value: Value];
export interface Tick {
  ts: number;
  /** days before today (1 = yesterday) */
  ago: number;
  /** local hour with fraction */
  h: number;
  /** 0 = Monday … 6 = Sunday */
  wd: number;
}

/** Instant of local wall time `hours` (e.g. 18.1667 = 18:10) on the date `ago` days before NOW's date. */
export function at(ago: number, hours: number): number {
  const d = new Date(Date.UTC(2025, 10, 30 - ago));
  const m = Math.round(hours * 60);
  return localToUtc(
    {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: Math.floor(m / 60),
      minute: m % 60,
      second: 0,
    },
    TZ,
  );
}

export const weekdayOf = (ago: number) => (new Date(Date.UTC(2025, 10, 30 - ago)).getUTCDay() + 6) % 7;

/** Deterministic PRNG (mulberry32) and a Gaussian from it. */
export function rng(seed: number) {
  const u = prng(seed).next;
  const n = (sd = 1) => sd * Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
  return { u, n };
}

/** Samples `fn` every `step` seconds over the last `days` days up to NOW (null = no reading). */
export function grid(days: number, step: number, fn: (t: Tick) => Value | null): Point[] {
  const out: Point[] = [];
  const start = at(days, 0);
  for (let ts = start; ts < NOW; ts += step) {
    const w = wallTime(ts, TZ);
    const ago = Math.round((Date.UTC(2025, 10, 30) - Date.UTC(w.year, w.month - 1, w.day)) / 86_400_000);
    const v = fn({ ts, ago, h: w.hour + w.minute / 60, wd: weekdayOf(ago) });
    if (v !== null) out.push([ts, v]);
  }
  return out;
}

export interface Fixture {
  db: Db;
  /** Adds an entity (once) and a series with its readings; composites are decomposed into `metric.key` parts. */
  series(entity: string, metric: string, points: Point[], o?: { unit?: string; entityType?: string }): void;
  /** Rolls up, then runs `detector` with options parsed from `opts` at `now`. */
  run(detector: Detector, opts?: Record<string, unknown>, now?: number): Promise<Finding[]>;
  close(): void;
}

/** An opener for one test file: every fixture it opens is closed after each test. */
export function fixturesPerTest(): () => Fixture {
  const open: Fixture[] = [];
  afterEach(() => open.splice(0).forEach((f) => f.close()));
  return () => {
    const f = fixture();
    open.push(f);
    return f;
  };
}

export function fixture(): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-detectors-'));
  const db = openDatabase({ dataDir: dir });
  const ent = db.prepare(
    "INSERT INTO entities (name, name_key, type, meta, created, updated) VALUES (?, ?, ?, '{}', 0, 0) ON CONFLICT(name_key) DO UPDATE SET type = type RETURNING id",
  );
  const ser = db.prepare(
    'INSERT INTO series (entity_id, metric, unit, value_type, created) VALUES (?, ?, ?, ?, 0) RETURNING id',
  );
  const ins = db.prepare(
    'INSERT INTO readings (series_id, ts_ms, value_num, value_cat, value_json, parent_id) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const rollups = createRollups(db, { timeZone: TZ });
  const kindOf = (v: Value) =>
    typeof v === 'object' ? 'composite' : typeof v === 'number' ? 'numeric' : 'categorical';
  const scalar = (sid: number, ms: number, v: number | string, parent: number | null) =>
    Number(
      ins.run(sid, ms, typeof v === 'number' ? v : null, typeof v === 'string' ? v : null, null, parent)
        .lastInsertRowid,
    );
  return {
    db,
    series(entity, metric, points, o = {}) {
      db.transaction(() => {
        const eid = (ent.get(entity, nameKey(entity), o.entityType ?? 'room') as { id: number }).id;
        const newSeries = (m: string, kind: string, unit: string | null) =>
          (ser.get(eid, m, unit, kind) as { id: number }).id;
        const sid = newSeries(metric, points.length ? kindOf(points[0][1]) : 'numeric', o.unit ?? null);
        const parts = new Map<string, number>();
        for (const [ts, v] of points) {
          const ms = Math.round(ts * 1000);
          if (typeof v !== 'object') {
            scalar(sid, ms, v, null);
            continue;
          }
          const pid = Number(ins.run(sid, ms, null, null, JSON.stringify(v), null).lastInsertRowid);
          for (const [k, pv] of Object.entries(v)) {
            const key = `${metric}.${k}`;
            if (!parts.has(key)) parts.set(key, newSeries(key, kindOf(pv), null));
            scalar(parts.get(key)!, ms, pv, pid);
          }
        }
      })();
    },
    async run(detector, opts = {}, now = NOW) {
      rollups.run();
      return detector.detect(createPatternContext(createPatternReads(db), TZ, now), detector.options.parse(opts));
    },
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
