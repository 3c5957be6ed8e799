import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import type { Embedder } from '../../src/ai/types.js';
import { createUseLiteEmbedder, type UseLiteEmbedder } from '../../src/ai/use-lite.js';
import { RecallInput, RememberInput } from '../../src/tiers/memory/memory.schemas.js';
import { buildTestHub, get, tempDir, type TestHub } from '../helpers/hub.js';
import { login, TOKEN } from '../http/admin/helpers.js';
import { internals } from '../../src/internals.js';

// One model load for the file.
let neural: UseLiteEmbedder;
beforeAll(async () => {
  neural = createUseLiteEmbedder();
  expect(await neural.ready).toBe(true);
});
afterAll(() => neural.close());

let hub: TestHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

const n = (h: TestHub, sql: string) => (h.db.prepare(sql).get() as { n: number }).n;
const FACTS = [
  'Maya is a paediatric nurse at the city hospital',
  'Daniel is lactose intolerant and drinks oat milk',
  'Ruth plays the guitar in the lounge most evenings',
  ...Array.from({ length: 150 }, (_, i) => `The sensor number ${i} in the shed reports every ten minutes`),
];

async function localStore(dir: string) {
  const h = await buildTestHub({ dir, embedder: createLocalEmbedder() });
  for (const fact of FACTS) await h.services.memory.remember(RememberInput.parse({ entity_name: 'house', fact }));
  await h.stop();
}

