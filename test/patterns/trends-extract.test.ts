import { afterEach, describe, expect, it } from 'vitest';
import { createOllamaLlm } from '../../src/ai/ollama.js';
import { numbersPreserved } from '../../src/patterns/trends.js';
import { startFakeOllama, type FakeAi } from '../helpers/fake-ai.js';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';

let hub: TestHub | undefined;
let fake: FakeAi | undefined;
afterEach(async () => {
  await hub?.close();
  await fake?.close();
  hub = fake = undefined;
});

async function hubWithHumidity(llmReply?: (text: string) => string) {
  if (llmReply)
    fake = await startFakeOllama({ chat: (req) => llmReply(req.messages[req.messages.length - 1].content) });
  const llm = fake ? createOllamaLlm({ baseUrl: fake.url, model: 'llama3.2', timeoutMs: 2000 }) : null;
  hub = await buildTestHub({ llm });
  const day = 86_400;
  const now = hub.clock.now();
  const readings = [];
  for (let d = 13; d >= 0; d--)
    for (let h = 0; h < 24; h += 3)
      readings.push({
        entity_name: 'living_room',
        metric: 'humidity',
        value: 40 + (13 - d) * 1.2 + (h % 2),
        unit: '%',
        ts: now - (d + 1) * day + h * 3600 + 1800,
      });
  await post(hub, '/record/bulk', { readings });
  return hub;
}

describe('get_trends', () => {
  it('summarises level, range, direction, slope and the previous period from rollups', async () => {
    const h = await hubWithHumidity();
    const r = await post(h, '/get_trends', { entity_name: 'living_room', metric: 'humidity', days: 7 });
    expect(r.body.direction).toBe('rising');
    expect(r.body.slope_per_day).toBeCloseTo(1.2, 1);
    expect(r.body.change_vs_previous).toBeGreaterThan(7);
    expect(r.body.result).toMatch(
      /^Over the last 7 days living_room humidity averaged \d+(\.\d)?% \(range .*\), rising about 1\.2% per day; .* higher than the 7 days before/,
    );
    expect((await post(h, '/get_trends', { entity_name: 'living_room', metric: 'nope' })).status).toBe(404);
  });

  it('lets an LLM rephrase but never change a number', async () => {
    const honest = await hubWithHumidity((t) => `In short: ${t}`);
    const ok = await post(honest, '/get_trends', { entity_name: 'living_room', metric: 'humidity' });
    expect(ok.body.result).toMatch(/^In short: Over the last 7 days/);
    expect(ok.body.warnings).toEqual([]);
    await hub!.close();
    await fake!.close();
    const liar = await hubWithHumidity((t) => t.replace(/\d+(\.\d+)?/, '99'));
    const r = await post(liar, '/get_trends', { entity_name: 'living_room', metric: 'humidity' });
    expect(r.body.result).toMatch(/^Over the last 7 days/);
    expect(r.body.result).not.toContain('99');
    expect(r.body.warnings[0]).toMatch(/changed numbers/);
    expect(fake!.requests.some((q) => q.path === '/api/chat')).toBe(true);
  });

  it('numbersPreserved accepts reordering and rejects new numbers', () => {
    expect(numbersPreserved('averaged 41.2% (range 40 to 43)', 'between 40 and 43, about 41.2% on average')).toBe(true);
    expect(numbersPreserved('averaged 41.2%', 'averaged 41%')).toBe(false);
    expect(numbersPreserved('averaged 41.2%', 'it was humid')).toBe(false);
  });
});

// extract_and_remember: see test/tiers/extract.test.ts (quote-checked extraction).
