/** Read models for the admin UI: literal entity search, the graph (the counts: status.service.test.ts). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await buildTestHub();
});
afterAll(async () => {
  await hub?.close();
});

describe('overview', () => {
  it('searches names literally and by type; the graph keeps only edges among the chosen types', async () => {
    const s = hub.services;
    s.relations.relate({ entity_a: '100%_Anna', entity_b: 'kitchen', rel_type: 'cooks_in', entity_b_type: 'room' });
    s.relations.relate({
      entity_a: '100%_Anna',
      entity_b: 'Bob',
      rel_type: 'sibling_of',
      entity_a_type: 'person',
      entity_b_type: 'person',
    });
    s.relations.unrelate({ entity_a: '100%_Anna', entity_b: 'Bob' });
    s.relations.relate({ entity_a: 'Bob', entity_b: 'Carl', rel_type: 'knows', entity_b_type: 'person' });
    expect(s.overview.searchEntities({ q: '%_' }).map((e) => e.name)).toEqual(['100%_Anna']);
    expect(s.overview.searchEntities({ q: 'o', type: 'person' }).map((e) => e.name)).toEqual(['Bob']);
    const g = s.overview.graph({ types: ['person'] });
    expect(g.nodes.every((n) => n.type === 'person')).toBe(true);
    expect(g.edges.map((e) => e.label)).toEqual(['knows']); // ended relations and edges to rooms are left out
    expect(
      s.overview
        .graph()
        .edges.map((e) => e.label)
        .sort(),
    ).toEqual(['cooks_in', 'knows']);
  });
});
