import { describe, it, expect } from 'vitest';
import { createLocalEmbedder, LOCAL_DEFAULT_DIM } from '../../src/ai/local-embedder.js';
import { CONCEPTS } from '../../src/ai/concepts.js';
import { analyze } from '../../src/ai/text.js';
import { HubError } from '../../src/lib/errors.js';

const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
const norm = (a: Float32Array) => Math.sqrt(cos(a, a));

describe('createLocalEmbedder', () => {
  const e = createLocalEmbedder();
  const v = (t: string) => e.embedSync(t);

  it('describes itself honestly', async () => {
    expect(e.provider).toBe('local');
    expect(e.model).toBe('hearth-local-v1');
    expect(e.dim).toBe(LOCAL_DEFAULT_DIM);
    expect(e.dim).toBe(384);
    expect(e.fingerprint).toBe('hearth-local-v1:384');
    expect(e.base_url).toBeUndefined();
    expect(e.note).toMatch(/lexical/);
    expect(e.note).toMatch(/paraphrase/);
    expect(await e.ping()).toBe(true);
  });

  it('is deterministic across instances', () => {
    const text = 'Brian keeps the bedroom at 68°F at night';
    const a = v(text);
    const b = createLocalEmbedder().embedSync(text);
    expect(a).toBeInstanceOf(Float32Array);
    expect(Array.from(a)).toEqual(Array.from(b));
  });

  it('returns L2-normalised vectors of length dim', () => {
    for (const t of ['lamp', 'The kitchen lights turn on at 6pm on weekdays', 'x'.repeat(500)]) {
      const x = v(t);
      expect(x.length).toBe(384);
      expect(norm(x)).toBeCloseTo(1, 5);
    }
  });

  it('uses signed hashing: components of both signs', () => {
    const x = v('The kitchen lights turn on at 6pm on weekdays and the dishwasher runs overnight');
    expect(x.some((c) => c < 0)).toBe(true);
    expect(x.some((c) => c > 0)).toBe(true);
  });

  it('embeds text with no content words as an all-zero vector', async () => {
    for (const t of ['', '   ', '?!.,', 'the and of it is']) {
      const x = v(t);
      expect(x.length).toBe(384);
      expect(x.every((c) => c === 0)).toBe(true);
    }
    expect((await e.embed(['']))[0].every((c) => c === 0)).toBe(true);
  });

  it('embeds a batch in order, equal to one-by-one', async () => {
    const texts = ['the dog barks', 'coffee at 7am', 'wifi password on the fridge'];
    const out = await e.embed(texts);
    expect(out).toHaveLength(3);
    out.forEach((x, i) => expect(Array.from(x)).toEqual(Array.from(v(texts[i]))));
    expect(await e.embed([])).toEqual([]);
  });

  it('ignores stopwords, case and diacritics', () => {
    expect(Array.from(v('The bedroom is COLD'))).toEqual(Array.from(v('bedroom cold')));
    expect(Array.from(v('Zoë loves crème brûlée at the café'))).toEqual(Array.from(v('zoe loves creme brulee cafe')));
  });

  it('ranks a paraphrase above an unrelated sentence', () => {
    const base = v('Brian likes the bedroom cold at night');
    const para = v('Brian prefers a chilly bedroom when sleeping');
    const other = v('Brian parks the car in the garage');
    expect(cos(base, para)).toBeGreaterThan(cos(base, other));
    expect(cos(base, para)).toBeGreaterThan(0.25);
  });

  it('relates words that share only a concept', () => {
    // No shared words or stems: only the thesaurus links them.
    expect(cos(v('allergic'), v('intolerance'))).toBeGreaterThan(0.2);
    expect(cos(v('puppy'), v('kennel'))).toBeGreaterThan(0.2);
    expect(cos(v('puppy'), v('thermostat'))).toBeLessThan(0.15);
    expect(cos(v('Sarah is allergic to peanuts'), v('Sarah has a nut allergy'))).toBeGreaterThan(
      cos(v('Sarah is allergic to peanuts'), v('Sarah goes to yoga on Tuesdays')),
    );
  });

  it('sees word order through bigrams and typos through character n-grams', () => {
    expect(cos(v('living room lamp'), v('lamp room living'))).toBeLessThan(0.999);
    expect(cos(v('thermostat'), v('thermostatt'))).toBeGreaterThan(0.25);
  });

  it('keeps unrelated words near-orthogonal (hash collisions are rare and signed)', () => {
    // One pair can still collide in 384 buckets; the property that matters is statistical.
    const words = ['thermostat', 'wallet', 'puppy', 'guitar', 'dishwasher', 'passport', 'broccoli', 'router',
      'grandmother', 'umbrella', 'basketball', 'toothpaste', 'mortgage', 'lawnmower', 'espresso', 'insulin'];
    const sims: number[] = [];
    for (let i = 0; i < words.length; i++) for (let j = i + 1; j < words.length; j++) sims.push(cos(v(words[i]), v(words[j])));
    const meanAbs = sims.reduce((s, x) => s + Math.abs(x), 0) / sims.length;
    expect(meanAbs).toBeLessThan(0.05);
    expect(sims.filter((x) => Math.abs(x) > 0.15).length / sims.length).toBeLessThan(0.1);
  });

  it('honours a custom dim and rejects impossible ones', () => {
    const small = createLocalEmbedder({ dim: 128 });
    expect(small.embedSync('kitchen light').length).toBe(128);
    expect(small.fingerprint).toBe('hearth-local-v1:128');
    for (const dim of [0, 8, 1.5, Number.NaN]) {
      expect(() => createLocalEmbedder({ dim })).toThrow(HubError);
      try {
        createLocalEmbedder({ dim });
      } catch (err) {
        expect((err as HubError).code).toBe('invalid');
      }
    }
  });

  it('embeds a 100-character fact in well under 0.1 ms amortised', () => {
    const fact = 'Brian keeps the bedroom at 68 degrees at night and likes the ceiling fan on while he sleeps';
    expect(fact.length).toBeGreaterThan(80);
    for (let i = 0; i < 1000; i++) v(fact + (i % 100)); // warm up JIT and stem cache
    const n = 20_000;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) v(fact + (i % 100));
    expect((performance.now() - t0) / n).toBeLessThan(0.1);
  });
});

describe('household concept thesaurus', () => {
  const names = Object.keys(CONCEPTS);

  it('has a general-sized set of groups', () => {
    expect(names.length).toBeGreaterThanOrEqual(150);
    expect(names.length).toBeLessThanOrEqual(250);
    for (const n of names) expect(n).toMatch(/^[a-z_]+$/);
  });

  it('every entry analyses to one or two words (none lost to stopwords or punctuation)', () => {
    const bad: string[] = [];
    for (const [name, list] of Object.entries(CONCEPTS)) {
      const entries = list.split(',').map((s) => s.trim());
      expect(entries.length, name).toBeGreaterThanOrEqual(3);
      for (const entry of entries) {
        const n = entry === 'am' || entry === 'pm' ? 1 : analyze(entry).length;
        if (n < 1 || n > 2) bad.push(`${name}: "${entry}"`);
      }
    }
    expect(bad).toEqual([]);
  });
});
