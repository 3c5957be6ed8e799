/**
 * Part 3 — rollups. 1M readings (100 series × 10k minutes) through the real write path, then
 * `services.timeseries.rollupAll()`: the first incremental pass over all of them; a pass after 10k late
 * readings sprinkled over old buckets; the scheduler's common case, 100 on-time readings; and the same
 * pass when every series' current hour already holds a reading a second (a busy house).
 * Baseline: a plain scan of the same rows (`SELECT count(*), avg(value_num) FROM readings`), so
 * the ratio says how many full scans a rollup costs.
 */
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import { scratchServices } from '../lib/eval-hub.js';
import { prng, since, type BenchOptions, type BenchRow } from './common.js';
import { fillReadings, lateReadings, minuteOfReadings } from './readings-fill.js';
import { internals } from '../../src/internals.js';
import { createRollupsRepo } from '../../src/tiers/timeseries/rollups.repo.js';

const TARGET_S = 10;

/** Runs part 3 and returns its table rows. */
export async function benchRollup(opts: BenchOptions): Promise<BenchRow[]> {
  const total = opts.quick ? 100_000 : 1_000_000;
  const late = opts.quick ? 1_000 : 10_000;
  const h = scratchServices(createLocalEmbedder());
  const rng = prng(99);
  try {
    const { firstMs, lastMs } = fillReadings(h, rng, total);
    h.db.pragma('wal_checkpoint(TRUNCATE)');
    const scanStmt = h.db.prepare('SELECT count(*), avg(value_num) FROM readings');
    // Scan before and after, as the rollup's neighbours: the baseline is their mean.
    const scan = () => {
      const t0 = performance.now();
      scanStmt.get();
      return since(t0);
    };
    scan(); // page cache warm, like the rollup's rows right after ingest
    const scanBefore = scan();
    const t0 = performance.now();
    const first = await h.services.timeseries.rollupAll();
    const firstMs_ = since(t0);
    const scanAfter = scan();
    const scanMs = (scanBefore + scanAfter) / 2;
    opts.log(
      `rollup: first pass ${(firstMs_ / 1000).toFixed(2)} s — ${first.readings} readings, ${first.series} series, ${first.buckets} buckets; scan ${scanMs.toFixed(0)} ms`,
    );

    // Late readings anywhere in the first 90 % of the range: they dirty old hours, days and weeks.
    lateReadings(h, rng, late, firstMs, firstMs + (lastMs - firstMs) * 0.9);
    const t1 = performance.now();
    const second = await h.services.timeseries.rollupAll();
    const lateMs = since(t1);
    opts.log(
      `rollup: after ${late} late readings ${(lateMs / 1000).toFixed(2)} s — ${second.buckets} buckets rewritten over ${second.series} series`,
    );

    // The scheduler's everyday pass: one new minute of every series. The first minute re-warms the
    // per-series cache of the latest day and week (the late pass invalidated it); the second is timed.
    minuteOfReadings(h, rng, lastMs + 60_000);
    await h.services.timeseries.rollupAll();
    minuteOfReadings(h, rng, lastMs + 120_000);
    const t2 = performance.now();
    const third = await h.services.timeseries.rollupAll();
    const ontimeMs = since(t2);
    // Diagnostic: the same pass without fsync — the difference is the per-series commits' cost.
    h.db.pragma('synchronous = OFF');
    minuteOfReadings(h, rng, lastMs + 180_000);
    const t3 = performance.now();
    await h.services.timeseries.rollupAll();
    const nosyncMs = since(t3);
    h.db.pragma('synchronous = FULL');
    opts.log(
      `rollup: ${third.readings} on-time readings ${ontimeMs.toFixed(1)} ms (${third.series} series; same pass with synchronous=OFF ${nosyncMs.toFixed(1)} ms)`,
    );

    // A busy hour: every series reports once a second for 50 minutes (300k readings), then one more
    // reading each. The pass adds it to the cached latest hour; before, it re-read the whole hour of
    // every series — the baseline is that read, in the same run.
    const perSeries = opts.quick ? 300 : 3000;
    const busyFrom = Math.ceil((lastMs + 240_000) / 3_600_000) * 3_600_000;
    for (let k = 0; k < perSeries; k++) minuteOfReadings(h, rng, busyFrom + k * 1000);
    await h.services.timeseries.rollupAll();
    minuteOfReadings(h, rng, busyFrom + perSeries * 1000);
    await h.services.timeseries.rollupAll(); // the latest hour is cached as of this pass
    minuteOfReadings(h, rng, busyFrom + (perSeries + 1) * 1000);
    const t4 = performance.now();
    const busy = await h.services.timeseries.rollupAll();
    const busyMs = since(t4);
    // The old warm path's read, through the rollup job's own statements (rollups.repo.ts).
    const repo = createRollupsRepo(h.db);
    const t5 = performance.now();
    let hourRead = 0;
    for (const s of repo.series()) {
      const q = s.value_type === 'numeric' ? repo.numeric : repo.categorical;
      hourRead += q.all(s.id, busyFrom, busyFrom + 3_600_000).length;
    }
    const hourReadMs = since(t5);
    opts.log(
      `rollup: busy hour (${perSeries} readings a series in it): a pass with ${busy.readings} new readings ${busyMs.toFixed(1)} ms; reading the hour's ${hourRead} rows ${hourReadMs.toFixed(1)} ms`,
    );

    const row = (what: string, ms: number, note: string): BenchRow => ({
      part: 'rollup',
      what,
      value: ms / 1000,
      unit: 's',
      baseline: { what: `scan of ${total / 1e6}M rows, ms`, value: scanMs },
      ratio: ms / scanMs,
      note,
      target: `< ${TARGET_S} s`,
      met: ms / 1000 < TARGET_S,
    });
    return [
      row(`incremental rollup of ${total / 1e6}M new readings`, firstMs_, `${first.buckets} buckets`),
      row(
        `incremental rollup after ${late.toLocaleString('en-US')} late readings`,
        lateMs,
        `${second.buckets} buckets rewritten`,
      ),
      {
        part: 'rollup',
        what: `incremental rollup of ${third.readings} on-time readings`,
        value: ontimeMs,
        unit: 'ms',
        note: 'the every-10-s scheduler pass, cache warm',
      },
      {
        part: 'rollup',
        what: `the same pass when each series' current hour holds ${perSeries.toLocaleString('en-US')} readings`,
        value: busyMs,
        unit: 'ms',
        baseline: { what: `reading those hours (${hourRead.toLocaleString('en-US')} rows), ms`, value: hourReadMs },
        ratio: busyMs / hourReadMs,
        note: 'the latest hour is added to, not re-read',
      },
    ];
  } finally {
    h.close();
  }
}
