import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { estimateTokens, pack, type ContextItem } from '../../src/tiers/context/budget.js';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';

describe('pack (token budget)', () => {
  const item = fc.record({
    tier: fc.constantFrom('memory', 'reading', 'task', 'intention', 'schedule') as fc.Arbitrary<ContextItem['tier']>,
    text: fc.string({ minLength: 1, maxLength: 600 }),
    score: fc.double({ min: 0, max: 1, noNaN: true }),
  });
  it('never exceeds the budget and never omits an item that would still fit', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), fc.integer({ min: 50, max: 4000 }), (items, budget) => {
        const r = pack(items, budget);
        expect(r.used_tokens).toBeLessThanOrEqual(budget);
        expect(r.items.reduce((a, i) => a + i.tokens, 0)).toBe(r.used_tokens);
        // the joined text's own estimate is within what was counted
        expect(estimateTokens(r.items.map((i) => i.text).join('\n'))).toBeLessThanOrEqual(r.used_tokens);
        for (const o of r.omitted) expect(o.tokens).toBeGreaterThan(budget - r.used_tokens);
        expect(r.items.length + r.omitted.length).toBe(items.length);
        expect(r.truncated).toBe(r.omitted.length > 0);
      }),
      { numRuns: 300, seed: 7 },
    );
  }, 60_000);
  it('puts higher scores first', () => {
    const r = pack(
      [
        { tier: 'memory', text: 'low', score: 0.1 },
        { tier: 'memory', text: 'high', score: 0.9 },
      ],
      100,
    );
    expect(r.items.map((i) => i.text)).toEqual(['high', 'low']);
  });
});

describe('get_context_budget and cross_query over HTTP', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await buildTestHub();
    await post(hub, '/remember', {
      entity_name: 'Brian',
      fact: 'Brian keeps the bedroom at 68°F at night',
      category: 'preference',
    });
    await post(hub, '/remember', { entity_name: 'Brian', fact: 'Brian is allergic to cats' });
    await post(hub, '/remember', { entity_name: 'Anna', fact: 'Anna drinks oat milk' });
    await post(hub, '/record', { entity_name: 'Brian', metric: 'mood', value: 'focused' });
    await post(hub, '/record', { entity_name: 'bedroom', metric: 'temperature', value: 67.5, unit: '°F' });
    await post(hub, '/schedule', { entity_name: 'Brian', title: 'Dentist', start_ts: hub.clock.now() + 86_400 });
  });
  afterEach(async () => {
    await hub.close();
  });

  it('fills the budget with memories, readings and schedule, reporting what was left out', async () => {
    const big = await post(hub, '/get_context_budget', { entity_name: 'Brian', token_budget: 2000 });
    expect(big.body.truncated).toBe(false);
    const tiers = new Set(big.body.items.map((i: { tier: string }) => i.tier));
    expect([...tiers].sort()).toEqual(['memory', 'reading', 'schedule']);
    expect(big.body.result).toContain('68°F');
    for (let i = 0; i < 10; i++) {
      await post(hub, '/remember', {
        entity_name: 'Brian',
        fact: `Brian collected vintage postcard number ${i} from a long trip along the coast of Portugal in a rented camper van`,
      });
    }
    const small = await post(hub, '/get_context_budget', { entity_name: 'Brian', token_budget: 50 });
    expect(small.body.used_tokens).toBeLessThanOrEqual(50);
    expect(small.body.truncated).toBe(true);
    expect(small.body.omitted.length).toBeGreaterThan(0);
    const noReadings = await post(hub, '/get_context_budget', { entity_name: 'Brian', include_readings: false });
    expect(noReadings.body.items.some((i: { tier: string }) => i.tier === 'reading')).toBe(false);
    const keyword = await post(hub, '/get_context_budget', { query: 'cats allergy', recall_mode: 'keyword' });
    expect(keyword.body.items[0].text).toContain('allergic to cats');
    expect((await post(hub, '/get_context_budget', { token_budget: 10 })).body.message).toMatch(/^token_budget/);
  });

  it('cross_query labels memories and live readings by tier', async () => {
    const r = await post(hub, '/cross_query', { query: 'how warm is the bedroom' });
    const tiers = r.body.results.map((x: { tier: string }) => x.tier);
    expect(tiers).toContain('memory');
    expect(tiers).toContain('reading');
    expect(r.body.results.find((x: { tier: string }) => x.tier === 'reading')).toMatchObject({
      entity_name: 'bedroom',
      metric: 'temperature',
      value: 67.5,
    });
    expect(r.body.result).toMatch(/\[reading\] bedroom temperature: 67.5 °F/);
  });
});
