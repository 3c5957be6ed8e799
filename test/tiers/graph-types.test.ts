/** The graph's read model: types inferred where the data says (never written), located objects linked to their place, the room filter. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inferType } from '../../src/tiers/entities/entity-types.js';
import { LocateInput } from '../../src/tiers/spatial/spatial.schemas.js';
import { buildTestHub, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await buildTestHub();
  const s = hub.services;
  const fact = (entity_name: string, text: string, category = 'general') =>
    s.memory.remember({ entity_name, fact: text, category, confidence: 1, source: 'manual' } as never, 'http');
  await fact('Brian', 'Brian works from home on Fridays');
  await fact('Rex', 'Rex is a golden retriever and needs walkies twice a day', 'habit');
  await fact('Nana', 'likes the window seat', 'preference');
  await fact('wifi', 'The wifi password is on the fridge door');
  s.relations.relate({ entity_a: 'Anna', entity_b: 'Brian', rel_type: 'spouse_of' });
  s.relations.relate({ entity_a: 'Anna', entity_b: 'office', rel_type: 'works_in' });
  s.spatial.locate(LocateInput.parse({ entity_name: 'spare key', container_name: 'hall drawer' }), 'http');
  s.spatial.locate(LocateInput.parse({ entity_name: 'passport', container_name: 'blue box' }), 'http');
  s.spatial.locate(
    LocateInput.parse({ entity_name: 'blue box', container_name: 'attic', container_type: 'room' }),
    'http',
  );
  await s.timeseries.record({ entity_name: 'garden_probe', metric: 'temperature', value: 12, source: 'api' } as never);
  await s.timeseries.record({ entity_name: 'garden_probe', metric: 'battery', value: 80, source: 'api' } as never);
  await s.timeseries.record({
    entity_name: 'sensor.kitchen_energy',
    metric: 'energy',
    value: 3.2,
    source: 'api',
  } as never);
  s.relations.relate({ entity_a: 'Brian', entity_b: 'attic', rel_type: 'uses', entity_b_type: 'room' });
});
afterAll(async () => {
  await hub?.close();
});

const typeOf = (name: string) => hub.services.overview.graph().nodes.find((n) => n.label === name);

describe('graph types', () => {
  it('infers a type where the data says and leaves unknown only where nothing does', () => {
    expect(typeOf('Brian')).toMatchObject({ type: 'person', inferred: expect.any(String) });
    expect(typeOf('Anna')?.type).toBe('person'); // spouse_of
    expect(typeOf('Rex')?.type).toBe('pet');
    expect(typeOf('Nana')?.type).toBe('person'); // only preferences and habits
    expect(typeOf('office')?.type).toBe('place'); // somebody works in it
    expect(typeOf('hall drawer')).toMatchObject({ type: 'place', inferred: 'things are located in it' });
    expect(typeOf('garden_probe')?.type).toBe('sensor');
    expect(typeOf('sensor.kitchen_energy')?.type).toBe('device');
    expect(typeOf('spare key')).toMatchObject({ type: 'object' });
    expect(typeOf('spare key')?.inferred).toBeUndefined(); // stored, not inferred
    expect(typeOf('wifi')?.type).toBe('unknown'); // a password note says nothing about what it is
  });

  it('answers the same for one entity (the entity page asks)', () => {
    const shown = (name: string) => hub.services.overview.shownType(hub.services.entities.get(name, 'name'));
    for (const n of hub.services.overview.graph().nodes)
      expect(shown(n.label), n.label).toEqual({ type: n.type, ...(n.inferred && { inferred: n.inferred }) });
  });

  it('is an inference, not a write: the stored types stay unknown', () => {
    const stored = hub.services.overview.searchEntities({ type: 'unknown' }).map((e) => e.name);
    expect(stored).toEqual(expect.arrayContaining(['Brian', 'Rex', 'hall drawer', 'garden_probe', 'wifi']));
  });

  it('a voice print makes a person; a stored type is never second-guessed', () => {
    expect(inferType({ voice: true, metrics: ['temperature'] })?.type).toBe('person');
    expect(inferType({ metrics: ['temperature', 'humidity'] })?.type).toBe('sensor');
    expect(inferType({ metrics: ['pm25', 'battery'] })?.type).toBe('sensor');
    expect(inferType({ metrics: ['power', 'temperature'] })?.type).toBe('device');
    expect(
      inferType({
        memories: [{ category: 'habit', fact: 'Misty the cat purrs on the windowsill' }],
        relations: [{ rel_type: 'knows', first: true }],
      })?.type,
    ).toBe('pet');
    expect(inferType({ relations: [{ rel_type: 'sleeps_in', first: false }] })?.type).toBe('place');
    expect(inferType({ relations: [{ rel_type: 'owns', first: false }] })).toBeUndefined(); // what is owned can be anything
    expect(inferType({ memories: [{ category: 'general', fact: 'The wifi is slow upstairs' }] })).toBeUndefined();
    expect(inferType({})).toBeUndefined();
  });

  it('links every located object to its place with an edge "in"', () => {
    const g = hub.services.overview.graph();
    const id = (name: string) => g.nodes.find((n) => n.label === name)!.id;
    const located = g.edges.filter((e) => e.kind === 'location');
    expect(located).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ from: id('spare key'), to: id('hall drawer'), label: 'in' }),
        expect.objectContaining({ from: id('passport'), to: id('blue box'), label: 'in' }),
        expect.objectContaining({ from: id('blue box'), to: id('attic'), label: 'in' }),
      ]),
    );
    expect(hub.services.status.snapshot().located_objects).toBe(located.length);
  });

  it('filters by room: the place, what is in it (and inside that), and what is related to them', () => {
    const names = hub.services.overview
      .graph({ room: 'ATTIC' })
      .nodes.map((n) => n.label)
      .sort();
    expect(names).toEqual(['attic', 'blue box', 'Brian', 'passport'].sort());
    expect(hub.services.overview.graph({ room: 'no such room' }).nodes).toEqual([]);
    const people = hub.services.overview.graph({ room: 'attic', types: ['person'] });
    expect(people.nodes.map((n) => n.label)).toEqual(['Brian']);
  });

  it('offers the places and the shown types with their counts', () => {
    const v = hub.services.overview.graphView();
    expect(v.places).toEqual(expect.arrayContaining(['attic', 'blue box', 'hall drawer', 'office']));
    expect(v.places).not.toContain('Brian');
    expect(v.types.find((t) => t.type === 'unknown')?.n).toBe(1);
  });
});
