/**
 * What a question is about (issue #34 item 4): Home Assistant entity ids read as words and domains as
 * device types, names from a metric-less HA sensor's entity, WordNet ("telly"), the encoder over series
 * names, aliases, and an index kept fresh as series and aliases change.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestHub, post, type TestHub } from '../../helpers/hub.js';
import { handMadeEmbedder, unitVector } from '../../helpers/hand-made-embedder.js';
import { createSubjects, isSubject } from '../../../src/tiers/ask/subject.js';
import { MAX_BACK } from '../../../src/tiers/ask/runs.js';

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

  it('the last time a side held, found in SQL past more readings than a step back reads (MAX_BACK)', async () => {
    hub = await buildTestHub();
    hub.clock.set(NOW);
    const from = NOW - 3 * 86_400; // a reading every 10 s: 25,920 readings, the only opening at the start
    const readings = [];
    for (let t = from; t <= NOW; t += 10) {
      const open = t >= from + 600 && t < from + 1200;
      readings.push({ entity_name: 'shed_door', metric: 'contact', value: !open, ts: t });
    }
    for (let i = 0; i < readings.length; i += 10_000) {
      expect((await post(hub, '/record/bulk', { readings: readings.slice(i, i + 10_000) })).body.rejected).toBe(0);
    }
    expect(readings.length).toBeGreaterThan(MAX_BACK);
    const r = await ask('When was the shed door last opened?');
    expect(r.answer).toMatchObject({ kind: 'last', at: from + 600, seconds: 600 });
    expect(r.sure).toBe(true);
  });

  it('a lock says locked, a contact never; "back" before a noun names; a WordNet relative names only as a whole', async () => {
    await home([
      { entity_name: 'front_door', metric: 'lock', value: 'locked', ts: NOW - 7200 },
      { entity_name: 'front_door', metric: 'contact', value: true, ts: NOW - 7200 },
      { entity_name: 'back_door', metric: 'contact', value: true, ts: NOW - 7200 },
      { entity_name: 'washing_machine', metric: 'power', value: 1.2, unit: 'W', ts: NOW - 60 },
    ]);
    const front = await ask('Is the front door locked?');
    expect(front.answer).toMatchObject({ kind: 'state', entity: 'front_door', metric: 'lock', value: true });
    const back = await ask('Was the back door locked this morning?');
    expect(back).toMatchObject({ answer: { kind: 'unknown', entity: 'back_door' } });
    expect(back.result).toBe('I have no readings that say whether the back door is locked.');
    const open = await ask('Is the back door open?');
    expect(open.answer).toMatchObject({ kind: 'state', entity: 'back_door', value: false });
    // "dishwashing machine" is a WordNet name of a dishwasher: its word "machine" does not make it the washing machine.
    const dishwasher = await ask('Is the dishwasher running?');
    expect(dishwasher).toMatchObject({
      result: 'I have no readings from the dishwasher.',
      answer: { kind: 'unknown' },
    });
  });
  it('a broader word, or a thing left over, is another thing; a lock never says open; money is no reading', async () => {
    await home([
      { entity_name: 'living_room', metric: 'temperature', value: 20, unit: '°C', ts: NOW - 60 },
      { entity_name: 'bedroom', metric: 'temperature', value: 19, unit: '°C', ts: NOW - 60 },
      { entity_name: 'front_door', metric: 'lock', value: 'locked', ts: NOW - 7200 },
      { entity_name: 'washing_machine', metric: 'power', value: 1.2, unit: 'W', ts: NOW - 60 },
    ]);
    // WordNet's "room" is broader than "kitchen": it does not make the kitchen the living room.
    expect(await ask('How warm is the kitchen?')).toMatchObject({
      result: 'I have no readings from the kitchen.',
      answer: { kind: 'unknown' },
    });
    const window = await ask('Is the bedroom window open?');
    expect(window.answer.kind).toBe('unknown');
    expect(window.result).not.toMatch(/temperature/);
    const lock = await ask('When did the front door last open?');
    expect(lock).toMatchObject({ answer: { kind: 'unknown', entity: 'front_door' }, sure: true });
    expect(lock.result).toBe(
      'I have no readings that say whether the front door was open, only whether it was locked.',
    );
    expect((await ask('How much did the washing machine cost?')).answer.kind).toBe('unknown');
  });
});
