import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { counts, sharedContentWords, type EvalSet } from '../../scripts/lib/eval-data.js';

const load = (p: string): EvalSet => JSON.parse(readFileSync(new URL(`../../eval/${p}`, import.meta.url), 'utf8'));

describe('eval/household-heldout.json keeps the promises of a held-out set', () => {
  const data = load('household-heldout.json');

  it('is large enough: ≥150 facts, ≥100 questions, ≥40 paraphrases, ≥25 never stated, ≥10 supersessions', () => {
    const c = counts(data);
    expect(c.facts).toBeGreaterThanOrEqual(150);
    expect(c.queries).toBeGreaterThanOrEqual(100);
    expect(c.paraphrase).toBeGreaterThanOrEqual(40);
    expect(c.no_evidence).toBeGreaterThanOrEqual(25);
    expect(c.supersessions).toBeGreaterThanOrEqual(10);
  });

  it('every paraphrase shares at most one content word with its answer', () => {
    const offenders = data.queries
      .filter((q) => q.kind === 'paraphrase')
      .map((q) => [q.id, q.query, sharedContentWords(data, q)] as const)
      .filter(([, , shared]) => shared.length > 1);
    expect(offenders).toEqual([]);
  });

  it('ids are unique and every relevant id names a fact; never-stated questions name none', () => {
    const ids = new Set(data.facts.map((f) => f.id));
    expect(ids.size).toBe(data.facts.length);
    for (const q of data.queries) {
      if (q.kind === 'no_evidence') expect(q.relevant).toEqual([]);
      else expect(q.relevant.length && q.relevant.every((id) => ids.has(id)), q.id).toBeTruthy();
    }
  });

  it('has ≥ 8 scoped questions, each about an entity with ≤ 30 facts, answered by its own facts, in other words', () => {
    const scoped = data.scoped ?? [];
    expect(scoped.length).toBeGreaterThanOrEqual(8);
    for (const q of scoped) {
      const own = data.facts.filter((f) => f.entity_name === q.entity_name);
      expect(own.length, q.id).toBeGreaterThan(0);
      expect(own.length, q.id).toBeLessThanOrEqual(30);
      expect(
        q.relevant.every((id) => own.some((f) => f.id === id)),
        q.id,
      ).toBe(true);
      expect(sharedContentWords(data, q).length, q.id).toBeLessThanOrEqual(1);
    }
  });

  it('shares no family with the tuning set', () => {
    const tuning = load('household.json');
    const names = (d: EvalSet) => new Set(d.facts.filter((f) => f.entity_type === 'person').map((f) => f.entity_name));
    const overlap = [...names(data)].filter((n) => names(tuning).has(n));
    expect(overlap).toEqual([]);
  });
});
