/** status.snapshot(): the one count of the household behind /health, /metrics, doctor and the dashboard. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RememberInput } from '../../src/tiers/memory/memory.schemas.js';
import { IntendInput } from '../../src/tiers/prospective/prospective.schemas.js';
import { createStatusService } from '../../src/tiers/status/status.service.js';
import { internals } from '../../src/internals.js';
import { buildTestHub, get, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await buildTestHub();
});
afterAll(async () => {
  await hub?.close();
});

const remember = (x: Record<string, unknown>) => hub.services.memory.remember(RememberInput.parse(x), 'http');

describe('status.snapshot', () => {
  it('counts what was remembered, related, recorded and intended, and what forgetting took away', async () => {
    const s = hub.services;
    const empty = s.status.snapshot();
    expect(empty).toMatchObject({
      entities: 0,
      memories: { total: 0, active: 0, by_status: {} },
      relations: { current: 0, total: 0 },
      series: 0,
      readings: null,
    });

    await remember({ entity_name: 'Anna', fact: 'Anna wakes at 6:30', fact_key: 'wake_time' });
    await remember({ entity_name: 'Anna', fact: 'Anna wakes at 7:00', fact_key: 'wake_time' }); // supersedes the first
    const doomed = await remember({ entity_name: 'Bob', fact: 'Bob drinks green tea' });
    s.relations.relate({ entity_a: 'Anna', entity_b: 'Bob', rel_type: 'sibling_of' });
    s.relations.relate({ entity_a: 'Anna', entity_b: 'kitchen', rel_type: 'cooks_in', entity_b_type: 'room' });
    s.relations.unrelate({ entity_a: 'Anna', entity_b: 'kitchen' });
    await s.timeseries.recordBulk({
      readings: [1, 2, 3].map((v, i) => ({
        entity_name: 'attic',
        metric: 'temperature',
        value: v,
        ts: hub.clock.now() - 60 * i,
      })),
    });
    await s.timeseries.record({ entity_name: 'attic', metric: 'humidity', value: 40, source: 'api' });
    await s.prospective.intend(
      IntendInput.parse({
        entity_name: 'Anna',
        trigger_text: 'when Anna gets home',
        action_text: 'remind her to call the plumber',
      }),
    );

    const full = s.status.snapshot({ readings: true });
    expect(full.entities).toBe(4); // Anna, Bob, kitchen, attic
    expect(full.memories).toEqual({
      total: 3,
      active: 2,
      superseded: 1,
      contested: 0,
      by_status: { active: 2, superseded: 1 },
    });
    expect(full.relations).toEqual({ current: 1, total: 2 }); // the ended relation stays a row
    expect(full.series).toBe(2);
    expect(full.readings).toEqual({ n: 4, exact: true });
    expect(full.active_intentions).toBe(1);
    expect(full.pending_embedding).toBe(0); // the local embedder answered at once
    expect(full.vectors).toEqual({ state: 'ready' });
    expect(full.rollup_cache.bytes).toBeGreaterThanOrEqual(0);

    s.memory.forget({ memory_id: doomed.id }, 'http');
    const after = s.status.snapshot();
    expect(after.memories.total).toBe(2);
    expect(after.memories.by_status).toEqual({ active: 1, superseded: 1 });
    expect(after.readings).toBeNull(); // counted only when asked for
  });

  it('counts raw readings from ids minus deletions exactly as count(*) would, deletions included', async () => {
    const s = hub.services;
    hub.clock.advance(-40 * 86_400);
    await s.timeseries.recordBulk({
      readings: Array.from({ length: 7 }, (_, i) => ({
        entity_name: 'cellar',
        metric: 'temperature',
        value: i,
        ts: hub.clock.now() + i,
      })),
    });
    hub.clock.advance(40 * 86_400);
    await s.timeseries.record({
      entity_name: 'cellar',
      metric: 'mood',
      value: { state: 'calm', level: 2 },
      source: 'api',
    });
    const before = s.status.snapshot({ readings: true }).readings!.n;
    await s.prune({ dry_run: false });
    const inner = internals(s);
    const fromIds = createStatusService({
      db: hub.db,
      vectors: inner.vectors,
      rollupCache: () => inner.rollups.cacheStats(),
      exactUpTo: 0,
    }).snapshot({ readings: true });
    const exact = s.status.snapshot({ readings: true });
    expect(exact.readings?.exact).toBe(true);
    expect(fromIds.readings?.exact).toBe(false);
    expect(fromIds.readings?.n).toBe(exact.readings?.n);
    expect(exact.readings?.n).toBe(before - 7); // the 7 old ones pruned; the composite mood and its 2 parts kept
  });

  it('is what /health and /metrics report', async () => {
    const snap = hub.services.status.snapshot();
    const health = await get(hub, '/health');
    expect(health.body.counts).toEqual({
      entities: snap.entities,
      memories: snap.memories.total,
      relations: snap.relations.total,
    });
    expect(health.body.embedder).toMatchObject({ vectors: 'ready', pending: snap.pending_embedding });
    const metrics = (await hub.app.inject({ url: '/metrics' })).body;
    expect(metrics).toContain(`hearth_entities ${snap.entities}\n`);
    expect(metrics).toContain(`hearth_memories{status="active"} ${snap.memories.active}\n`);
    expect(metrics).toContain(`hearth_memories{status="superseded"} ${snap.memories.superseded}\n`);
    expect(metrics).toContain(`hearth_series ${snap.series}\n`);
  });
});
