/**
 * What a question is about (issue #34 item 4): Home Assistant entity ids read as words and domains as
 * device types, names from a metric-less HA sensor's entity, WordNet ("telly"), the encoder over series
 * names, aliases, and an index kept fresh as series and aliases change.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestHub, post, type TestHub } from '../../helpers/hub.js';
import { handMadeEmbedder, unitVector } from '../../helpers/hand-made-embedder.js';
import { createSubjects, isSubject } from '../../../src/tiers/ask/subject.js';

let hub: TestHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

const NOW = Date.parse('2026-12-04T12:00:00Z') / 1000;

async function home(readings: Record<string, unknown>[]) {
  hub = await buildTestHub();
  hub.clock.set(NOW);
  const r = await post(hub, '/record/bulk', { readings });
  expect(r.body.rejected).toBe(0);
  return hub;
}

const ask = (question: string) => hub!.services.ask.ask({ question, possible: true });

describe('subjects', () => {
  it('Home Assistant ids: binary_sensor on = open for a door, sensor.<room>_temperature, light.<room> as "the <room> light"', async () => {
    await home([
      { entity_name: 'binary_sensor.back_door', metric: 'state', value: 'off', ts: NOW - 7200 },
      { entity_name: 'binary_sensor.back_door', metric: 'state', value: 'on', ts: NOW - 600 },
      { entity_name: 'sensor.living_room_temperature', metric: 'state', value: 20.4, unit: '°C', ts: NOW - 300 },
      { entity_name: 'light.kitchen', metric: 'state', value: 'off', ts: NOW - 60 },
      { entity_name: 'sensor.kitchen_humidity', metric: 'state', value: 61, unit: '%', ts: NOW - 60 },
    ]);
    const door = await ask('Is the back door open?');
    expect(door.answer).toMatchObject({ kind: 'state', entity: 'binary_sensor.back_door', value: true });
    expect(door.result).toBe('Yes, the back door has been open for 10 minutes, since 11:50 am.');
    const warm = await ask('How warm is the living room?');
    expect(warm.answer).toMatchObject({ kind: 'measure', entity: 'sensor.living_room_temperature', value: 20.4 });
    expect(warm.result).toBe('The living room temperature is 20.5 °C now.');
    const light = await ask('Is the kitchen light on?');
    expect(light.answer).toMatchObject({ kind: 'state', entity: 'light.kitchen', value: false });
    expect(light.sure).toBe(true);
    expect(light.result).toBe('No, the kitchen light is off.');
    const humid = await ask('How humid is the kitchen?');
    expect(humid.answer).toMatchObject({ entity: 'sensor.kitchen_humidity', value: 61, unit: '%' });
  });

  it('WordNet: "the telly" finds the tv plug, loosely (not sure, and the answer says which it took)', async () => {
    await home([
      { entity_name: 'living_room_tv', metric: 'power', value: 85, unit: 'W', ts: NOW - 120 },
      { entity_name: 'kettle_plug', metric: 'power', value: 0.4, unit: 'W', ts: NOW - 120 },
    ]);
    const r = await ask('Is the telly on?');
    expect(r.answer).toMatchObject({ kind: 'state', entity: 'living_room_tv', metric: 'power', value: true });
    expect(r.sure).toBe(false);
    expect(r.result).toMatch(/I took it to be the living room tv/);
  });

  it('the encoder over series names when no word of the question names a series', async () => {
    await home([
      { entity_name: 'zone_3', metric: 'temperature', value: 18, unit: '°C', ts: NOW - 60 },
      { entity_name: 'kettle_plug', metric: 'power', value: 0.4, unit: 'W', ts: NOW - 60 },
    ]);
    const v = unitVector(8);
    const embedder = handMadeEmbedder(
      8,
      [
        [/nursery|zone 3/, v(1)],
        [/kettle/, v(0, 1)],
      ],
      v(0, 0, 1),
    );
    const subjects = createSubjects({
      reads: hub!.services.timeseries.reads,
      wordnet: hub!.services.wordnet,
      embedder,
    });
    const found = await subjects.find('how warm is the nursery');
    expect(isSubject(found) && found).toMatchObject({ how: 'encoder', sure: false, series: { entity_name: 'zone_3' } });
    const none = await subjects.find('how warm is the garage');
    expect(none).toEqual({ named: 'garage' });
  });

  it('the index follows new series and aliases', async () => {
    await home([{ entity_name: 'kettle_plug', metric: 'power', value: 0.4, unit: 'W', ts: NOW - 60 }]);
    const before = await ask('How cold is the freezer?');
    expect(before).toMatchObject({ result: 'I have no readings from the freezer.', answer: { kind: 'unknown' } });
    await post(hub!, '/record', {
      entity_name: 'chest_freezer',
      metric: 'temperature',
      value: -18,
      unit: '°C',
      ts: NOW - 30,
    });
    const after = await ask('How cold is the freezer?');
    expect(after.answer).toMatchObject({ kind: 'measure', entity: 'chest_freezer', value: -18 });

    await post(hub!, '/record', {
      entity_name: 'zb_0x00158d',
      metric: 'temperature',
      value: 12,
      unit: '°C',
      ts: NOW - 30,
    });
    expect((await ask('How warm is the wine cellar?')).answer.kind).toBe('unknown');
    const alias = await post(hub!, '/alias', { entity_name: 'zb_0x00158d', alias: 'wine cellar' });
    expect(alias.status).toBe(200);
    const named = await ask('How warm is the wine cellar?');
    expect(named.answer).toMatchObject({ kind: 'measure', entity: 'zb_0x00158d', value: 12 });
    expect(named.sure).toBe(true);
  });
});
