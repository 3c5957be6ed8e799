/**
 * The timings the test suite used to assert (issue #36: no stopwatch in the unit, integration or e2e
 * tiers), measured here against a baseline from the same run: the work the tests do, each beside the
 * cheapest thing that does a part of it. `target` is the bound the test held; on a shared machine read
 * the ratio. The in-process rows are here; the timeouts, doors and processes in stopwatch-io.ts.
 *
 *   test/ai/local-embedder.test.ts   embeds a 100-character fact in well under 0.1 ms; word vectors load < 1 s
 *   test/ai/wordnet.test.ts          a warm query expansion < 2 ms of CPU
 *   test/mqtt/mappings/hostile.test.ts  slowest mapping call < 250 ms; a 256 KiB refusal < 50 ms;
 *                                    2,000 line-protocol batches < 10 s
 */
import { readFileSync } from 'node:fs';
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import { prepareQuery } from '../../src/ai/wordnet-coverage.js';
import { createWordNet } from '../../src/ai/wordnet.js';
import { parseWordVectors, wordVectorsPath } from '../../src/ai/word-vectors.js';
import { createMappingSet } from '../../src/mqtt/mappings/index.js';
import type { MappingContext } from '../../src/mqtt/mappings/types.js';
import { parseLineProtocol } from '../../src/tiers/timeseries/line-protocol.js';
import { benchStopwatchIo } from './stopwatch-io.js';
import { prng, type BenchOptions, type BenchRow } from './common.js';
import { row } from './stopwatch-row.js';

