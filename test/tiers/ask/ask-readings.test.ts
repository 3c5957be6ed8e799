/**
 * Reading answers of the ask service (SPEC §5 Ask kinds state, measure, last, duration, count,
 * usual) over a home stored through the real ingest, with a fixed clock in Europe/Berlin.
 * Expected values come from the home's definition (home.ts), not from the answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestHub } from '../../helpers/hub.js';
import type { AskOutput } from '../../../src/tiers/ask/ask.schemas.js';
import { buildHome, GARAGE_OPEN, KETTLE_RUNS, local, NOW } from './home.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await buildHome();
}, 120_000);
afterAll(async () => hub?.close());

const ask = (question: string, more: { now?: number | string } = {}) =>
  hub.services.ask.ask({ question, possible: true, ...more });

/** A spoken answer: no question quoted back, no ids, no raw epoch numbers. */
function spoken(r: AskOutput, question: string) {
  expect(r.result).not.toContain(question.replace(/\?$/, ''));
  expect(r.result).not.toMatch(/\d{9,}|_|binary_sensor|person\./);
}

describe('state', () => {
  it('"Was the garage door open last night?": yes, with the run that overlaps the window', async () => {
    const q = 'Was the garage door open last night?';
    const r = await ask(q);
    spoken(r, q);
    expect(r.answer).toMatchObject({ kind: 'state', entity: 'garage_door', metric: 'contact', value: true });
    expect(r.answer.from).toBe(local(3, 18));
    expect(r.answer.to).toBe(local(4, 6));
    const [from, to] = GARAGE_OPEN[1];
    expect(r.answer.spans).toContainEqual(expect.objectContaining({ from, to, value: true, state: 'open' }));
    expect(r.answer.spans!.filter((s) => s.value)).toHaveLength(1);
    expect(r.result).toMatch(/^Yes, the garage door was open from 10:30 pm to 11:50 pm last night\.$/);
    expect(r.sure).toBe(true);
    expect(r.evidence[0]).toMatchObject({ type: 'readings', entity: 'garage_door', metric: 'contact' });
  });

  it('a closed window and a moment: contact true reads as closed', async () => {
    const evening = await ask('Was the garage door open yesterday evening?');
    expect(evening.answer.value).toBe(false);
    expect(evening.result).toMatch(/^No, the garage door stayed closed yesterday evening\.$/);
    const at11 = await ask('Was the garage door open at 11 pm?');
    expect(at11.answer).toMatchObject({ kind: 'state', value: true, at: local(3, 23) });
    const closedAt9 = await ask('Was the garage door closed at 9 pm?');
    expect(closedAt9.answer.value).toBe(true);
    const now = await ask('Is the garage door open?');
    expect(now.answer.value).toBe(false);
    expect(now.result).toBe('No, the garage door is closed.');
  });

  it('the last state word decides the side; a contact never says locked', async () => {
    const left = await ask('Did anyone leave the garage door open last night?');
    expect(left.answer).toMatchObject({ kind: 'state', value: true });
    const locked = await ask('Was the front door locked last night?');
    expect(locked.answer.kind).toBe('unknown');
    expect(locked.result).toBe('I have no readings that say whether the front door is locked.');
    const left2 = await ask('When did Anna leave yesterday?');
    expect(left2.answer).toMatchObject({ kind: 'last', at: local(3, 8, 30) });
  });

  it('home/not_home read as home and away, through the alias "Anna"', async () => {
    const home = await ask('Is Anna home?');
    expect(home.answer).toMatchObject({ kind: 'state', entity: 'person.anna', value: true });
    expect(home.result).toBe('Yes, Anna has been home for 16 hours, since 5 pm yesterday.');
    const out = await ask('Was Anna out yesterday morning?');
    expect(out.answer.value).toBe(true);
    expect(out.answer.spans).toContainEqual(
      expect.objectContaining({ from: local(3, 8, 30), value: true, state: 'away' }),
    );
  });
});