describe('switching the embedder on an existing store', () => {
  it('rebuilds beside the old index, keeps answering meanwhile, swaps on success and loses nothing', async () => {
    const dir = tempDir();
    await localStore(dir);
    hub = await buildTestHub({ dir, embedder: neural });
    const { memory, reembed } = hub.services;
    const { vectors } = internals(hub.services);
    expect(vectors.state).toBe('stale');
    const before = n(hub, 'SELECT count(*) n FROM memories');

    const progress: number[] = [];
    const run = reembed.run((s) => progress.push(s.done));
    // While the rebuild runs: recall answers (by keyword), writes are kept, /health shows progress.
    const during = await memory.recall(RecallInput.parse({ query: 'who plays the guitar' }));
    expect(during.mode_used).toBe('keyword');
    expect(during.results[0].fact).toMatch(/guitar/);
    await memory.remember(
      RememberInput.parse({ entity_name: 'house', fact: 'The boiler was serviced by Rashid in April' }),
    );
    const health = await get(hub, '/health');
    expect(health.body.embedder.reembed).toMatchObject({
      state: 'running',
      to: 'universal-sentence-encoder-lite:512',
      from: 'hearth-local-v2:384',
    });

    const done = await run;
    expect(done).toMatchObject({ state: 'done', done: before + 1 });
    expect(progress.length).toBeGreaterThan(1);
    expect(vectors.state).toBe('ready');
    expect(hub.db.prepare('SELECT model, dim FROM embed_meta').get()).toEqual({
      model: 'universal-sentence-encoder-lite',
      dim: 512,
    });
    expect(n(hub, 'SELECT count(*) n FROM memories')).toBe(before + 1);
    expect(n(hub, "SELECT count(*) n FROM memories WHERE embed_state = 'pending'")).toBe(0);
    const live = (hub.db.prepare('SELECT live FROM vector_index').get() as { live: string }).live;
    expect(n(hub, `SELECT count(*) n FROM ${live}`)).toBe(before + 1);
    // The old index is gone, not mixed in.
    expect(
      hub.db.prepare("SELECT name FROM sqlite_master WHERE name IN ('memory_vectors', 'memory_vectors_b')").all(),
    ).toEqual([{ name: live }]);

    // After the swap: meaning, not words — "job" and "dairy" are in no stored fact.
    const job = await memory.recall(RecallInput.parse({ query: "what is Maya's job", mode: 'vector' }));
    expect(job.mode_used).toBe('vector');
    expect(job.results[0].fact).toMatch(/nurse/);
    const dairy = await memory.recall(RecallInput.parse({ query: 'which dairy can Daniel not have', mode: 'vector' }));
    // A paraphrase: found first, in whichever tier the confidence model puts it.
    expect([...dairy.results, ...dairy.possible][0].fact).toMatch(/lactose/);
  }, 60_000);

  it('a failure mid-way keeps the old index; the next run resumes from its cursor and swaps', async () => {
    const dir = tempDir();
    await localStore(dir);
    const base = createLocalEmbedder({ dim: 128 });
    let calls = 0;
    let failAt = 2;
    const flaky: Embedder = {
      ...base,
      model: 'flaky-test-model',
      fingerprint: 'flaky-test-model:128',
      embed: async (texts) => {
        if (++calls === failAt) throw new Error('backend went away');
        return base.embed(texts);
      },
    };
    hub = await buildTestHub({ dir, embedder: flaky, config: { http: { token: TOKEN } } });
    const { reembed } = hub.services;
    const { vectors } = internals(hub.services);
    const failed = await reembed.run();
    expect(failed).toMatchObject({ state: 'failed', error: 'backend went away', done: 64 });
    expect(vectors.state).toBe('stale');
    // Where it stopped is said wherever the stale index is (warnings, /health, doctor, the admin page).
    const along =
      'a rebuild for it beside them is 64 of 153 memories along (`hearth serve` and `hearth reembed` continue it)';
    expect(vectors.staleReason()).toContain(along);
    const { cookie } = await login(hub);
    const page = await hub.app.inject({ url: '/admin/', headers: { cookie } });
    expect(page.body).toContain(
      '<span class="bad">vectors stale</span>: stored vectors were made by hearth-local-v2:384 but the embedder is flaky-test-model:128;',
    );
    expect(page.body).toContain(along.replace(/`/g, '&#96;'));
    expect(n(hub, 'SELECT count(*) n FROM memory_vectors')).toBe(FACTS.length); // old index intact
    expect(hub.db.prepare('SELECT model FROM embed_meta').get()).toEqual({ model: 'hearth-local-v2' });

    failAt = -1;
    calls = 0;
    const ok = await reembed.run();
    expect(ok).toMatchObject({ state: 'done', done: FACTS.length });
    expect(calls).toBe(2); // resumed: 153 − 64 = 89 memories, two batches
    expect(vectors.state).toBe('ready');
    expect(n(hub, 'SELECT count(*) n FROM memory_vectors_b')).toBe(FACTS.length);
  });

  it('two processes on one store: both builds end done, and a process of the old model turns stale instead of failing', async () => {
    const dir = tempDir();
    await localStore(dir);
    // The old model's process (a `hearth mcp` started before the switch) and two of the new
    // (the service's background rebuild and a `hearth reembed` run beside it).
    const old = await buildTestHub({ dir, embedder: createLocalEmbedder() });
    const other = await buildTestHub({ dir, embedder: neural });
    hub = await buildTestHub({ dir, embedder: neural });
    try {
      expect(old.services.status.snapshot().vectors.state).toBe('ready');
      const oldRecall = await old.services.memory.recall(
        RecallInput.parse({ query: 'sensor number 7 in the shed', mode: 'vector' }),
      );
      expect(oldRecall.mode_used).toBe('vector'); // its code scan / float KNN is on the old table
      const [a, b] = await Promise.all([hub.services.reembed.run(), other.services.reembed.run()]);
      expect([a.state, b.state]).toEqual(['done', 'done']);
      for (const h of [hub, other]) {
        expect(h.services.status.snapshot().vectors.state).toBe('ready');
        const job = await h.services.memory.recall(RecallInput.parse({ query: "what is Maya's job", mode: 'vector' }));
        expect(job.results[0].fact).toMatch(/nurse/);
      }
      const live = (hub.db.prepare('SELECT live FROM vector_index').get() as { live: string }).live;
      expect(n(hub, `SELECT count(*) n FROM ${live}`)).toBe(FACTS.length);

      // The old model's process: no "no such table", keyword answers, its writes wait for a vector.
      expect(old.services.status.snapshot().vectors.state).toBe('stale');
      const during = await old.services.memory.recall(RecallInput.parse({ query: 'who plays the guitar' }));
      expect(during.mode_used).toBe('keyword');
      expect(during.results[0].fact).toMatch(/guitar/);
      const kept = await old.services.memory.remember(
        RememberInput.parse({ entity_name: 'house', fact: 'The boiler was serviced by Rashid in April' }),
      );
      expect(kept.action).toBe('added');
      expect(n(hub, "SELECT count(*) n FROM memories WHERE embed_state = 'pending'")).toBe(1);
      expect(await hub.services.memory.embedPending(16)).toMatchObject({ embedded: 1, remaining: 0 });
      expect(n(hub, `SELECT count(*) n FROM ${live}`)).toBe(FACTS.length + 1);
    } finally {
      await old.close();
      await other.close();
    }
  }, 60_000);
});
