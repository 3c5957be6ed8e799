/**
 * Writing one week of a series' buckets (hour, day, week) during a rollup pass: the cold path streams
 * the week's raw rows through nested accumulators; the warm path, for new readings all in the cached
 * latest day, reads only the new rows, and the dirty hours other than the cached latest one. See
 * rollup.ts for the invariants.
 */
import { bagOf, bagStats, mergeBags, type Bag, type Stats, type Value } from './bag.js';
import type { Bucketer, BucketType } from './buckets.js';
import type { WarmCache, WarmType } from './rollup-cache.js';
import type { RollupsRepo, SeriesRow } from './rollups.repo.js';

export type Dirty = Record<BucketType, Set<number>>;

/** Stored row plus readings it has not seen, for a bucket whose older rows were pruned. */
function mergeStats(s: Stats, fresh: Value[]): Stats {
  const count = s.count + fresh.length;
  if (s.avg_num === null) return { ...s, count };
  let sum = s.avg_num * s.count;
  let [min, max] = [s.min_num!, s.max_num!];
  for (const v of fresh as number[]) (sum += v), (min = Math.min(min, v)), (max = Math.max(max, v));
  return { ...s, count, avg_num: sum / count, min_num: min, max_num: max };
}

/** A bucket being filled while streaming rows in ts order. */
class Acc {
  start = 0;
  endMs = -Infinity;
  dirty = false;
  all: Value[] = [];
  fresh: Value[] = [];
  old = 0;
  reset(start: number, endSec: number, dirty: boolean) {
    [this.start, this.endMs, this.dirty, this.all, this.fresh, this.old] = [start, endSec * 1000, dirty, [], [], 0];
  }
  add(v: Value, isNew: boolean) {
    this.all.push(v);
    if (isNew) this.fresh.push(v);
    else this.old++;
  }
}

/** The bucket writers of one rollup job, reading and writing through `repo`. */
export function createWeekRoller(repo: RollupsRepo, bucketer: Bucketer, cache: WarmCache) {
  const prep = (s: SeriesRow, v: Value[]): Bag => bagOf(v, s.value_type === 'numeric');
  const remember = (s: SeriesRow, type: WarmType, entry: { start: number; upTo: number; bag: Bag }) =>
    cache.remember(s.id, type, entry);

  /** Writes one bucket from all its rows ≤ the pass's id, of which `old` were rolled up before. */
  function emit(s: SeriesRow, type: BucketType, start: number, bag: Bag, fresh: Value[], old: number): number {
    if (bag.n === 0) return 0;
    const prev = repo.stored(s.id, type, start);
    const st = prev && prev.count > old ? mergeStats(prev, fresh) : bagStats(bag);
    repo.upsert(s.id, type, start, st);
    return 1;
  }

  /**
   * Streams one week's raw rows (one indexed range query, ts order) through hour, day and week
   * accumulators; weeks start at a local midnight and hours split at days, so buckets nest. Rows with
   * id > `upTo` are left for the next pass. `dirty` null = every bucket (recomputeAll).
   */
  function coldWeek(s: SeriesRow, ws: number, dirty: Dirty | null, oldId: number, upTo: number): number {
    const we = bucketer.next('week', ws);
    const rows = (s.value_type === 'numeric' ? repo.numeric : repo.categorical).all(s.id, ws * 1000, we * 1000);
    const [hour, day, week] = [new Acc(), new Acc(), new Acc()];
    week.reset(ws, we, true);
    let n = 0;
    const flush = (type: BucketType, a: Acc) => {
      if (!a.dirty || a.all.length === 0) return;
      const bag = prep(s, a.all);
      n += emit(s, type, a.start, bag, a.fresh, a.old);
      if (dirty) remember(s, type, { start: a.start, upTo, bag });
    };
    for (const [id, ts, v] of rows) {
      if (id > upTo || v === null) continue;
      if (ts >= hour.endMs) {
        flush('hour', hour);
        const hs = bucketer.hour(ts / 1000);
        hour.reset(hs, bucketer.next('hour', hs), !dirty || dirty.hour.has(hs));
      }
      if (ts >= day.endMs) {
        flush('day', day);
        const ds = bucketer.day(ts / 1000);
        day.reset(ds, bucketer.next('day', ds), !dirty || dirty.day.has(ds));
      }
      const isNew = id > oldId;
      if (hour.dirty) hour.add(v, isNew);
      if (day.dirty) day.add(v, isNew);
      week.add(v, isNew);
    }
    flush('hour', hour), flush('day', day), flush('week', week);
    return n;
  }

  /**
   * The common case — new readings all in the latest day, whose values and its week's are cached as
   * of the watermark: fetch only the new rows, merge, and re-read just the dirty hours, except the
   * cached latest hour, which is merged like the day. Returns null (cold path) when the cache is
   * missing or stale.
   */
  function warmWeek(
    s: SeriesRow,
    ws: number,
    dirty: Dirty,
    oldId: number,
    upTo: number,
    fromMs: number,
  ): number | null {
    const { hour, day, week } = cache.get(s.id);
    const we = bucketer.next('week', ws);
    const days = [...dirty.day].filter((d) => d >= ws && d < we);
    if (!day || !week || week.start !== ws || days.length !== 1 || days[0] !== day.start) return null;
    if (day.upTo !== oldId || week.upTo !== oldId) return null;
    const q = s.value_type === 'numeric' ? repo.numeric : repo.categorical;
    const freshRows = q.fresh(s.id, fromMs, we * 1000, oldId, upTo).filter((r) => r[2] !== null);
    const fresh = freshRows.map((r) => r[2]!);
    const freshBag = prep(s, fresh);
    let n = 0;
    let latest: { start: number; bag: Bag } | null = null;
    for (const hs of dirty.hour) {
      if (hs < ws || hs >= we) continue;
      const he = bucketer.next('hour', hs);
      // The cached latest hour takes the new rows like the day; any other dirty hour is read again.
      let bag: Bag;
      let isNew: Value[];
      let old: number;
      if (hour && hour.start === hs && hour.upTo === oldId) {
        isNew = freshRows.filter((r) => r[1] >= hs * 1000 && r[1] < he * 1000).map((r) => r[2]!);
        bag = mergeBags(hour.bag, prep(s, isNew));
        old = hour.bag.n;
      } else {
        const rows = q.all(s.id, hs * 1000, he * 1000).filter((r) => r[0] <= upTo && r[2] !== null);
        isNew = rows.filter((r) => r[0] > oldId).map((r) => r[2]!);
        bag = prep(
          s,
          rows.map((r) => r[2]!),
        );
        old = rows.length - isNew.length;
      }
      n += emit(s, 'hour', hs, bag, isNew, old);
      if (!latest || hs > latest.start) latest = { start: hs, bag };
    }
    if (latest) remember(s, 'hour', { start: latest.start, upTo, bag: latest.bag });
    for (const [type, w] of [
      ['day', day],
      ['week', week],
    ] as const) {
      const bag = mergeBags(w.bag, freshBag);
      n += emit(s, type, w.start, bag, fresh, w.bag.n);
      remember(s, type, { start: w.start, upTo, bag });
    }
    return n;
  }

  return { coldWeek, warmWeek };
}
