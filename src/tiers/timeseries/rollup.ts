/**
 * Incremental, exact hour/day/week rollups (SPEC §5 Rollups).
 *
 * `rollup_watermarks.last_id` is the highest reading id of the series reflected in its rollups. Every
 * reading with a higher id — on time or late — marks its hour, day and week dirty, and each dirty
 * bucket is recomputed from all raw rows in its [start, next) range, so a late reading gives the same
 * numbers as an on-time one. Buckets without new readings are not touched (retention may have
 * pruned their rows).
 *
 * Invariant, per transaction: a bucket's stored `count` equals its raw rows with id ≤ last_id until
 * retention deletes some. A new reading in a bucket whose stored count exceeds its surviving rows
 * cannot be recomputed exactly, so count/avg/min/max are merged from the stored row and the new
 * readings, and p10/p90/mode_cat keep their stored values (computed from far more data).
 *
 * Statistics (type-7 quantiles, order-independent averages, categorical modes) are in bag.ts; the
 * bucket writers (cold and warm paths) in rollup-week.ts; the hour/day/week cache in rollup-cache.ts; the SQL in
 * rollups.repo.ts.
 * Composite parents have no rollups (their parts are child series), but their watermark moves so
 * retention can prune them.
 *
 * Cost: the scheduler runs this every few seconds, so a pass reads only the new rows and the dirty
 * hours other than the latest; the latest hour, day and week of each series are kept in memory as
 * bags (distinct values with counts, so their size follows the values' spread, not the reading rate)
 * as of the watermark, within a byte budget, and re-read in full only after a restart, at a day
 * change, for late readings, for a series evicted by the budget, or after any reading was deleted (a
 * trigger counts deletions, so retention run by another process is seen too).
 * Measured on 2 cores (`--only rollup`): 1M new readings (100 series × 10k) in ~4 s, in slices; a
 * pass with 100 on-time readings 8–20 ms, the same when each series' hour holds 3,000 readings.
 */
import type { Db } from '../../db/open.js';
import { createBucketer } from './buckets.js';
import { createWarmCache } from './rollup-cache.js';
import { createWeekRoller, type Dirty } from './rollup-week.js';
import { createRollupsRepo, type SeriesRow } from './rollups.repo.js';

export interface RollupOptions {
  /** IANA zone of day and week buckets (config `timeseries.timezone`, `HEARTH_TZ`). */
  timeZone: string;
  /** New readings per transaction (default 100k ≈ 0.5 s of write lock); small values for tests. */
  chunkRows?: number;
  /** Memory for the latest hour, day and week of every series (default 8 MiB); series beyond it are re-read each pass. */
  cacheBytes?: number;
}

/** What a pass did: series with new readings, bucket rows written, readings consumed. */
export interface RollupResult {
  series: number;
  buckets: number;
  readings: number;
  /** A slice (`maxReadings`) stopped at its limit: run again for the rest. */
  more?: boolean;
}

/** Offsets, hence bucket starts, are constant within a quarter hour (see buckets.ts). */
const SLOT_MS = 900_000;
/** Rows a shared rowid scan may reach back (~1.5 ms when none is new); a series further behind is read on its own. */
const SCAN_SLACK = 20_000;

