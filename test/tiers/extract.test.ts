/**
 * extract_and_remember against fake LLM servers speaking the real Ollama and OpenAI wire APIs: a
 * valid answer is stored at trust 3; invented facts, wrong quotes, unnamed entities, duplicates,
 * broken JSON and a timeout store nothing; a property test says no stored fact lacks its quote.
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOllamaLlm } from '../../src/ai/ollama.js';
import { createOpenAiLlm } from '../../src/ai/openai.js';
import { EXTRACT_PROMPT, normaliseQuote } from '../../src/tiers/memory/extract.js';
import { CATEGORIES, Category } from '../../src/tiers/memory/memory.schemas.js';
import { startFakeOllama, startFakeOpenAi, type FakeAi } from '../helpers/fake-ai.js';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';

const TEXT = 'I love jazz, and I walk the dog at 7 every morning. My wife Anna is allergic to cats.';
const answer = (facts: unknown[]) => () => JSON.stringify({ facts });
const rows = (h: TestHub) => (h.db.prepare('SELECT count(*) AS n FROM memories').get() as { n: number }).n;

let hub: TestHub | undefined;
let fake: FakeAi | undefined;
afterEach(async () => {
  await hub?.close();
  await fake?.close();
  hub = fake = undefined;
});

describe('extract_and_remember', () => {
  it('answers 503 without an LLM and stores nothing', async () => {
    hub = await buildTestHub();
    const r = await post(hub, '/extract_and_remember', { text: 'I love jazz.', entity_name: 'Brian' });
    expect(r.status).toBe(503);
    expect(r.body.error).toBe('unavailable');
  });

  it('stores quoted facts at trust 3 through remember (Ollama wire API)', async () => {
    fake = await startFakeOllama({
      chat: answer([
        { entity_name: 'Brian', fact: 'Brian loves jazz', category: 'preference', quote: 'I love jazz' },
        {
          fact: 'Brian walks the dog at 7 every morning',
          category: 'routine',
          quote: '“I walk  the DOG at 7 every morning.”',
        },
        {
          entity_name: 'Anna',
          fact: 'Anna is allergic to cats',
          category: 'general',
          quote: 'Anna is allergic to cats',
        },
      ]),
    });
    hub = await buildTestHub({ llm: createOllamaLlm({ baseUrl: fake.url, model: 'llama3.2', timeoutMs: 2000 }) });
    const r = await post(hub, '/extract_and_remember', { text: TEXT, entity_name: 'Brian' });
    expect(r.status).toBe(200);
    expect(r.body.rejected).toEqual([]);
    expect(r.body.stored.map((s: any) => [s.entity_name, s.fact, s.action])).toEqual([
      ['Brian', 'Brian loves jazz', 'added'],
      ['Brian', 'Brian walks the dog at 7 every morning', 'added'],
      ['Anna', 'Anna is allergic to cats', 'added'],
    ]);
    for (const s of r.body.stored)
      expect(hub.services.memory.get(s.id)).toMatchObject({ source_trust: 3, source: 'llm_extraction' });
    const chat = fake.requests.find((q) => q.path === '/api/chat')!;
    expect(chat.body.format).toBe('json');
    expect(chat.body.messages[0].content).toBe(EXTRACT_PROMPT);
    // the same text again: remember reinforces instead of duplicating
    const again = await post(hub, '/extract_and_remember', { text: TEXT, entity_name: 'Brian' });
    expect(again.body.stored.map((s: any) => s.action)).toEqual(['reinforced', 'reinforced', 'reinforced']);
    expect(rows(hub)).toBe(3);
  });

  it('rejects invented facts, wrong quotes, unnamed entities, duplicates and bad categories, each with its reason (OpenAI wire API)', async () => {
    fake = await startFakeOpenAi({
      chat: answer([
        { entity_name: 'Brian', fact: 'Brian owns a red Tesla', category: 'general', quote: 'I own a red Tesla' },
        { entity_name: 'Brian', fact: 'Brian plays the cello', category: 'habit' },
        { entity_name: 'Brian', fact: 'Brian keeps the bedroom cold', category: 'preference', quote: 'I walk the dog' },
        {
          entity_name: 'Brian',
          fact: 'Brian walks the dog at 9 every morning',
          category: 'routine',
          quote: 'I walk the dog at 7 every morning',
        },
        { entity_name: 'Carol', fact: 'Carol loves jazz', category: 'preference', quote: 'I love jazz' },
        { entity_name: 'Brian', fact: 'Brian loves jazz', category: 'preference', quote: 'I love jazz' },
        { entity_name: 'brian', fact: 'Brian loves jazz.', category: 'preference', quote: 'love jazz' },
        {
          entity_name: 'Anna',
          fact: 'Anna is allergic to cats',
          category: 'health',
          quote: 'Anna is allergic to cats',
        },
        'not an object',
      ]),
    });
    hub = await buildTestHub({
      llm: createOpenAiLlm({ baseUrl: `${fake.url}/v1`, model: 'gpt-4o-mini', timeoutMs: 2000 }),
    });
    const r = await post(hub, '/extract_and_remember', { text: TEXT, entity_name: 'Brian' });
    expect(r.status).toBe(200);
    expect(r.body.stored.map((s: any) => s.fact)).toEqual(['Brian loves jazz']);
    expect(r.body.rejected.map((x: any) => [x.index, x.reason])).toEqual([
      [0, 'quote_not_in_text'],
      [1, 'no_quote'],
      [2, 'quote_does_not_support_fact'],
      [3, 'quote_does_not_support_fact'],
      [4, 'entity_not_in_text'],
      [6, 'duplicate'],
      [7, 'invalid'],
      [8, 'invalid'],
    ]);
    expect(r.body.rejected[6].message).toContain('category');
    expect(r.body.result).toContain('Rejected 8');
    expect(rows(hub)).toBe(1);
  });

  it('broken JSON and a timeout answer 503 and store nothing', async () => {
    fake = await startFakeOllama({ chat: () => '{"facts": [{"entity_name": "Brian", "fact": "Brian loves ja' });
    hub = await buildTestHub({ llm: createOllamaLlm({ baseUrl: fake.url, model: 'llama3.2', timeoutMs: 400 }) });
    const broken = await post(hub, '/extract_and_remember', { text: TEXT, entity_name: 'Brian' });
    expect(broken.status).toBe(503);
    expect(broken.body.message).toMatch(/expected JSON.*nothing was stored/);
    fake.options.chat = () => 'Sure! Here are the facts: Brian loves jazz.';
    expect((await post(hub, '/extract_and_remember', { text: TEXT })).status).toBe(503);
    fake.options.hang = true;
    const slow = await post(hub, '/extract_and_remember', { text: TEXT, entity_name: 'Brian' });
    expect(slow.status).toBe(503);
    expect(slow.body.error).toBe('unavailable');
    expect(rows(hub)).toBe(0);
  });

  it('asks for exactly the categories the schema accepts', () => {
    const inPrompt = /one of ((?:"\w+"(?:, )?)+)/.exec(EXTRACT_PROMPT)![1].match(/\w+/g);
    expect(inPrompt).toEqual([...CATEGORIES]);
    expect(Category.options).toEqual([...CATEGORIES]);
    expect(EXTRACT_PROMPT).toContain('Health facts (allergies, conditions, medication) use "general"');
    expect(CATEGORIES).not.toContain('health');
  });
});

describe('property: no stored fact lacks its quote in the text', () => {
  let h: TestHub;
  let llm: FakeAi;
  beforeAll(async () => {
    llm = await startFakeOllama({});
    h = await buildTestHub({ llm: createOllamaLlm({ baseUrl: llm.url, model: 'llama3.2', timeoutMs: 5000 }) });
  });
  afterAll(async () => {
    await h.close();
    await llm.close();
  });

  const WORDS = [
    'jazz',
    'coffee',
    'dog',
    'walks',
    'loves',
    'keeps',
    'bedroom',
    'cold',
    'at',
    '7',
    'every',
    'morning',
    'the',
    'garden',
    'tea',
    'Brian',
    'Anna',
    'kitchen',
  ];
  const NAMES = ['Brian', 'Anna', 'Carol', 'kitchen', 'Zed'];
  const proposal = (words: string[]) =>
    fc.record({
      entity_name: fc.constantFrom(...NAMES),
      // a real span of the text, or words the model made up
      quote: fc.oneof(
        fc.tuple(fc.nat(words.length), fc.integer({ min: 1, max: 6 })).map(([i, k]) => words.slice(i, i + k).join(' ')),
        fc
          .array(fc.constantFrom(...WORDS, 'Tesla', 'cello', '9'), { minLength: 1, maxLength: 5 })
          .map((w) => w.join(' ')),
        fc.constant(''),
      ),
      fact: fc.array(fc.constantFrom(...WORDS, 'Tesla', '9'), { minLength: 2, maxLength: 7 }).map((w) => w.join(' ')),
      category: fc.constantFrom(...CATEGORIES),
    });

  it('holds over random texts and a fake LLM that invents', async () => {
    let storedTotal = 0;
    let rejectedTotal = 0;
    await fc.assert(
      fc.asyncProperty(
        fc
          .array(fc.constantFrom(...WORDS), { minLength: 3, maxLength: 25 })
          .chain((words) => fc.tuple(fc.constant(words), fc.array(proposal(words), { maxLength: 6 }))),
        fc.option(fc.constantFrom('Brian', 'Anna'), { nil: undefined }),
        async ([words, facts], speaker) => {
          const text = words.join(' ');
          llm.options.chat = () => JSON.stringify({ facts });
          const before = rows(h);
          const r = await post(h, '/extract_and_remember', { text, entity_name: speaker });
          expect(r.status).toBe(200);
          const plain = text.toLowerCase().replace(/\s+/g, ' ');
          for (const s of r.body.stored) {
            expect(s.quote.trim().length).toBeGreaterThan(0);
            expect(plain).toContain(normaliseQuote(s.quote));
            const isSpeaker = speaker !== undefined && s.entity_name.toLowerCase() === speaker.toLowerCase();
            expect(isSpeaker || new RegExp(`(^| )${s.entity_name.toLowerCase()}( |$)`).test(plain)).toBe(true);
          }
          expect(r.body.stored.length + r.body.rejected.length).toBe(facts.length);
          storedTotal += r.body.stored.length;
          rejectedTotal += r.body.rejected.length;
          expect(rows(h) - before).toBe(r.body.stored.filter((s: any) => s.action !== 'reinforced').length);
        },
      ),
      { numRuns: 40, seed: 15 },
    );
    // the property was exercised both ways, not vacuously
    expect(storedTotal).toBeGreaterThan(0);
    expect(rejectedTotal).toBeGreaterThan(storedTotal);
  }, 120_000);
});
