import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUseLiteEmbedder, EMBED_NICE, type UseLiteEmbedder } from '../../src/ai/use-lite.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

// Every behaviour on both runtimes: ONNX Runtime (the default where it is installed) and TF.js WebAssembly.
for (const runtime of ['onnx', 'wasm'] as const)
  describe(`use-lite embedder (Universal Sentence Encoder Lite, in a worker thread, on ${runtime})`, () => {
    // One model load per runtime (≈ 0.2–1 s, 150 MB).
    let e: UseLiteEmbedder;
    beforeAll(async () => {
      e = createUseLiteEmbedder({ runtime });
      expect(await e.ready, e.loadError).toBe(true);
      expect(e.runtime).toBe(runtime);
    });
    afterAll(() => e.close());

    it('is fingerprinted by model and dim', () => {
      expect(e).toMatchObject({
        provider: 'use-lite',
        model: 'universal-sentence-encoder-lite',
        dim: 512,
        fingerprint: 'universal-sentence-encoder-lite:512',
      });
    });

    it('returns one L2-normalised 512-d vector per text, in order, deterministically', async () => {
      const [a, b] = await e.embed(['Maya works as a nurse', 'The cat is called Tom']);
      expect(a.length).toBe(512);
      expect(dot(a, a)).toBeCloseTo(1, 4);
      expect(dot(b, b)).toBeCloseTo(1, 4);
      const [again] = await e.embed(['Maya works as a nurse']);
      expect(dot(a, again)).toBeCloseTo(1, 4);
      expect(await e.embed([])).toEqual([]);
    });

    it('puts a paraphrase nearer its fact than an unrelated fact', async () => {
      const [job, question, dairy, cat] = await e.embed([
        "Maya is a nurse at the children's hospital",
        "What's Maya's job?",
        'Daniel is lactose intolerant',
        'The cat is called Tom',
      ]);
      expect(dot(job, question)).toBeGreaterThan(dot(dairy, question) + 0.15);
      expect(dot(job, question)).toBeGreaterThan(dot(cat, question) + 0.15);
    });

    it("once loaded, sends a request before it first yields, so the caller's own work overlaps it", async () => {
      const pending = e.embed(['the query recall embeds while it runs its keyword half']);
      expect(e.inFlight).toBe(1); // already with the worker, synchronously
      const [v] = await pending;
      expect(dot(v, v)).toBeCloseTo(1, 4);
      expect(e.inFlight).toBe(0);
    });

    it('batches concurrent requests and answers each caller with its own vectors', async () => {
      const texts = Array.from({ length: 40 }, (_, i) => `reading number ${i} from the kitchen sensor`);
      const singles = await Promise.all(texts.map((t) => e.embed([t])));
      const together = await e.embed(texts);
      expect(singles).toHaveLength(40);
      singles.forEach(([v], i) => expect(dot(v, together[i])).toBeCloseTo(1, 3));
    });

    it("answers a batch of mixed lengths (run as sub-batches sorted by length) in the callers' order", async () => {
      const texts = Array.from(
        { length: 21 },
        (_, i) => `${'very '.repeat((i * 7) % 13)}long note ${i} about the garden shed`,
      );
      const together = await e.embed(texts);
      for (const [i, t] of texts.entries()) {
        const [alone] = await e.embed([t]);
        expect(dot(alone, together[i]), t).toBeCloseTo(1, 4);
      }
    });

    it('with workers: 2, starts a second thread only while batches wait, and stops it when idle', async () => {
      const pool = createUseLiteEmbedder({ workers: 2, idleMs: 300, runtime });
      try {
        expect(await pool.ready, pool.loadError).toBe(true);
        await pool.embed(['one text at a time']);
        expect(pool.workers).toBe(1); // nothing waited: no second model loaded
        const texts = Array.from(
          { length: 320 },
          (_, i) => `note ${i} about the boiler in the ${['hall', 'attic', 'garage'][i % 3]}`,
        );
        let most = 0;
        const watch = setInterval(() => (most = Math.max(most, pool.workers)), 10);
        const [mine, reference] = await Promise.all([pool.embed(texts), e.embed(texts)]);
        clearInterval(watch);
        expect(most).toBe(2);
        mine.forEach((v, i) => expect(dot(v, reference[i]), texts[i]).toBeCloseTo(1, 4));
        await expect.poll(() => pool.workers, { timeout: 15_000, interval: 50 }).toBe(1);
        expect(await pool.embed(['still answers'])).toHaveLength(1);
      } finally {
        await pool.close();
      }
      await expect(pool.embed(['x'])).rejects.toMatchObject({ code: 'unavailable' });
    }, 60_000);

    it('answers a query ahead of the writes, even the one already running (between two of its sub-batches)', async () => {
      const batch = (k: string) =>
        Array.from({ length: 32 }, (_, i) => `${k} ${i}: the recycling goes out on Tuesday evenings`);
      const order: string[] = [];
      const track = (label: string, p: Promise<Float32Array[]>) => p.then((v) => (order.push(label), v));
      const runs = [track('write 1', e.embed(batch('a'), { write: true }))]; // sent at once: the worker was idle
      runs.push(
        track('write 2', e.embed(batch('b'), { write: true })),
        track('write 3', e.embed(batch('c'), { write: true })),
      );
      const [q] = await track('query', e.embed(['when does the recycling go out']));
      await Promise.all(runs);
      expect(order).toEqual(['query', 'write 1', 'write 2', 'write 3']);
      const [alone] = await e.embed(['when does the recycling go out']);
      expect(dot(q, alone)).toBeCloseTo(1, 4);
    }, 60_000);

    it("embeds a full batch of the longest texts within the worker's heap limits", async () => {
      const long = Array.from(
        { length: 32 },
        (_, i) => `${i} ` + 'the boiler in the garage makes a knocking noise when the heating comes on '.repeat(40),
      );
      const out = await e.embed(long);
      expect(out).toHaveLength(32);
      out.forEach((v) => expect(dot(v, v)).toBeCloseTo(1, 4));
    }, 60_000);

    it('keeps the event loop free while it works', async () => {
      const texts = Array.from({ length: 64 }, (_, i) => `the hallway light number ${i} was switched on at dusk`);
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      await e.embed(texts);
      clearInterval(timer);
      // 64 texts take well over 50 ms of inference; the main thread kept ticking meanwhile.
      expect(ticks).toBeGreaterThan(3);
    });

    it.runIf(process.platform === 'linux')(
      "runs its thread EMBED_NICE below the hub's priority (only that thread), or at it with nice: 0",
      async () => {
        // Field 19 of /proc/<pid>/task/<tid>/stat is the thread's nice value (after the parenthesised name).
        const niceOf = (tid: number) =>
          Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
        const own = os.getPriority(0);
        const [tid] = e.threadIds;
        expect(tid).toBeGreaterThan(0);
        expect(tid).not.toBe(process.pid);
        expect(niceOf(tid)).toBe(Math.min(19, own + EMBED_NICE));
        expect(os.getPriority(0)).toBe(own);
        const plain = createUseLiteEmbedder({ nice: 0, runtime });
        try {
          expect(await plain.ready, plain.loadError).toBe(true);
          expect(niceOf(plain.threadIds[0])).toBe(own);
        } finally {
          await plain.close();
        }
      },
      60_000,
    );

    it('embeds an empty text as a space (it has no tokens), alone and among others', async () => {
      const [space] = await e.embed([' ']);
      const out = await e.embed(['', 'the porch light', '']);
      expect(out).toHaveLength(3);
      expect(dot(out[0], space)).toBeCloseTo(1, 5);
      expect(dot(out[2], space)).toBeCloseTo(1, 5);
      expect(dot(out[1], out[1])).toBeCloseTo(1, 5);
    });

    it('a closed embedder rejects with unavailable instead of hanging', async () => {
      const other = createUseLiteEmbedder({ runtime });
      await other.close();
      await expect(other.embed(['x'])).rejects.toMatchObject({ code: 'unavailable' });
    });

    it('loads and embeds with the network removed (weights ship inside the npm package)', () => {
      // A child in its own empty network namespace (no interfaces but a down loopback).
      // The compiled module (npm install / npm ci build dist/ through `prepare`).
      const script = `import('${new URL('../../dist/src/ai/use-lite.js', import.meta.url).pathname}').then(async ({ createUseLiteEmbedder }) => {
      const e = createUseLiteEmbedder({ runtime: '${runtime}' }); const [v] = await e.embed(['offline test']); console.log('dim', v.length, e.runtime); await e.close(); })`;
      // --input-type=module: a parent flag the worker must not inherit (its source is CommonJS).
      const r = spawnSync('unshare', ['-n', process.execPath, '--input-type=module', '-e', script], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.stderr).not.toMatch(/Error/);
      expect(r.stdout).toContain(`dim 512 ${runtime}`);
    }, 60_000);
  });