/** Builds the rollup job over `db`. Synchronous; transactions of at most `chunkRows` new readings. */
export function createRollups(db: Db, { timeZone, chunkRows = 100_000, cacheBytes = 8 * 2 ** 20 }: RollupOptions) {
  const bucketer = createBucketer(timeZone);
  const cache = createWarmCache(cacheBytes);
  const repo = createRollupsRepo(db);
  const { coldWeek, warmWeek } = createWeekRoller(repo, bucketer, cache);

  function saveWatermark(s: SeriesRow, lastId: number, maxTsMs: number) {
    s.last_id = lastId;
    s.last_ts = Math.max(s.last_ts ?? -Infinity, maxTsMs / 1000);
    repo.setWatermark(s.id, s.last_id, s.last_ts);
  }

  /** One transaction: new readings `ids[i]`/`ts[i]` (ascending ids) of one series. */
  const rollChunk = db.transaction((s: SeriesRow, ids: number[], ts: number[]): number => {
    const upTo = ids[ids.length - 1];
    cache.checkDeletions(repo.deletions()); // rows may be gone from cached buckets
    let n = 0;
    if (s.value_type !== 'composite') {
      const dirty: Dirty = { hour: new Set(), day: new Set(), week: new Set() };
      const weekFrom = new Map<number, number>(); // earliest new ts_ms per dirty week
      let [prevSlot, wk] = [NaN, 0];
      for (const t of ts) {
        const slot = Math.floor(t / SLOT_MS);
        if (slot !== prevSlot) {
          // same quarter hour → same buckets
          [prevSlot, wk] = [slot, bucketer.week(t / 1000)];
          dirty.hour.add(bucketer.hour(t / 1000));
          dirty.day.add(bucketer.day(t / 1000));
        }
        const first = weekFrom.get(wk);
        if (first === undefined || t < first) weekFrom.set(wk, t);
      }
      const oldId = s.last_id ?? 0;
      for (const ws of [...weekFrom.keys()].sort((a, b) => a - b)) {
        n += warmWeek(s, ws, dirty, oldId, upTo, weekFrom.get(ws)!) ?? coldWeek(s, ws, dirty, oldId, upTo);
      }
    }
    saveWatermark(
      s,
      upTo,
      ts.reduce((a, b) => Math.max(a, b), -Infinity),
    );
    return n;
  });

  /** Several series' chunks in one transaction (each nested chunk is a savepoint). */
  const rollPass = db.transaction((work: (readonly [SeriesRow, number[], number[]])[]): number =>
    work.reduce((n, [s, ids, ts]) => n + rollChunk(s, ids, ts), 0),
  );

  /**
   * Per series, learnt by a pass that read all of it up to the then highest id `upTo`: it has no
   * reading with an id in (wm, upTo]. Ids only grow (AUTOINCREMENT), so this holds while the watermark
   * stays `wm` (a merge drops it). It lets a series that stopped reporting join the shared scan from
   * `upTo` instead of reading its whole index extent on every pass: 40 such series of 30 days cost
   * ~5 ms a pass, on one turn of the event loop.
   */
  const quiet = new Map<number, { wm: number; upTo: number }>();

  function selectSeries(ids?: number[]): SeriesRow[] {
    const all = repo.series();
    return ids ? all.filter((s) => ids.includes(s.id)) : all;
  }

  /**
   * Rolls up every reading not yet reflected (id > its series' watermark), late ones included.
   * Series rolled up recently share one rowid range scan from the lowest of their watermarks; one far
   * behind (a sensor that reports daily, a dead one, a new series) is read through its own index
   * entries instead, so it does not drag everyone's scan back — once: after a read that found nothing
   * more, it joins the shared scan from where that read ended (`quiet`).
   */
  function run(opts: { seriesIds?: number[]; maxReadings?: number; seen?: Set<number> } = {}): RollupResult {
    const result: RollupResult = { series: 0, buckets: 0, readings: 0 };
    // A slice (`maxReadings`) stops collecting at the limit and says `more`; the scheduler yields
    // between slices, so a 1M-reading /write does not hold /health or a PUBACK for seconds. Each
    // slice scans again from the lowest watermark (rows already rolled are skipped, not re-rolled).
    const limit = opts.maxReadings ?? Infinity;
    let collected = 0;
    const pending = new Map<number, SeriesRow>();
    const fresh = new Map<number, { ids: number[]; ts: number[] }>();
    const add = (seriesId: number, id: number, ts: number) => {
      const f = fresh.get(seriesId) ?? fresh.set(seriesId, { ids: [], ts: [] }).get(seriesId)!;
      f.ids.push(id);
      f.ts.push(ts);
      collected++;
    };
    const top = repo.topId();
    let from = Infinity;
    const shared = new Set<number>(); // series whose new rows the shared scan reads
    const whole = new Set<number>(); // series read completely up to `top`
    for (const s of selectSeries(opts.seriesIds)) {
      pending.set(s.id, s);
      const wm = s.last_id ?? 0;
      const q = quiet.get(s.id);
      // How far the series is known to be rolled up or empty: its watermark, or past it (`quiet`).
      const seen = s.last_id !== null && q?.wm === s.last_id ? Math.max(q.upTo, wm) : wm;
      if (s.last_id !== null && seen >= top - SCAN_SLACK) {
        from = Math.min(from, seen);
        shared.add(s.id);
      } else if (collected < limit) {
        // ids ascend within a series, so a series cut off here resumes at its watermark next slice.
        let cut = false;
        for (const [id, ts] of repo.newOfSeries(s.id, wm)) {
          add(s.id, id, ts);
          if (collected >= limit) {
            cut = true;
            break;
          }
        }
        if (!cut) whole.add(s.id);
      }
    }
    let scanned = from >= top;
    if (!scanned && collected < limit) {
      scanned = true;
      for (const [id, seriesId, ts] of repo.newSince(from)) {
        const s = pending.get(seriesId);
        if (s && shared.has(seriesId) && id > s.last_id!) add(seriesId, id, ts);
        if (collected >= limit) {
          scanned = false;
          break;
        }
      }
    }
    if (scanned) for (const id of shared) whole.add(id);
    if (collected >= limit) result.more = true;
    for (const { ids } of fresh.values()) result.readings += ids.length;
    result.series = fresh.size;
    if (opts.seen) for (const id of fresh.keys()) opts.seen.add(id); // a sliced pass counts each series once
    // After the commit below: what was read whole has nothing past its (new) watermark up to `top`.
    const learn = () => {
      for (const id of whole) {
        const s = pending.get(id)!;
        if (s.last_id !== null) quiet.set(id, { wm: s.last_id, upTo: top });
      }
      if (!opts.seriesIds) for (const id of quiet.keys()) if (!pending.has(id)) quiet.delete(id);
    };
    if (fresh.size === 0) return (learn(), result);
    if (result.readings <= chunkRows) {
      // The usual pass (a few readings per series): one commit, one fsync, not one per series.
      result.buckets = rollPass.immediate(
        [...fresh].map(([seriesId, f]) => [pending.get(seriesId)!, f.ids, f.ts] as const),
      );
    } else {
      for (const [seriesId, { ids, ts }] of fresh) {
        for (let i = 0; i < ids.length; i += chunkRows) {
          result.buckets += rollChunk.immediate(
            pending.get(seriesId)!,
            ids.slice(i, i + chunkRows),
            ts.slice(i, i + chunkRows),
          );
        }
      }
    }
    learn();
    return result;
  }

  /** Recomputes every bucket of one series that still has raw rows; one transaction. */
  const rebuild = db.transaction((s: SeriesRow): number | null => {
    const top = repo.maxId(s.id);
    if (top === null) return null;
    const [first, last] = [repo.firstTs(s.id), repo.lastTs(s.id)];
    let n = 0;
    if (s.value_type !== 'composite') {
      for (let ws = bucketer.week(first / 1000); ws * 1000 <= last; ws = bucketer.next('week', ws)) {
        n += coldWeek(s, ws, null, s.last_id ?? 0, top);
      }
    }
    saveWatermark(s, Math.max(top, s.last_id ?? 0), last);
    return n;
  });

  /**
   * Rebuilds all buckets that still have raw rows from those rows (after a fix to this code, or to
   * check for drift). Buckets whose rows were pruned are kept, merged with any new readings as in
   * run(); buckets made under a previous time zone are not removed. `readings` = rows considered.
   */
  function recomputeAll(seriesId?: number): RollupResult {
    const total: RollupResult = { series: 0, buckets: 0, readings: 0 };
    for (const s of selectSeries(seriesId === undefined ? undefined : [seriesId])) {
      const n = rebuild.immediate(s);
      if (n === null) continue;
      total.series++;
      total.buckets += n;
      total.readings += repo.count(s.id);
    }
    return total;
  }

  /** What the hour/day/week cache holds: series and bytes (for /metrics). */
  const cacheStats = cache.stats;

  return { run, recomputeAll, bucketer, cacheStats };
}

export type Rollups = ReturnType<typeof createRollups>;
