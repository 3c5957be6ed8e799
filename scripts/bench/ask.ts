/**
 * Part — ask (#34 item 8): `services.ask.ask` p95 on a home with 1 M readings (100 series, a minute
 * apart) and 5k memories (the recall bench's store, cached), against a plain `queryStream` of the same
 * window and series, measured in the same run. The first round is not measured: it loads the encoder
 * and WordNet once (the "excluding the encoder's first load"). --quick: 100k readings, 500
 * memories.
 */
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import { AskInput } from '../../src/tiers/ask/ask.schemas.js';
import { QueryStreamInput } from '../../src/tiers/timeseries/timeseries.schemas.js';
import type { scratchServices } from '../lib/eval-hub.js';
import { prng, since, summarize, type BenchOptions, type BenchRow } from './common.js';
import { fillReadings } from './readings-fill.js';
import { openGrowingStore } from './recall-store.js';

const QUESTIONS = [
  'how warm was bench room 3 yesterday evening?',
  'what was the humidity in bench room 5 last night?',
  'how much power did bench room 2 use in the last hour?',
  'what was the temperature in bench room 9 at 11 pm?',
  'how humid was bench room 1 this morning?',
  'what was the coldest it got in bench room 12 today?',
  'how bright was bench room 7 between 2 and 4?',
  'was bench room 10 warmer than usual yesterday?',
];

export async function benchAsk(opts: BenchOptions): Promise<BenchRow[]> {
  const [readings, memories] = opts.quick ? [100_000, 500] : [1_000_000, 5000];
  const store = await openGrowingStore(createLocalEmbedder(), { cache: !opts.quick && !opts.fresh, log: opts.log });
  try {
    await store.growTo(memories);
    opts.log(`ask: ${memories} memories; writing ${readings} readings`);
    fillReadings(store as unknown as ReturnType<typeof scratchServices>, prng(34), readings);
    await store.services.timeseries.rollupAll();
    const s = store.services;
    const now = store.clock.now();
    const fact = `what is ${store.entities[0].name}'s favourite food?`;
    const ask = (question: string) => s.ask.ask(AskInput.parse({ question, now }));
    for (const q of [...QUESTIONS, fact]) await ask(q); // first round: encoder, WordNet, caches
    const rounds = opts.quick ? 3 : 10;
    const [asked, plain]: [number[], number[]] = [[], []];
    for (let r = 0; r < rounds; r++)
      for (const question of [...QUESTIONS, fact]) {
        let t0 = performance.now();
        const out = await ask(question);
        asked.push(since(t0));
        const { entity, metric, from, to } = out.answer;
        if (!entity || !metric) continue;
        t0 = performance.now();
        s.timeseries.queryStream(QueryStreamInput.parse({ entity_name: entity, metric, start_ts: from, end_ts: to }));
        plain.push(since(t0));
      }
    const a = summarize(asked);
    const q = summarize(plain);
    return [
      {
        part: 'ask',
        what: `ask p95, ${readings / 1000}k readings, ${memories} memories`,
        value: a.p95,
        unit: 'ms',
        baseline: { what: 'plain query_stream of the same window, p95', value: q.p95 },
        ratio: a.p95 / Math.max(q.p95, 1e-3),
        target: '< 50 ms',
        met: a.p95 < 50,
        note: `p50 ${a.p50.toFixed(1)} ms, n=${a.n}; query_stream p50 ${q.p50.toFixed(2)} ms, n=${q.n}`,
      },
    ];
  } finally {
    store.close();
  }
}
