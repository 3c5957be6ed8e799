import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecordInput } from '../../../src/tiers/timeseries/timeseries.schemas.js';
import { buildTestHub, type TestHub } from '../../helpers/hub.js';

/**
 * When the ingest writer commits: at once (next turn of the event loop) when it has been idle for
 * the batching window, so a lone reading pays only its own commit; within the window after a
 * commit (under load), readings gather for `ingest_flush_ms` into one transaction. Fake timers
 * and a fake performance clock; real SQLite.
 */
let hub: TestHub | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await hub?.close();
});

describe('ingest writer flush timing', () => {
  it('commits an idle reading on the next turn and gathers readings that follow a commit', async () => {
    hub = await buildTestHub({ config: { timeseries: { ingest_flush_ms: 500 } } });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'] });
    vi.advanceTimersByTime(1000);
    const { timeseries } = hub.services;
    const stats = timeseries.writer.stats;
    const record = (value: number) =>
      timeseries.record(RecordInput.parse({ entity_name: 'hall', metric: 'temperature', value }));

    const b0 = stats.batches;
    let first = false;
    void record(1).then(() => (first = true));
    await vi.advanceTimersByTimeAsync(1);
    expect(first).toBe(true);
    expect(stats.batches).toBe(b0 + 1);

    // Right after that commit: under load, so these wait for the window and share one transaction.
    const done: number[] = [];
    for (const v of [2, 3, 4]) void record(v).then(() => done.push(v));
    await vi.advanceTimersByTimeAsync(400);
    expect(done).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(done).toEqual([2, 3, 4]);
    expect(stats.batches).toBe(b0 + 2);

    // Idle again after the window: next turn.
    await vi.advanceTimersByTimeAsync(600);
    let last = false;
    void record(5).then(() => (last = true));
    await vi.advanceTimersByTimeAsync(1);
    expect(last).toBe(true);
    expect(stats.batches).toBe(b0 + 3);
    expect(stats.accepted).toBe(5);
  });

  it('by default (ingest_flush_ms = 0) commits on the next turn, one transaction for what arrived in the same turn', async () => {
    hub = await buildTestHub();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'] });
    const { timeseries } = hub.services;
    const stats = timeseries.writer.stats;
    const b0 = stats.batches;
    const done: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const v of [1, 2, 3])
        void timeseries
          .record(RecordInput.parse({ entity_name: 'hall', metric: 'temperature', value: round * 10 + v }))
          .then(() => done.push(v));
      await vi.advanceTimersByTimeAsync(0);
      expect(done).toHaveLength(3 * (round + 1));
      expect(stats.batches).toBe(b0 + round + 1);
    }
  });
});
