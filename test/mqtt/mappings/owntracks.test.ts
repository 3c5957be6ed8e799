import { describe, expect, it } from 'vitest';
import { owntracksMapping } from '../../../src/mqtt/mappings/owntracks.js';
import { route } from '../../../src/mqtt/mappings/index.js';
import { ParseError, type Ingest } from '../../../src/mqtt/mappings/types.js';
import { LocateInput } from '../../../src/tiers/spatial/spatial.schemas.js';
import { RecordInput } from '../../../src/tiers/timeseries/timeseries.schemas.js';
import { parse } from './helpers.js';

const ot = owntracksMapping();

// Payload shapes from the OwnTracks booklet (owntracks.org/booklet/tech/json) as the iOS/Android apps send them.
const LOCATION = {
  _type: 'location',
  acc: 12,
  alt: 50,
  batt: 85,
  bs: 1,
  conn: 'w',
  created_at: 1_767_225_605,
  lat: 52.52,
  lon: 13.405,
  m: 1,
  t: 'u',
  tid: 'an',
  tst: 1_767_225_600,
  vac: 3,
  vel: 0,
  topic: 'owntracks/anna/phone',
};
const transition = (event: 'enter' | 'leave', desc = 'Home') => ({
  _type: 'transition',
  wtst: 1_444_755_752,
  lat: 49.1383109,
  lon: 13.4277182,
  acc: 26,
  tst: 1_767_229_200,
  desc,
  event,
  tid: 'an',
  t: 'c',
  rid: 'a1b2c3',
});
const json = (o: unknown) => JSON.stringify(o);

