import { describe, expect, it } from 'vitest';
import { CONFIDENCE_MODELS, probability, type Signals } from '../../src/tiers/memory/confidence.js';
import { judge, signalsOf, type Candidates } from '../../src/tiers/memory/recall.js';

const hits = (...s: number[]) => s.map((similarity, i) => ({ memory_id: i + 1, similarity }));
const candidates = (over: Partial<Candidates> & { vectorHits: Candidates['vectorHits'] }): Candidates => ({
  mode: 'hybrid',
  rawCov: new Map(),
  phrase: new Set(),
  sameAsTop: new Set(),
  elsewhere: new Set(),
  scoped: new Set(),
  namedFacts: new Set(),
  rows: new Map(),
  replaced: new Map(),
  sims: new Map(over.vectorHits.map((h) => [h.memory_id, h.similarity])),
  ...over,
});
const confident = (c: Candidates, provider = 'use-lite') =>
  [...judge(c, CONFIDENCE_MODELS[provider], 0.4)].filter(([, j]) => j.confident).map(([id]) => id);

describe.each(['use-lite', 'local', 'default'])('confidence model (%s)', (provider) => {
  const m = CONFIDENCE_MODELS[provider];
  const p = (s: Partial<Signals>) => probability(m, { cos: 0, margin: 0, cov: 0, phrase: false, updated: false, ...s });

  it('a high cosine alone, with a runner-up just behind, is not an answer (the old `accept` let it through)', () => {
    expect(confident(candidates({ vectorHits: hits(0.66, 0.65, 0.6) }), provider)).toEqual([]);
  });

  it('a weak shared word is not confirmed by a middling cosine ("wifi password" → the router fact: coverage 0.42, cosine 0.52)', () => {
    expect(p({ cos: 0.52, margin: 0.03, cov: 0.42 })).toBeLessThan(m.threshold);
  });

  it("a top-1 that stands out and shares the question's words answers", () => {
    expect(
      confident(candidates({ vectorHits: hits(0.62, 0.45, 0.44), rawCov: new Map([[1, 0.6]]) }), provider),
    ).toEqual([1]);
  });

  it('a memory holding the question as a phrase answers whatever its cosine ("spare batteries", 0.49)', () => {
    const c = candidates({ vectorHits: hits(0.49, 0.48, 0.47), rawCov: new Map([[2, 1]]), phrase: new Set([2]) });
    expect(confident(c, provider)).toEqual([2]);
  });

  it('the margin is over the best rival, not over a restatement of the top-1', () => {
    const near = candidates({ vectorHits: hits(0.8, 0.79, 0.1) });
    expect(confident(near, provider)).toEqual([]);
    expect(confident({ ...near, sameAsTop: new Set([2]) }, provider).sort()).toEqual([1, 2]);
  });

  it('more of every signal never lowers p', () => {
    const base = { cos: 0.5, margin: 0.05, cov: 0.3 };
    for (const k of ['cos', 'margin', 'cov'] as const)
      expect(p({ ...base, [k]: base[k] + 0.1 })).toBeGreaterThan(p(base));
    expect(p({ ...base, phrase: true })).toBeGreaterThan(p(base));
    // A fact that replaced an older one of its slot (a household's correction) counts for more.
    expect(p({ ...base, updated: true })).toBeGreaterThan(p(base));
  });
});

describe('signals', () => {
  it('the margin of the top-1 is against the first non-restating runner-up; others are measured against the top-1', () => {
    const s = signalsOf(candidates({ vectorHits: hits(0.7, 0.69, 0.5), sameAsTop: new Set([2]) }), 0.3);
    expect(s.get(1)!.margin).toBeCloseTo(0.2);
    expect(s.get(2)!.margin).toBeCloseTo(0.19);
    expect(s.get(3)!.margin).toBeCloseTo(-0.2);
  });

  it('keyword mode has no cosine to read: coverage ≥ keyword_min answers, the rest are candidates only', () => {
    const c = candidates({
      mode: 'keyword',
      vectorHits: [],
      sims: new Map(),
      rawCov: new Map([
        [1, 0.5],
        [2, 0.2],
      ]),
    });
    const j = judge(c, CONFIDENCE_MODELS['use-lite'], 0.4);
    expect(j.get(1)!.confident).toBe(true);
    expect(j.get(2)!.confident).toBe(false);
  });
});
