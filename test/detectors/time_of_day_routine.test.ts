import { describe, expect, it } from 'vitest';
import routine from '../../detectors/time_of_day_routine/index.js';
import { fixturesPerTest, at, rng, weekdayOf, type Point } from './fixtures.js';

const open = fixturesPerTest();
const DAYS = Array.from({ length: 35 }, (_, i) => 35 - i); // 35 days ago … yesterday, across the 2 Nov DST change
const hm = (h: number, m: number) => h + m / 60;

describe('time_of_day_routine', () => {
  it('reports a weekday arrival at 18:10 LOCAL time in America/New_York (UTC−5/−4), not the UTC hour', async () => {
    const f = open();
    const r = rng(1);
    const points: Point[] = [[at(36, 0), 'home']];
    for (const ago of DAYS) {
      if (weekdayOf(ago) >= 5) continue;
      points.push([at(ago, hm(7, 45) + r.n(4) / 60), 'not_home'], [at(ago, hm(18, 10) + r.n(4) / 60), 'home']);
    }
    f.series('Brian', 'presence', points, { entityType: 'person' });
    const out = await f.run(routine);
    expect(out.map((x) => [x.pattern_key, x.fact]).sort()).toEqual([
      ['time_of_day_routine:Brian:presence:home:weekdays', 'Brian usually arrives home around 18:10 on weekdays'],
      ['time_of_day_routine:Brian:presence:not_home:weekdays', 'Brian usually leaves home around 07:45 on weekdays'],
    ]);
    expect(out.every((x) => x.category === 'routine' && x.evidence.time_zone === 'America/New_York')).toBe(true);
  });

  it('reports "every day" for a light that turns on at 19:00 daily, and nothing for its scattered switch-off', async () => {
    const f = open();
    const r = rng(2);
    const points: Point[] = DAYS.flatMap(
      (ago) =>
        [
          [at(ago, 19 + r.n(5) / 60), 'on'],
          [at(ago, 22.5 + (r.u() - 0.5) * 3), 'off'],
        ] as Point[],
    );
    f.series('hallway_light', 'state', points, { entityType: 'device' });
    const out = await f.run(routine);
    expect(out.map((x) => [x.pattern_key, x.fact])).toEqual([
      [
        'time_of_day_routine:hallway_light:state:on:daily',
        "The hallway light usually turns 'on' around 19:00 every day",
      ],
    ]);
  });

  it('keeps weekday and weekend routines apart when their times differ', async () => {
    const f = open();
    const points: Point[] = DAYS.flatMap((ago) => {
      const on = weekdayOf(ago) >= 5 ? hm(8, 30) : hm(6, 50);
      return [
        [at(ago, on), 'on'],
        [at(ago, on + 0.5 + (ago % 5) * 0.6), 'off'],
      ] as Point[];
    });
    f.series('coffee_machine', 'state', points, { entityType: 'device' });
    const facts = (await f.run(routine)).map((x) => x.fact).sort();
    expect(facts).toEqual([
      "The coffee machine usually turns 'on' around 06:50 on weekdays",
      "The coffee machine usually turns 'on' around 08:30 on weekends",
    ]);
  });

  it('wraps around midnight (23:50 and 00:10 are 20 minutes apart)', async () => {
    const f = open();
    const points: Point[] = DAYS.flatMap(
      (ago, i) =>
        [
          [at(ago, 12), 'awake'],
          [at(ago, i % 2 ? hm(23, 50) : hm(23, 58)), 'asleep'],
        ] as Point[],
    );
    f.series('Leo', 'sleep_state', points, { entityType: 'person' });
    const out = await f.run(routine);
    expect(out.map((x) => x.fact)).toContain("Leo's sleep state usually becomes 'asleep' around 23:55 every day");
  });

  it('no routine for ±2 h scatter or uniformly random times', async () => {
    const f = open();
    const r = rng(3);
    f.series(
      'porch_light',
      'state',
      DAYS.flatMap(
        (ago) =>
          [
            [at(ago, 18 + (r.u() - 0.5) * 4), 'on'],
            [at(ago, 23.5), 'off'],
          ] as Point[],
      ),
    );
    f.series(
      'guest_room',
      'window',
      DAYS.flatMap(
        (ago) =>
          [
            [at(ago, r.u() * 11), 'open'],
            [at(ago, 12 + r.u() * 11), 'closed'],
          ] as Point[],
      ),
    );
    const out = await f.run(routine);
    expect(out.map((x) => x.pattern_key)).toEqual(['time_of_day_routine:porch_light:state:off:daily']);
  });
});
