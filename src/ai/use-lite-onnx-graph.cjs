/**
 * The ONNX graph of use-lite (use-lite-onnx.cjs), written in memory from the TF.js weights.
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

/** The prefix of most weight names in the TF.js manifest. */
const K = 'module_apply_default/Encoder_en/KonaTransformer/';

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

module.exports = { K, buildModel };
