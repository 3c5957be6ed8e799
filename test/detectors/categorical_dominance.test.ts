import { describe, expect, it } from 'vitest';
import categoricalDominance from '../../detectors/categorical_dominance/index.js';
import { fixturesPerTest, at, rng, type Point } from './fixtures.js';

const open = fixturesPerTest();

/** One composite mood a few times a day; `top(ago)` is that day's majority value. */
function moods(top: (ago: number) => string, others: string[], seed: number): Point[] {
  const r = rng(seed);
  const out: Point[] = [];
  for (let ago = 20; ago >= 1; ago--) {
    for (let i = 0; i < 7; i++) {
      const v = i < 4 ? top(ago) : others[Math.floor(r.u() * others.length)];
      out.push([at(ago, 8 + 2 * i + r.u()), { mood: v, confidence: Number((0.6 + 0.3 * r.u()).toFixed(2)) }]);
    }
  }
  return out;
}

describe('categorical_dominance', () => {
  it('finds the daily mode of a composite part and reads "mood.mood" as "mood"', async () => {
    const f = open();
    const off = new Set([3, 9]); // 12 of the last 14 days are 'focused'
    f.series(
      'Brian',
      'mood',
      moods((ago) => (off.has(ago) ? 'tired' : 'focused'), ['calm', 'tired', 'stressed'], 1),
      { entityType: 'person' },
    );
    const out = await f.run(categoricalDominance);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      pattern_key: 'categorical_dominance:Brian:mood.mood',
      entity: 'Brian',
      metric: 'mood.mood',
      category: 'habit',
      fact: "Brian's mood is predominantly 'focused' (about 90% of days)",
    });
    expect(out[0].evidence).toMatchObject({ value: 'focused', days_dominant: 12, days: 14 });
  });

  it('says "every day" at 100 % and rounds 10/14 to "about 70%"', async () => {
    const f = open();
    f.series(
      'Anna',
      'mood',
      moods(() => 'calm', ['happy', 'tired'], 2),
      { entityType: 'person' },
    );
    const leo = new Set([1, 4, 6, 10]);
    f.series(
      'Leo',
      'mood',
      moods((ago) => (leo.has(ago) ? 'bored' : 'happy'), ['bored', 'tired', 'excited'], 3),
      { entityType: 'person' },
    );
    const facts = (await f.run(categoricalDominance)).map((x) => x.fact).sort();
    expect(facts).toEqual([
      "Anna's mood is predominantly 'calm' (every day)",
      "Leo's mood is predominantly 'happy' (about 70% of days)",
    ]);
  });

  it.each([
    [
      'dominant on 8 of 14 days (57 %)',
      (ago: number) => (ago % 7 < 4 ? 'happy' : ['bored', 'tired', 'excited'][ago % 3]),
      4,
    ],
    ['uniformly random', (ago: number) => ['calm', 'happy', 'tired', 'anxious'][(ago * 7) % 4], 5],
  ])('no finding when the top value is %s', async (_, top, seed) => {
    const f = open();
    f.series('Mia', 'mood', moods(top, ['calm', 'happy', 'tired', 'anxious', 'bored', 'excited'], seed), {
      entityType: 'person',
    });
    expect(await f.run(categoricalDominance)).toEqual([]);
  });

  it('needs more than 70 % for a coin flip: a two-valued series needs 13 of 14 days', async () => {
    const f = open();
    const states = (closedDays: Set<number>): Point[] =>
      Array.from({ length: 14 }, (_, i) => i + 1).flatMap((ago) => {
        const top = closedDays.has(ago) ? 'closed' : 'open';
        return [0, 1, 2].map((k) => [at(ago, 9 + 4 * k), k < 2 ? top : top === 'open' ? 'closed' : 'open'] as Point);
      });
    f.series('guest_room', 'window', states(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])));
    f.series('hall', 'window', states(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])));
    expect((await f.run(categoricalDominance)).map((x) => x.pattern_key)).toEqual([
      'categorical_dominance:hall:window',
    ]);
  });
});
