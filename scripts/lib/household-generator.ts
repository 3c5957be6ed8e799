/**
 * Seeded generator of a household's sensor history for the pattern-engine eval (and tests): five
 * weeks of readings in a zone with DST (America/New_York, across the 2 Nov fall-back) with planted
 * patterns of every detector kind plus control series that must stay silent — pure noise (random
 * walks, uniform and Gaussian noise at realistic amplitudes, random categorical values) and near
 * misses built EXACTLY at their distance from a threshold (daily-mean CV 0.12, dominance 8/14 days,
 * routine ±2 h, r = 0.5 on day-to-day changes, trend r² = 0.3, a 2σ blip). Every planted pattern's
 * key is listed in `expected`, including the ones a series shows as a side effect of its design
 * (a presence series is "predominantly home"). Loaded through SQL like the tests, then rolled up.
 */
import type { Db } from '../../src/db/open.js';
import { nameKey } from '../../src/lib/names.js';
import { createRollups } from '../../src/tiers/timeseries/rollup.js';
import { plantNearMisses, plantNoise } from './household-controls.js';
import { createKit, type Household } from './household-kit.js';
import { plantAnomalies, plantCorrelations, plantRoutines } from './household-events.js';
import { plantHabits, plantPreferences, plantTrends } from './household-planted.js';

export type { GenSeries, Household, Role, Value } from './household-kit.js';

export function generateHousehold(seed: number, o: { days?: number; timeZone?: string } = {}): Household {
  const k = createKit(seed, o);
  // The order is the RNG's: a planter moved changes every household after it.
  for (const plant of [
    plantPreferences,
    plantTrends,
    plantHabits,
    plantRoutines,
    plantCorrelations,
    plantAnomalies,
    plantNoise,
    plantNearMisses,
  ])
    plant(k);
  return { seed, timeZone: k.tz, now: k.now, series: k.series, expected: [...new Set(k.expected)].sort() };
}

/** Inserts a household via SQL (entities, series — composites decomposed into parts — readings) and rolls up. */
export function loadHousehold(db: Db, h: Household): void {
  const ent = db.prepare(
    "INSERT INTO entities (name, name_key, type, meta, created, updated) VALUES (?, ?, ?, '{}', 0, 0) ON CONFLICT(name_key) DO UPDATE SET type = type RETURNING id",
  );
  const ser = db.prepare(
    'INSERT INTO series (entity_id, metric, unit, value_type, created) VALUES (?, ?, ?, ?, 0) RETURNING id',
  );
  const ins = db.prepare(
    'INSERT INTO readings (series_id, ts_ms, value_num, value_cat, value_json, parent_id) VALUES (?, ?, ?, ?, ?, ?)',
  );
  db.transaction(() => {
    for (const s of h.series) {
      const eid = (ent.get(s.entity, nameKey(s.entity), s.entityType) as { id: number }).id;
      const first = s.points[0]?.[1];
      if (first === undefined) continue;
      const kind = typeof first === 'object' ? 'composite' : typeof first === 'number' ? 'numeric' : 'categorical';
      const sid = (ser.get(eid, s.metric, s.unit, kind) as { id: number }).id;
      const parts = new Map<string, number>();
      for (const [ts, v] of s.points) {
        const ms = Math.round(ts * 1000);
        if (typeof v !== 'object') {
          ins.run(sid, ms, typeof v === 'number' ? v : null, typeof v === 'string' ? v : null, null, null);
          continue;
        }
        const pid = Number(ins.run(sid, ms, null, null, JSON.stringify(v), null).lastInsertRowid);
        for (const [k, pv] of Object.entries(v)) {
          const metric = `${s.metric}.${k}`;
          let cid = parts.get(metric);
          if (cid === undefined)
            parts.set(
              metric,
              (cid = (ser.get(eid, metric, null, typeof pv === 'number' ? 'numeric' : 'categorical') as { id: number })
                .id),
            );
          ins.run(cid, ms, typeof pv === 'number' ? pv : null, typeof pv === 'string' ? pv : null, null, pid);
        }
      }
    }
  })();
  createRollups(db, { timeZone: h.timeZone }).run();
}
