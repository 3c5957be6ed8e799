/**
 * The use-lite encoder thread (started by use-lite.ts). Plain CommonJS, so it runs the same from src/
 * (vitest) and dist/ (node); the packages' absolute paths, the dimension and the sub-batch size come
 * in workerData. Messages in: `{ id, texts, query }`; out: `{ ready, tid, runtime, onnxError }` once,
 * `{ fatal }` when the model cannot load, then `{ id, out }` (unit vectors, row-major) or `{ id, error }`.
 */
const { parentPort, workerData } = require('node:worker_threads');

const { dim: DIM, subBatch: SUB_BATCH } = workerData;

// This thread's own scheduling priority goes down by workerData.nice (Linux: setpriority on a thread
// id moves that thread alone), so the hub's event loop wins the CPU whenever both want it.
let tid = 0;
try {
  tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()) || 0;
  const os = require('node:os');
  if (tid && workerData.nice > 0) os.setPriority(tid, Math.min(19, os.getPriority(tid) + workerData.nice));
} catch {}
(async () => {
  // ONNX Runtime when it is installed and loads (use-lite-onnx.cjs), else TF.js's WebAssembly backend.
  let model;
  let runtime = 'wasm';
  let onnxError;
  if (workerData.onnx) {
    try {
      const { createOnnxEncoder } = require(workerData.onnx.encoder);
      model = await createOnnxEncoder({ ort: require(workerData.onnx.runtime), modelDir: workerData.modelDir });
      runtime = 'onnx';
    } catch (e) {
      onnxError = String((e && e.message) || e);
      if (workerData.onnx.required) {
        parentPort.postMessage({ fatal: 'ONNX Runtime: ' + onnxError });
        return;
      }
    }
  }
  if (!model) {
    try {
      const { initModel } = require(workerData.embeddings);
      const { modelSource } = require(workerData.weights);
      model = await initModel(modelSource);
    } catch (e) {
      parentPort.postMessage({ fatal: String((e && e.message) || e) });
      return;
    }
  }
  parentPort.postMessage({ ready: true, tid, runtime, onnxError });
  // A batch is padded to its longest text, so it runs as sub-batches of similar length; `between`
  // runs before each one (a write batch lets waiting queries through there).
  async function embedAll(texts, between) {
    if (texts.length <= SUB_BATCH) return model.embed(texts);
    const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length);
    const rows = new Array(texts.length);
    for (let s = 0; s < order.length; s += SUB_BATCH) {
      if (between) await between();
      const part = order.slice(s, s + SUB_BATCH);
      const got = await model.embed(part.map((i) => texts[i]));
      part.forEach((i, j) => (rows[i] = got[j]));
    }
    return rows;
  }
  async function answer({ id, texts }, between) {
    try {
      const rows = await embedAll(texts, between);
      const out = new Float32Array(rows.length * DIM);
      rows.forEach((row, i) => {
        let n = 0;
        for (const x of row) n += x * x;
        const s = n > 0 ? 1 / Math.sqrt(n) : 0;
        for (let j = 0; j < DIM; j++) out[i * DIM + j] = row[j] * s;
      });
      parentPort.postMessage({ id, out }, [out.buffer]);
    } catch (e) {
      parentPort.postMessage({ id, error: String((e && e.message) || e) });
    }
  }
  // Queries are answered first, and between two sub-batches of a write batch: a question waits for
  // one sub-batch at most, not for a whole batch of memories being stored.
  const queries = [];
  const writes = [];
  let running = false;
  const letQueriesThrough = async () => {
    await new Promise((r) => setImmediate(r)); // take in the messages that arrived meanwhile
    while (queries.length) await answer(queries.shift());
  };
  async function run() {
    if (running) return;
    running = true;
    while (queries.length || writes.length) {
      if (queries.length) await answer(queries.shift());
      else await answer(writes.shift(), letQueriesThrough);
    }
    running = false;
  }
  parentPort.on('message', (m) => {
    (m.query ? queries : writes).push(m);
    void run();
  });
})();
