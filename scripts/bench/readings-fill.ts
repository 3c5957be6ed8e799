/**
 * Fills a scratch hub with numeric readings through the real write path (readings repo inside the
 * ingest writer's batched transactions), as a week or so of sensors reporting once a minute: 100
 * series, time-ordered and interleaved the way live ingest arrives. Values look like real sensors:
 * temperatures with two decimals, integer humidity and lux, power with one decimal.
 */
import type { PreparedReading } from '../../src/tiers/timeseries/readings.repo.js';
import type { scratchServices } from '../lib/eval-hub.js';
import type { Prng } from './common.js';

/** Series written by the fill helpers: 25 rooms × 4 metrics. */
export const SERIES = 100;
const METRICS = ['temperature', 'humidity', 'power', 'illuminance'] as const;
const MINUTE_MS = 60_000;
const BATCH = 1000;

/** One value of series `s` at minute `m`: smooth daily swing plus noise, rounded as its sensor would. */
function value(rng: Prng, s: number, m: number): number {
  const day = Math.sin((2 * Math.PI * (m % 1440)) / 1440 + s);
  switch (METRICS[s % 4]) {
    case 'temperature':
      return Math.round((20 + 2 * day + rng.next() * 0.5) * 100) / 100;
    case 'humidity':
      return Math.round(45 + 10 * day + rng.next() * 3);
    case 'power':
      return Math.round((120 + 80 * day + rng.next() * 40) * 10) / 10;
    default:
      return Math.round(Math.max(0, 300 * day + rng.next() * 20));
  }
}

/**
 * Writes `total` readings ending at the scratch clock's "now" (which is moved past the last one),
 * `SERIES` per minute. Returns the first and last ts (ms).
 */
export function fillReadings(
  h: ReturnType<typeof scratchServices>,
  rng: Prng,
  total: number,
): { firstMs: number; lastMs: number } {
  const minutes = Math.ceil(total / SERIES);
  const endMs = Math.floor(h.clock.now() / 60) * 60 * 1000;
  const firstMs = endMs - minutes * MINUTE_MS;
  const writer = h.services.timeseries.writer;
  let batch: PreparedReading[] = [];
  for (let k = 0; k < total; k++) {
    const m = Math.floor(k / SERIES);
    const s = k % SERIES;
    batch.push({
      entity_name: `bench_room_${Math.floor(s / 4)}`,
      metric: METRICS[s % 4],
      value: value(rng, s, m),
      source: 'bench',
      ts_ms: firstMs + m * MINUTE_MS,
    });
    if (batch.length === BATCH) writer.writeNow(batch), (batch = []);
  }
  if (batch.length) writer.writeNow(batch);
  h.clock.set(endMs / 1000 + 60);
  return { firstMs, lastMs: firstMs + (minutes - 1) * MINUTE_MS };
}

/** `n` more readings at random minutes of random series between `fromMs` and `toMs` (late arrivals). */
export function lateReadings(
  h: ReturnType<typeof scratchServices>,
  rng: Prng,
  n: number,
  fromMs: number,
  toMs: number,
): void {
  const batch: PreparedReading[] = [];
  for (let i = 0; i < n; i++) {
    const s = rng.int(0, SERIES - 1);
    const m = rng.int(0, Math.floor((toMs - fromMs) / MINUTE_MS));
    batch.push({
      entity_name: `bench_room_${Math.floor(s / 4)}`,
      metric: METRICS[s % 4],
      value: value(rng, s, m),
      source: 'bench',
      ts_ms: fromMs + m * MINUTE_MS + rng.int(1, 59_999),
    });
  }
  for (let i = 0; i < batch.length; i += BATCH) h.services.timeseries.writer.writeNow(batch.slice(i, i + BATCH));
}

/** One reading of every series at `tsMs` (a live minute), in one batch. */
export function minuteOfReadings(h: ReturnType<typeof scratchServices>, rng: Prng, tsMs: number): void {
  const batch: PreparedReading[] = [];
  for (let s = 0; s < SERIES; s++) {
    batch.push({
      entity_name: `bench_room_${Math.floor(s / 4)}`,
      metric: METRICS[s % 4],
      value: value(rng, s, tsMs / MINUTE_MS),
      source: 'bench',
      ts_ms: tsMs,
    });
  }
  h.services.timeseries.writer.writeNow(batch);
}
