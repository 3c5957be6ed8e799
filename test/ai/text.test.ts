import { describe, it, expect } from 'vitest';
import { STOPWORDS, analyze, normalizeText, stem, tokenize } from '../../src/ai/text.js';

describe('tokenize', () => {
  it('lower-cases, stems and drops stopwords', () => {
    expect(tokenize('The cats are SLEEPING in the bedroom')).toEqual(['cat', 'sleep', 'bedroom']);
  });

  it('folds diacritics and compatibility forms', () => {
    expect(tokenize('Café Zoë ﬁsh')).toEqual(['cafe', 'zoe', 'fish']);
    expect(normalizeText('Crème Brûlée')).toBe('creme brulee');
  });

  it('drops possessive s, keeps negation', () => {
    expect(tokenize("Brian's dog doesn't bark")).toEqual(['brian', 'dog', 'doesnt', 'bark']);
    expect(tokenize('not on off')).toEqual(['not', 'on', 'off']);
  });

  it('spells out the degree sign and keeps numbers', () => {
    expect(tokenize('68°F')).toEqual(['68', 'degre']);
    expect(tokenize('3 cats')).toEqual(['3', 'cat']);
  });

  it('keeps am/pm only as part of a clock time', () => {
    expect(tokenize('up at 7am, bed at 10:30 pm')).toEqual(['up', '7', 'am', 'bed', '10', '30', 'pm']);
    expect(tokenize('I am home')).toEqual(['home']);
  });

  it('drops single letters, keeps word order and duplicates', () => {
    expect(tokenize('a b c lamp x lamp')).toEqual(['lamp', 'lamp']);
  });

  it('returns nothing for empty, punctuation and stopword-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize('?!… --')).toEqual([]);
    expect(tokenize('it is what it is')).toEqual([]);
  });

  it('analyze pairs the folded word with its stem', () => {
    expect(analyze('Running Naïvely')).toEqual([
      { word: 'running', stem: 'run' },
      { word: 'naively', stem: 'naiv' },
    ]);
    expect(stem('heating')).toBe('heat');
  });
});

describe('STOPWORDS', () => {
  it('holds function words but not words that carry meaning at home', () => {
    for (const w of ['the', 'and', 'is', 'of', 'my']) expect(STOPWORDS.has(w)).toBe(true);
    for (const w of ['not', 'no', 'never', 'off', 'on', 'cold', 'keys']) expect(STOPWORDS.has(w)).toBe(false);
  });
});
