/**
 * `filterWithin(filter, pattern)`: the subscription ACL test (issue #10 item 15). Table cases, then
 * a property test against a brute-force oracle that enumerates every topic the filter can match
 * over a small alphabet (exact for these alphabets: a level no filter names behaves like `z`).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { filterWithin, matchTopic } from '../../src/lib/mqtt-topic.js';

describe('filterWithin', () => {
  it.each([
    ['hearth/events/#', 'hearth/events/#', true],
    ['hearth/events/#', 'hearth/#', true],
    ['hearth/events/memory_added', 'hearth/events/#', true],
    ['hearth/events/+', 'hearth/events/#', true],
    ['hearth/+/x', 'hearth/#', true],
    ['a/+', 'a/+', true],
    ['a/b', 'a/+', true],
    ['a/#', '#', true],
    ['a', 'a/#', true],
    ['a/+', 'a/+/#', true],
    ['hearth/#', 'hearth/events/#', false],
    ['#', 'hearth/#', false],
    ['+/events/#', 'hearth/#', false],
    ['hearth/+', 'hearth/events', false],
    ['a/#', 'a/+/#', false],
    ['a/#', 'a/+', false],
    ['a', 'a/+', false],
    ['a/b/c', 'a/+', false],
    ['$SYS/#', '#', false],
    ['$SYS/x', '+/x', false],
    ['$SYS/x', '$SYS/#', true],
    ['a/#/b', '#', false],
    ['#', '+/#', true],
    ['#', '+/+/#', false],
    ['a', 'a+', false],
  ])('%s within %s: %s', (filter, pattern, expected) => {
    expect(filterWithin(filter, pattern)).toBe(expected);
  });

  const LEVELS = ['a', 'b', '$s', '+', '#'];
  const filterArb = fc.array(fc.constantFrom(...LEVELS), { minLength: 1, maxLength: 4 }).map((ls) =>
    ls
      .map((l, i) => (l === '#' && i < ls.length - 1 ? 'a' : l))
      .map((l, i) => (l === '$s' && i > 0 ? 'b' : l))
      .join('/'),
  );

  /** Every topic `filter` matches over {a, b, z} (plus its own literals), with `#` standing for 0..depth levels. */
  function* topicsOf(filter: string, depth: number): Generator<string> {
    const f = filter.split('/');
    const alphabet = ['a', 'b', 'z'];
    function* expand(i: number, acc: string[]): Generator<string[]> {
      if (i === f.length) return yield acc;
      // Wildcards never stand for a `$` first level [MQTT-4.7.2-1]; `$s` appears only as a literal.
      const choices = alphabet;
      if (f[i] === '#') {
        yield acc;
        let tails: string[][] = [[]];
        for (let n = 1; n <= depth; n++) {
          tails = tails.flatMap((t) => choices.map((c) => [...t, c]));
          for (const t of tails) yield [...acc, ...t];
        }
      } else if (f[i] === '+') for (const c of choices) yield* expand(i + 1, [...acc, c]);
      else yield* expand(i + 1, [...acc, f[i]]);
    }
    for (const levels of expand(0, [])) if (levels.length) yield levels.join('/');
  }

  it('agrees with a brute-force oracle on every topic the filter can match (fast-check)', () => {
    fc.assert(
      fc.property(filterArb, filterArb, (filter, pattern) => {
        const depth = pattern.split('/').length + 1;
        let oracle = true;
        for (const t of topicsOf(filter, depth)) {
          if (matchTopic(filter, t) === null) throw new Error(`oracle generated ${t}, which ${filter} does not match`);
          if (matchTopic(pattern, t) === null) {
            oracle = false;
            break;
          }
        }
        expect(filterWithin(filter, pattern), `${filter} within ${pattern}`).toBe(oracle);
      }),
      { seed: 0x5ab5e7, numRuns: 3000 },
    );
  }, 120_000);
});