describe('owntracks mapping', () => {
  it('subscribes to locations and transition events under its root', () => {
    expect(ot.filters).toEqual(['owntracks/+/+', 'owntracks/+/+/event']);
    expect(route([ot], 'owntracks/anna/phone/event')).toBe(ot);
    expect(route([ot], 'owntracks/anna/phone/cmd')).toBeUndefined();
    const m = owntracksMapping({ enabled: true, root: 'house/ot' });
    expect(parse(m, 'house/ot/anna/phone', json(LOCATION))).toHaveLength(1);
    expect(parse(m, 'owntracks/anna/phone', json(LOCATION))).toEqual([]);
  });

  it('reads a location as a composite reading at tst', () => {
    expect(parse(ot, 'owntracks/anna/phone', json(LOCATION))).toEqual([
      {
        kind: 'reading',
        entity_name: 'anna',
        entity_type: 'person',
        metric: 'location',
        value: { lat: 52.52, lon: 13.405, acc: 12 },
        ts: 1_767_225_600,
        source: 'owntracks',
      },
    ]);
    const { acc: _acc, ...noAcc } = LOCATION;
    expect(parse(ot, 'owntracks/anna/phone', json(noAcc))[0]).toMatchObject({ value: { lat: 52.52, lon: 13.405 } });
  });

  it('adds presence from inregions: home (case-insensitive) or the first region', () => {
    const presence = (inregions: unknown, m = ot) =>
      parse(m, 'owntracks/anna/phone', json({ ...LOCATION, inregions })).find(
        (i) => i.kind === 'reading' && i.metric === 'presence',
      );
    expect(presence(['Home'])).toMatchObject({ value: 'home', ts: 1_767_225_600, entity_name: 'anna' });
    expect(presence(['Work', 'Gym'])).toMatchObject({ value: 'Work' });
    expect(presence(['Gym', 'home'])).toMatchObject({ value: 'home' });
    expect(presence([])).toBeUndefined();
    expect(presence(null)).toBeUndefined();
    expect(
      presence(['Casa'], owntracksMapping({ enabled: true, root: 'owntracks', home_regions: ['casa', 'Home'] })),
    ).toMatchObject({ value: 'home' });
  });

  it('turns an enter transition into locate + presence', () => {
    const items = parse(ot, 'owntracks/anna/phone/event', json(transition('enter')));
    expect(items).toEqual([
      {
        kind: 'locate',
        entity_name: 'anna',
        entity_type: 'person',
        container_name: 'Home',
        container_type: 'place',
        note: 'entered Home (phone)',
        ts: 1_767_229_200,
        source: 'owntracks',
      },
      {
        kind: 'reading',
        entity_name: 'anna',
        entity_type: 'person',
        metric: 'presence',
        value: 'home',
        ts: 1_767_229_200,
        source: 'owntracks',
      },
    ]);
    const work = parse(ot, 'owntracks/anna/phone/event', json(transition('enter', 'Office')));
    expect(work.map((i) => (i.kind === 'locate' ? i.container_name : i.kind === 'reading' ? i.value : null))).toEqual([
      'Office',
      'Office',
    ]);
  });

  it('turns a leave transition into locate "away" + presence not_home', () => {
    const items = parse(ot, 'owntracks/anna/phone/event', json(transition('leave')));
    expect(items).toMatchObject([
      { kind: 'locate', entity_name: 'anna', container_name: 'away', note: 'left Home (phone)' },
      { kind: 'reading', metric: 'presence', value: 'not_home' },
    ]);
  });

  it('emits items the spatial and time-series schemas accept', () => {
    const items: Ingest[] = [
      ...parse(ot, 'owntracks/anna/phone/event', json(transition('enter'))),
      ...parse(ot, 'owntracks/anna/phone', json({ ...LOCATION, inregions: ['Home'] })),
    ];
    for (const { kind, ...input } of items) {
      // as the bridge does: `kind` is the mapping's routing, not an input field (the schemas are strict)
      const schema = kind === 'locate' ? LocateInput : RecordInput;
      expect(schema.safeParse(input).success, JSON.stringify(input)).toBe(true);
    }
  });

  it('ignores other message types, private regions and cleared retained messages', () => {
    for (const p of [
      { _type: 'lwt', tst: 1_767_225_600 },
      { _type: 'card', name: 'Anna', face: 'iVBORw0KGgo=' },
      { _type: 'cmd', action: 'reportLocation' },
      { _type: 'waypoint', desc: 'Home', lat: 52.5, lon: 13.4, rad: 50, tst: 1_767_225_600 },
      { _type: 'encrypted', data: 'abc' },
      { _type: 'status', android: {} },
    ])
      expect(parse(ot, 'owntracks/anna/phone', json(p)), p._type).toEqual([]);
    const { desc: _d, ...privateRegion } = transition('enter');
    expect(parse(ot, 'owntracks/anna/phone/event', json(privateRegion))).toEqual([]);
    expect(parse(ot, 'owntracks/anna/phone', '')).toEqual([]);
  });

  it('refuses malformed payloads with ParseError', () => {
    const bad = [
      'not json',
      '[1,2]',
      '"location"',
      '{}',
      json({ _type: 5 }),
      json({ ...LOCATION, lat: undefined }),
      json({ ...LOCATION, lat: 91 }),
      json({ ...LOCATION, lon: '13.4' }),
      json({ ...LOCATION, tst: undefined }),
      json({ ...LOCATION, tst: '2026-01-01' }),
      json({ ...LOCATION, tst: 1e20 }),
      json({ ...LOCATION, acc: 'good' }),
      json({ ...LOCATION, inregions: 'Home' }),
      json({ ...LOCATION, inregions: [1] }),
      json({ ...transition('enter'), event: 'bogus' }),
      json({ ...transition('enter'), event: undefined }),
      json({ ...transition('enter'), desc: '' }),
      json({ ...transition('enter'), tst: null }),
    ];
    for (const p of bad) expect(() => parse(ot, 'owntracks/anna/phone/event', p), p).toThrow(ParseError);
    expect(() => parse(ot, 'owntracks/anna/phone', Buffer.from([0xff, 0xfe]))).toThrow(ParseError);
    expect(() => parse(ot, 'owntracks/__proto__/phone', json(LOCATION))).toThrow(ParseError);
  });
});
