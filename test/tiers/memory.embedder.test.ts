import { afterEach, describe, expect, it } from 'vitest';
import { createOllamaEmbedder } from '../../src/ai/ollama.js';
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import { RecallInput, RememberInput } from '../../src/tiers/memory/memory.schemas.js';
import { startFakeOllama, type FakeAi } from '../helpers/fake-ai.js';
import { buildTestHub, tempDir, type TestHub } from '../helpers/hub.js';
import { internals } from '../../src/internals.js';

let hub: TestHub | undefined;
let fake: FakeAi | undefined;
afterEach(async () => {
  await hub?.close();
  await fake?.close();
  hub = fake = undefined;
});

const count = (h: TestHub, sql: string) => (h.db.prepare(sql).get() as { n: number }).n;

describe('memory with a remote embedder', () => {
  it('never loses a write when the embedder fails, falls back to keyword, and fills vectors later', async () => {
    fake = await startFakeOllama({ dim: 32 });
    const embedder = createOllamaEmbedder({ baseUrl: fake.url, model: 'nomic-embed-text', dim: 32, timeoutMs: 2000 });
    hub = await buildTestHub({ embedder });
    const { memory } = hub.services;
    const ok = await memory.remember(
      RememberInput.parse({ entity_name: 'Brian', fact: 'Brian plays tennis on Saturdays' }),
    );
    expect(ok.warnings).toEqual([]);

    fake.options.fail = true;
    const down = await memory.remember(
      RememberInput.parse({ entity_name: 'Brian', fact: 'Brian is learning Portuguese' }),
    );
    expect(down.action).toBe('added');
    expect(down.warnings[0]).toMatch(/embedder ollama failed/);
    expect(count(hub, "SELECT count(*) n FROM memories WHERE embed_state = 'pending'")).toBe(1);

    const r = await memory.recall(RecallInput.parse({ query: 'is Brian learning Portuguese' }));
    expect(r.mode_used).toBe('keyword');
    expect(r.warnings.join(' ')).toMatch(/vector search unavailable/);
    expect(r.results[0].fact).toBe('Brian is learning Portuguese');

    fake.options.fail = false;
    expect(await memory.embedPending()).toEqual({ embedded: 1, remaining: 0 });
    expect(count(hub, 'SELECT count(*) n FROM memory_vectors')).toBe(2);
    const again = await memory.recall(RecallInput.parse({ query: 'Portuguese', mode: 'vector' }));
    expect(again.mode_used).toBe('vector');
  });

  it('detects a model change and never mixes vectors of two models', async () => {
    const dir = tempDir();
    hub = await buildTestHub({ dir, embedder: createLocalEmbedder() });
    await hub.services.memory.remember(RememberInput.parse({ entity_name: 'Anna', fact: 'Anna runs every morning' }));
    await hub.stop();

    fake = await startFakeOllama({ dim: 32 });
    const other = createOllamaEmbedder({ baseUrl: fake.url, model: 'mxbai-embed-large', dim: 32, timeoutMs: 2000 });
    hub = await buildTestHub({ dir, embedder: other });
    const { memory } = hub.services;
    const { vectors } = internals(hub.services);
    expect(vectors.state).toBe('stale');
    expect(hub.warnings.join(' ')).toMatch(/hearth-local-v2:384 .* mxbai-embed-large:32/);
    const w = await memory.remember(RememberInput.parse({ entity_name: 'Anna', fact: 'Anna swims on Thursdays' }));
    expect(w.warnings[0]).toMatch(/stored as pending/);
    expect(count(hub, 'SELECT count(*) n FROM memory_vectors')).toBe(1); // only the old model's vector
    const r = await memory.recall(RecallInput.parse({ query: 'swims', mode: 'vector' }));
    expect(r.mode_used).toBe('keyword');
    expect(r.results[0].fact).toBe('Anna swims on Thursdays');

    vectors.rebuild();
    expect(vectors.state).toBe('ready');
    expect(await memory.embedPending()).toEqual({ embedded: 2, remaining: 0 });
    expect(hub.db.prepare('SELECT model, dim FROM embed_meta').get()).toEqual({ model: 'mxbai-embed-large', dim: 32 });
    expect((await memory.recall(RecallInput.parse({ query: 'swims', mode: 'vector' }))).mode_used).toBe('vector');
  });
});