describe('measure', () => {
  it('"How warm was the bedroom yesterday evening?": the mean from the hour rollups, with its unit', async () => {
    const q = 'How warm was the bedroom yesterday evening?';
    const r = await ask(q);
    spoken(r, q);
    expect(r.answer).toMatchObject({ kind: 'measure', entity: 'bedroom_sensor', metric: 'temperature', stat: 'mean' });
    expect(r.answer.value).toBeCloseTo(21, 5);
    expect(r.answer.unit).toBe('°C');
    expect(r.result).toContain('about 21 °C');
    expect(r.evidence).toContainEqual(expect.objectContaining({ type: 'rollup', count: 4 }));
    expect(r.sure).toBe(true);
  });

  it('coldest / warmest are the minimum and maximum with the time they happened', async () => {
    const cold = await ask('What was the coldest it got in the bedroom last night?');
    expect(cold.answer).toMatchObject({ stat: 'min', value: 17, at: local(3, 22) });
    expect(cold.result).toMatch(/17 °C, at 10 pm last night/);
    const night = await ask('How cold did it get last night?');
    expect(night.answer).toMatchObject({ entity: 'bedroom_sensor', stat: 'min', value: 17 });
    const warm = await ask('How warm did the bedroom get at its warmest yesterday?');
    expect(warm.answer).toMatchObject({ stat: 'max', value: 21 });
  });

  it('a concept alone finds the one series that measures it ("how humid")', async () => {
    const r = await ask('How humid was it yesterday?');
    expect(r.answer).toMatchObject({ kind: 'measure', metric: 'humidity', value: 55, unit: '%' });
    expect(r.sure).toBe(true);
  });

  it('"how much energy" integrates a power series over the window (kWh)', async () => {
    const r = await ask('How much energy did the kettle use yesterday?');
    const [from, to] = KETTLE_RUNS[1];
    const expected = (2000 * (to - from) + 0.5 * (86_400 - (to - from))) / 3_600_000;
    expect(r.answer).toMatchObject({ kind: 'measure', stat: 'sum', unit: 'kWh' });
    expect(r.answer.value as number).toBeCloseTo(expected, 2);
  });

  it('readings that stop before the window ends: not sure, and the answer says when they stopped', async () => {
    const later = NOW + 3 * 3600;
    const r = await ask('How warm was the bedroom in the last 4 hours?', { now: later });
    expect(r.sure).toBe(false);
    expect(r.result).toMatch(/My last reading from the bedroom was at 9 am, 3 hours ago\./);
    const none = await ask('How warm was the bedroom in the last 2 hours?', {
      now: new Date(later * 1000).toISOString(),
    });
    expect(none.answer).toMatchObject({ kind: 'unknown', entity: 'bedroom_sensor', metric: 'temperature' });
    expect(none.result).toMatch(/^I have no readings of the bedroom temperature in the last 2 hours\. My last reading/);
  });
});