/** The least time `f` takes over `rounds` runs, in ms (the least: what the code costs, not the machine's mood). */
function least(rounds: number, f: () => void): number {
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    f();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/** CPU ms (user + system) of `f`. */
function cpu(f: () => void): number {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

function embedderRows(quick: boolean): BenchRow[] {
  const fact = 'Brian keeps the bedroom at 68 degrees at night and likes the ceiling fan on while he sleeps';
  const e = createLocalEmbedder();
  const n = quick ? 5_000 : 20_000;
  const facts = Array.from({ length: 100 }, (_, i) => fact + i);
  for (let i = 0; i < 1000; i++) e.embedSync(facts[i % 100]); // warm up JIT and stem cache
  const embed = least(3, () => {
    for (let i = 0; i < n; i++) e.embedSync(facts[i % 100]);
  });
  const split = least(3, () => {
    for (let i = 0; i < n; i++) facts[i % 100].toLowerCase().split(/[^a-z0-9]+/);
  });
  const buf = readFileSync(wordVectorsPath());
  const parse = least(3, () => parseWordVectors(buf));
  const read = least(3, () => readFileSync(wordVectorsPath()));
  const wn = createWordNet();
  const qs = [
    'where are the spare batteries kept',
    'what does Anna eat for breakfast',
    'when do the bins go out',
    'who is the kids dentist',
  ];
  for (const q of qs) prepareQuery(wn, q);
  const rounds = quick ? 10 : 40;
  const per = rounds * qs.length;
  const withWn = cpu(() => {
    for (let i = 0; i < rounds; i++) for (const q of qs) prepareQuery(wn, q);
  });
  const without = cpu(() => {
    for (let i = 0; i < rounds; i++) for (const q of qs) prepareQuery(undefined, q);
  });
  return [
    row(
      'local embedder: one 100-character fact, amortised',
      embed / n,
      { what: 'lower-case and split the same text', value: split / n },
      0.1,
      'local-embedder.test.ts held < 0.1 ms',
    ),
    row(
      'shipped word vectors: parse (60,000 × 100)',
      parse,
      { what: 'read the file', value: read },
      1000,
      'local-embedder.test.ts held < 1000 ms',
    ),
    row(
      'WordNet query expansion, warm, CPU per query',
      withWn / per,
      { what: 'the same query prepared without WordNet', value: Math.max(without / per, 1e-3) },
      2,
      'wordnet.test.ts held < 2 ms',
    ),
  ];
}

/** The heavy end of hostile.test.ts's corpus: deep nesting, 256 KiB bodies, wide objects, long strings. */
function hostilePayloads(): Buffer[] {
  const wide = `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
  return [
    '['.repeat(10_000),
    '['.repeat(10_000) + ']'.repeat(10_000),
    '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000),
    '{"value":' + '{"a":'.repeat(30) + '1' + '}'.repeat(31),
    wide.slice(0, 256 * 1024 - 1),
    `{"value":"${'x'.repeat(256 * 1024 - 20)}"}`,
    `[${Array.from({ length: 40_000 }, (_, i) => i % 7).join(',')}]`,
    `{"Time":"2026-11-30T18:10:00","ENERGY":{${Array.from({ length: 5_000 }, (_, i) => `"P${i}":[${i},${i}]`).join(',')}}}`,
    '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}',
  ].map((s) => Buffer.from(s));
}

const TOPICS: Record<string, string[]> = {
  owntracks: ['owntracks/anna/phone', 'owntracks/anna/phone/event'],
  native: ['hearth/record/a/b', 'hearth/remember/a', 'hearth/locate/a'],
  discovery: ['homeassistant/sensor/x/config', 'homeassistant/device/x/config'],
  statestream: ['homeassistant/sensor/x/state', 'homeassistant/sensor/x/unit_of_measurement'],
  zigbee2mqtt: ['zigbee2mqtt/lamp', 'zigbee2mqtt/a/temperature'],
  tasmota: ['tele/pow/SENSOR', 'tele/pow/STATE'],
};

function mappingRows(quick: boolean): BenchRow[] {
  const ctx: MappingContext = { timeZone: 'Europe/Berlin', units: { get: () => undefined } };
  const set = createMappingSet();
  const payloads = hostilePayloads();
  let slowest = 0;
  let slowestJson = 0;
  const reps = quick ? 2 : 5;
  for (const p of payloads) {
    const text = p.toString();
    slowestJson = Math.max(
      slowestJson,
      least(reps, () => {
        try {
          JSON.parse(text);
        } catch {}
      }),
    );
    for (const m of set.mappings)
      for (const topic of TOPICS[m.name] ?? ['custom/dev/a/b'])
        slowest = Math.max(
          slowest,
          least(reps, () => {
            try {
              m.parse(topic, p, ctx);
            } catch {}
          }),
        );
  }
  const blob = Buffer.from(`{"value":"${'x'.repeat(256 * 1024)}"}`);
  let refuse = 0;
  for (const m of set.mappings)
    refuse = Math.max(
      refuse,
      least(reps, () => {
        try {
          m.parse((TOPICS[m.name] ?? ['custom/dev/a/b'])[0], blob, ctx);
        } catch {}
      }),
    );
  const blobText = blob.toString();
  const parseBlob = least(reps, () => JSON.parse(blobText));
  // 2,000 batches of 1–20 mangled lines, as the test sends.
  const r = prng(7);
  const seeds = [
    'cpu,cpu=cpu-total,host=nas usage_idle=97.5,usage_user=1.2 1796058600000000000',
    '°C,domain=sensor,entity_id=t,friendly_name=T\\ x value=21.5,state="on",x_str="y" 1796058600000000000',
    'weather\\ station,location=back\\ yard temp=21.5,note="said \\"hi\\"" 1',
  ];
  const batches = Array.from({ length: quick ? 500 : 2000 }, () =>
    Array.from({ length: 1 + r.int(0, 19) }, () => {
      const s = r.pick(seeds).split('');
      for (let k = r.int(0, 7); k >= 0; k--)
        s[r.int(0, s.length - 1)] = r.pick([',', '=', ' ', '"', '\\', '#', 'i', 'u', '\n', '\u0000', '9', '-']);
      return s.join('');
    }).join('\n'),
  );
  const lines = least(reps, () => {
    for (const b of batches) parseLineProtocol(b, 'ns', 1796058600);
  });
  const split = least(reps, () => {
    for (const b of batches) for (const l of b.split('\n')) l.split(/[ ,=]/);
  });
  return [
    row(
      'MQTT mappings: slowest call on the heavy hostile payloads (every mapping)',
      slowest,
      { what: 'slowest JSON.parse of the same payloads', value: slowestJson },
      250,
      'hostile.test.ts held < 250 ms per call',
    ),
    row(
      'MQTT mappings: refuse a 256 KiB + 1 payload (slowest mapping)',
      refuse,
      { what: 'JSON.parse of it', value: parseBlob },
      50,
      'hostile.test.ts held < 50 ms: refused before parsing, so the ratio stays well under 1',
    ),
    row(
      `line protocol: ${batches.length} mangled batches of 1–20 lines`,
      lines,
      { what: 'split the same lines on , = and space', value: split },
      quick ? 2_500 : 10_000,
      'hostile.test.ts held < 10 s for 2,000',
    ),
  ];
}

/** `npm run bench -- --only stopwatch`. */
export async function benchStopwatch(opts: BenchOptions): Promise<BenchRow[]> {
  opts.log('stopwatch: embedder, word vectors, WordNet');
  const rows = embedderRows(opts.quick);
  opts.log('stopwatch: MQTT mappings and line protocol on hostile input');
  rows.push(...mappingRows(opts.quick));
  rows.push(...(await benchStopwatchIo(opts)));
  return rows;
}
