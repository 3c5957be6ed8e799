/** Read models for the admin UI: counts (exact and from ids), literal entity search, the graph. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOverviewService } from '../../src/tiers/overview/overview.service.js';
import { buildTestHub, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await buildTestHub();
});
afterAll(async () => {
  await hub?.close();
});

describe('overview', () => {
  it('counts raw readings from ids minus deletions exactly as count(*) would, deletions included', async () => {
    const s = hub.services;
    hub.clock.advance(-40 * 86_400);
    await s.timeseries.recordBulk({ readings: Array.from({ length: 7 }, (_, i) => ({ entity_name: 'attic', metric: 'temperature', value: i, ts: hub.clock.now() + i })) });
    hub.clock.advance(40 * 86_400);
    await s.timeseries.record({ entity_name: 'attic', metric: 'temperature', value: 9, source: 'api' });
    await s.timeseries.record({ entity_name: 'attic', metric: 'mood', value: { state: 'calm', level: 2 }, source: 'api' });
    s.prune({ dry_run: false });
    const fromIds = createOverviewService({ db: s.db, clock: hub.clock, decay: s.config.memory, exactUpTo: 0 }).counts();
    const exact = s.overview.counts();
    expect(exact.readings_exact).toBe(true);
    expect(fromIds.readings_exact).toBe(false);
    expect(fromIds.readings).toBe(exact.readings);
    expect(exact.readings).toBe(4); // 1 temperature + composite mood and its 2 parts; 7 old ones pruned
  });

  it('searches names literally and by type; the graph keeps only edges among the chosen types', async () => {
    const s = hub.services;
    s.relations.relate({ entity_a: '100%_Anna', entity_b: 'kitchen', rel_type: 'cooks_in', entity_b_type: 'room' });
    s.relations.relate({ entity_a: '100%_Anna', entity_b: 'Bob', rel_type: 'sibling_of', entity_a_type: 'person', entity_b_type: 'person' });
    s.relations.unrelate({ entity_a: '100%_Anna', entity_b: 'Bob' });
    s.relations.relate({ entity_a: 'Bob', entity_b: 'Carl', rel_type: 'knows', entity_b_type: 'person' });
    expect(s.overview.searchEntities({ q: '%_' }).map((e) => e.name)).toEqual(['100%_Anna']);
    expect(s.overview.searchEntities({ q: 'o', type: 'person' }).map((e) => e.name)).toEqual(['Bob']);
    const g = s.overview.graph({ types: ['person'] });
    expect(g.nodes.every((n) => n.type === 'person')).toBe(true);
    expect(g.edges.map((e) => e.label)).toEqual(['knows']); // ended relations and edges to rooms are left out
    expect(s.overview.graph().edges.map((e) => e.label).sort()).toEqual(['cooks_in', 'knows']);
  });
});
