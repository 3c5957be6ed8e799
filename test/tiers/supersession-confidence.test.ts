/**
 * A fact that replaces a confident one is confident too (candidates.ts `replaced`), with the real
 * use-lite encoder and the fitted confidence model: the newer wording may share fewer words with
 * the question ("goes to the pool on Sunday evenings" for "which day does Tomasz swim"), but it holds the
 * same slot the older fact answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUseLiteEmbedder, type UseLiteEmbedder } from '../../src/ai/use-lite.js';
import { RecallInput, RememberInput } from '../../src/tiers/memory/memory.schemas.js';
import { buildTestHub, type TestHub } from '../helpers/hub.js';

let neural: UseLiteEmbedder;
beforeAll(async () => {
  neural = createUseLiteEmbedder();
  expect(await neural.ready).toBe(true);
});
afterAll(() => neural?.close());

const OTHERS = [
  'Tomasz swims thirty lengths at the lido before work',
  "Tomasz's birthday is the 2nd of March",
  'Tomasz sleeps badly when the bedroom is too warm',
  'Tomasz meditates for ten minutes after lunch',
];
const OLD = 'Tomasz swims on Tuesday evenings';
const NEW = 'Tomasz now goes to the pool on Sunday evenings instead';
const QUERY = 'which day does Tomasz swim';

async function store(withOld: boolean) {
  const hub = await buildTestHub({ embedder: neural });
  const { memory } = hub.services;
  for (const fact of OTHERS) await memory.remember(RememberInput.parse({ entity_name: 'Tomasz', fact }));
  const base = { entity_name: 'Tomasz', category: 'routine', fact_key: 'swim_day' } as const;
  let old: number | undefined;
  if (withOld) {
    hub.clock.advance(3600);
    old = (await memory.remember(RememberInput.parse({ ...base, fact: OLD }))).id;
  }
  hub.clock.advance(3600);
  const neu = await memory.remember(RememberInput.parse({ ...base, fact: NEW }));
  expect(neu.action).toBe(withOld ? 'superseded' : 'added');
  return { hub, memory, old, neu: neu.id };
}

describe('supersession and the confident tier', () => {
  let hubs: TestHub[] = [];
  afterAll(async () => {
    for (const h of hubs) await h.close();
    hubs = [];
  });

  it('the newer fact is confident where the fact it replaced was, and the replaced one is in neither tier', async () => {
    const before = await store(false);
    const after = await store(true);
    hubs.push(before.hub, after.hub);
    // On its own words the newer fact is only a possible answer...
    const alone = await before.memory.recall(RecallInput.parse({ query: QUERY, entity_name: 'Tomasz' }));
    expect(alone.results.map((r) => r.id)).not.toContain(before.neu);
    expect(alone.possible.map((r) => r.id)).toContain(before.neu);
    // ...but once it has replaced "Tomasz swims on Tuesday evenings", the question is about its slot.
    const r = await after.memory.recall(RecallInput.parse({ query: QUERY, entity_name: 'Tomasz' }));
    expect(r.results.map((x) => x.id)).toContain(after.neu);
    expect([...r.results, ...r.possible].map((x) => x.id)).not.toContain(after.old);
    // explain says where the confidence came from.
    const why = await after.memory.recall(RecallInput.parse({ query: QUERY, entity_name: 'Tomasz', explain: true }));
    expect(why.explain!.considered.find((x) => x.id === after.neu)).toMatchObject({
      tier: 'results',
      via_replaced: after.old,
    });
    // The replaced fact is still there for history, and a question it does not answer stays unanswered.
    const hist = await after.memory.recall(
      RecallInput.parse({ query: QUERY, entity_name: 'Tomasz', include_superseded: true }),
    );
    expect([...hist.results, ...hist.possible].map((x) => x.id)).toContain(after.old);
    const other = await after.memory.recall(
      RecallInput.parse({ query: 'what car does Tomasz drive', entity_name: 'Tomasz' }),
    );
    expect(other.results.map((x) => x.id)).not.toContain(after.neu);
  });
});
