import { describe, it, expect } from 'vitest';
import { createLocalEmbedder, LOCAL_DEFAULT_DIM } from '../../src/ai/local-embedder.js';
import { CONCEPTS } from '../../src/ai/concepts.js';
import { analyze } from '../../src/ai/text.js';
import { loadWordVectors, parseWordVectors, wordVectorsPath } from '../../src/ai/word-vectors.js';
import { HubError } from '../../src/lib/errors.js';
import { readFileSync } from 'node:fs';

const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
const norm = (a: Float32Array) => Math.sqrt(cos(a, a));
/** The hashed lexical part alone (all but the last 100 values), renormalised. */
const lexical = (a: Float32Array) => {
  const l = a.slice(0, a.length - 100);
  const n = norm(l);
  return n > 0 ? l.map((x) => x / n) : l;
};

describe('createLocalEmbedder', () => {
  const e = createLocalEmbedder();
  const v = (t: string) => e.embedSync(t);

  it('describes itself honestly', async () => {
    expect(e.provider).toBe('local');
    expect(e.model).toBe('hearth-local-v2');
    expect(e.dim).toBe(LOCAL_DEFAULT_DIM);
    expect(e.dim).toBe(384);
    expect(e.fingerprint).toBe('hearth-local-v2:384');
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
    // "thermostatt" has no word vector, so only the lexical part (40% of the energy) can match it.
    expect(cos(lexical(v('thermostat')), lexical(v('thermostatt')))).toBeGreaterThan(0.25);
    expect(cos(v('thermostat'), v('thermostatt'))).toBeGreaterThan(0.2);
    expect(cos(v('thermostat'), v('thermostatt'))).toBeGreaterThan(3 * Math.abs(cos(v('thermostat'), v('passport'))));
  });

  const unrelated = [
    'thermostat',
    'wallet',
    'puppy',
    'guitar',
    'dishwasher',
    'passport',
    'broccoli',
    'router',
    'grandmother',
    'umbrella',
    'basketball',
    'toothpaste',
    'mortgage',
    'lawnmower',
    'espresso',
    'insulin',
  ];
  const pairSims = (f: (a: Float32Array) => Float32Array) => {
    const sims: number[] = [];
    for (let i = 0; i < unrelated.length; i++) {
      for (let j = i + 1; j < unrelated.length; j++) sims.push(cos(f(v(unrelated[i])), f(v(unrelated[j]))));
    }
    return sims;
  };
  const meanAbs = (xs: number[]) => xs.reduce((s, x) => s + Math.abs(x), 0) / xs.length;

  it('keeps unrelated words near-orthogonal in the lexical part (hash collisions are rare and signed)', () => {
    // One pair can still collide in 284 buckets; the property that matters is statistical.
    const sims = pairSims(lexical);
    expect(meanAbs(sims)).toBeLessThan(0.05);
    expect(sims.filter((x) => Math.abs(x) > 0.15).length / sims.length).toBeLessThan(0.1);
  });

  it('keeps unrelated words far below related ones overall (the semantic part adds a little blur)', () => {
    // Word vectors do relate some of these (wallet ~ passport ≈ 0.33: things you carry when out).
    const sims = pairSims((a) => a);
    expect(meanAbs(sims)).toBeLessThan(0.1);
    expect(Math.max(...sims)).toBeLessThan(0.4);
  });

  it('reaches paraphrases that share no word and no thesaurus concept through word vectors', () => {
    // bouquet/flowers and antibiotic/penicillin share no stem and no concept group: only the semantic part relates them.
    expect(cos(v('bouquet'), v('flowers'))).toBeGreaterThan(0.3);
    expect(cos(v('bouquet'), v('flowers'))).toBeGreaterThan(cos(v('bouquet'), v('dishwasher')) + 0.25);
    expect(cos(v('which antibiotic is Anna allergic to'), v('Anna is allergic to penicillin'))).toBeGreaterThan(
      cos(v('which antibiotic is Anna allergic to'), v('Anna is allergic to cats')),
    );
  });

  it('embeds words without a vector lexically, still L2-normalised', () => {
    const x = v('zqxjv wvkrr');
    expect(norm(x)).toBeCloseTo(1, 5);
    expect(x.slice(x.length - 100).every((c) => c === 0)).toBe(true);
  });

  it('honours a custom dim and rejects impossible ones', () => {
    const small = createLocalEmbedder({ dim: 128 });
    expect(small.embedSync('kitchen light').length).toBe(128);
    expect(small.fingerprint).toBe('hearth-local-v2:128');
    for (const dim of [0, 8, 115, 1.5, Number.NaN]) {
      expect(() => createLocalEmbedder({ dim })).toThrow(HubError);
      try {
        createLocalEmbedder({ dim });
      } catch (err) {
        expect((err as HubError).code).toBe('invalid');
      }
    }
  });
});

describe('shipped word vectors', () => {
  // How fast they load is a row of `npm run bench` (scripts/bench/stopwatch.ts), not a bound here.
  it('load once, with the documented shape', () => {
    const wv = parseWordVectors(readFileSync(wordVectorsPath()));
    expect(wv.dim).toBe(100);
    expect(wv.count).toBe(60_000);
    expect(wv.lookup('kitchen')).toBeGreaterThanOrEqual(0);
    expect(wv.lookup('Kitchen')).toBe(-1); // lower-case vocabulary
    expect(wv.lookup('wi-fi')).toBe(-1); // only words the tokenizer can produce
    expect(loadWordVectors()).toBe(loadWordVectors()); // cached per process
  });

  it('rejects a corrupt or truncated file', () => {
    const buf = readFileSync(wordVectorsPath());
    expect(() => parseWordVectors(buf.subarray(0, buf.length - 1))).toThrow(HubError);
    expect(() => parseWordVectors(Buffer.from('not a vector file'))).toThrow(HubError);
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