describe('last, duration, count, usual', () => {
  it('"When did the kettle last run?": the start of its last run above the power threshold', async () => {
    const q = 'When did the kettle last run?';
    const r = await ask(q);
    spoken(r, q);
    const [from, to] = KETTLE_RUNS[2];
    expect(r.answer).toMatchObject({
      kind: 'last',
      entity: 'kettle_plug',
      metric: 'power',
      at: from,
      seconds: to - from,
    });
    expect(r.result).toMatch(/^The kettle last ran at 7:30 am, [^.]+ ago, for 4 minutes\.$/);
    const first = await ask('When did the kettle first run yesterday?');
    expect(first.answer.at).toBe(KETTLE_RUNS[1][0]);
    const door = await ask('When was the garage door last opened?');
    expect(door.answer.at).toBe(GARAGE_OPEN[1][0]);
  });

  it('duration and count over a window', async () => {
    const long = await ask('How long was the garage door open last night?');
    expect(long.answer).toMatchObject({ kind: 'duration', seconds: GARAGE_OPEN[1][1] - GARAGE_OPEN[1][0] });
    expect(long.result).toMatch(/1 hour and 20 minutes last night/);
    const wednesday = await ask('How many times did the garage door open on Wednesday?');
    expect(wednesday.answer).toMatchObject({ kind: 'count', count: 1 });
    const kettle = await ask('How many times did the kettle run yesterday?');
    expect(kettle.answer).toMatchObject({ kind: 'count', count: 1 });
    expect(kettle.result).toBe('The kettle ran once yesterday.');
  });

  it('warmer or colder than usual: the difference against the same hours of the days before', async () => {
    const warmer = await ask('Was the bedroom warmer than usual yesterday evening?');
    expect(warmer.answer).toMatchObject({ kind: 'usual', unit: '°C' });
    expect(warmer.answer.value as number).toBeCloseTo(2, 5); // 21 °C against 19 °C
    expect(warmer.result).toMatch(/^Yes, the bedroom temperature was 2 °C warmer than usual/);
    const colder = await ask('Was the bedroom colder than usual yesterday evening?');
    expect(colder.result).toMatch(/^No, /);
  });

  it('"is it warmer than usual?" asks about now: the last hour against the same hour of the days before', async () => {
    const r = await ask('Is the bedroom warmer than usual?');
    expect(r.answer).toMatchObject({ kind: 'usual', from: NOW - 3600, to: NOW, value: 0, usual: 19 });
    expect(r.result).toMatch(
      /^No, the bedroom temperature is about as usual for this time of day: 19 °C against 19 °C/,
    );
  });

  it('"right now" is now: the last hour against the same hour of the days before', async () => {
    const r = await ask('Is it warmer than usual in the bedroom right now?');
    expect(r.answer).toMatchObject({ kind: 'usual', from: NOW - 3600, to: NOW, usual: 19 });
  });

  it('energy against usual is the energy used (a power series integrated), never the level of a reading', async () => {
    // Yesterday (the 3rd): one 3-minute boil at 2,000 W and 0.5 W standby; the six whole days before
    // with readings: one 4-minute boil among them, standby otherwise.
    const standby = (0.5 * 24) / 1000;
    const yesterday = (2000 * 3) / 60 / 1000 + standby - (0.5 * 3) / 60 / 1000;
    const usual = ((2000 * 4) / 60 / 1000 + 6 * standby - (0.5 * 4) / 60 / 1000) / 6;
    const r = await ask('Did the kettle use more energy than usual yesterday?');
    expect(r.answer).toMatchObject({ kind: 'usual', unit: 'kWh', stat: 'sum' });
    expect(r.answer.usual as number).toBeCloseTo(usual, 2);
    expect(r.answer.value as number).toBeCloseTo(yesterday - usual, 2);
    expect(r.result).toMatch(
      /^Yes, the kettle used 0\.11 kWh yesterday, 0\.08 kWh more than usual \(0\.03 kWh on average over the 6 days before\)\.$/,
    );
  });

  it('a two-state series against usual: the time it held against the same hours of the days before', async () => {
    const r = await ask('Was the garage door open longer than usual last night?');
    const held = GARAGE_OPEN[1][1] - GARAGE_OPEN[1][0];
    expect(r.answer).toMatchObject({ kind: 'usual', seconds: held, value: held, usual: 0, unit: 's' });
    expect(r.result).toBe(
      'Yes, the garage door was open for 1 hour and 20 minutes last night, 1 hour and 20 minutes longer than usual ' +
        '(usually not open at all over the 7 days before).',
    );
  });

  it('a window still to come is not answered from readings', async () => {
    const r = await ask('Will the garage door be open tonight?');
    expect(r.answer.kind).toBe('unknown');
    expect(r.answer.from).toBeGreaterThan(NOW);
    expect(r.result).toMatch(/^I can't tell tonight yet/);
  });
});

describe('which subject', () => {
  it('two subjects fit ("the door"): one is chosen and named, and the answer is not sure', async () => {
    const r = await ask('Was the door open last night?');
    expect(r.sure).toBe(false);
    expect(r.answer.entity).toBe('garage_door');
    expect(r.result).toMatch(/I took it to be the garage door \(not the front door\)/);
  });

  it('a thing the home has no readings from is said plainly', async () => {
    const r = await ask('Was the shed door open last night?');
    expect(r.answer.kind).toBe('unknown');
    expect(r.result).toBe('I have no readings from the shed door.');
  });
});
