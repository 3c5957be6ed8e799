/** Part `neural` (neural.ts): MQTT ingest into a hub running use-lite, alone and beside `remember` traffic. */
import type { UseLiteEmbedder } from '../../src/ai/use-lite.js';
import { parseConfig } from '../../src/config/load.js';
import { createHub } from '../../src/main.js';
import { RememberInput } from '../../src/tiers/memory/memory.schemas.js';
import { prng, since, tempDir, waitForCount, type BenchOptions, type BenchRow } from './common.js';
import { startLoad } from './harness.js';
import { TOPICS } from './ingest.js';
import { entities, nextFact } from './household.js';

/**
 * QoS 1 readings/s into a hub with use-lite, alone and while `remember` calls run (8 in flight).
 * One long load runs while the remember traffic is switched on and off every PHASE_MS, and the
 * readings accepted in each kind of phase (once it has settled) are counted: on this shared machine
 * a neighbour's burst moves a whole few-second window by 20 % or more, so alternating within one
 * run is what lets the two rates be compared (separate windows gave pair ratios from 0.53 to 0.94
 * for one setting).
 */
export async function ingestBesideRemember(neural: UseLiteEmbedder, opts: BenchOptions): Promise<BenchRow[]> {
  const total = opts.quick ? 60_000 : 400_000;
  const [PHASE_MS, SETTLE_MS] = [1500, 250];
  const tmp = tempDir('neural-hub');
  const config = parseConfig({
    data_dir: tmp.dir,
    mqtt: { mode: 'embedded', port: 0, max_msgs_per_sec: 0 },
    http: { port: 0 },
    timeseries: { timezone: 'UTC' },
  });
  const hub = await createHub({ config, ai: { embedder: neural, llm: null } });
  const urls = await hub.start();
  const stats = hub.services.timeseries.writer.stats;
  const load = async (n: number, during?: (t0: number) => () => void) => {
    const before = stats.accepted;
    const l = await startLoad({
      kind: 'mqtt',
      url: urls.mqtt!,
      qos: 1,
      publishers: 4,
      total: n,
      inflight: 1000,
      topics: TOPICS,
    });
    const t0 = l.go();
    const end = during?.(t0);
    await waitForCount(() => stats.accepted - before, n, l.done);
    end?.();
    await l.done;
  };
  try {
    await load(total / 10); // warm-up: JIT, statement caches, the broker's first clients
    const rng = prng(99);
    const ents = entities(prng(98));
    let on = false;
    let stop = false;
    let wake: () => void = () => {};
    let wakeUp = new Promise<void>((r) => (wake = r));
    const acc = { on: { ms: 0, n: 0 }, off: { ms: 0, n: 0 } };
    let remembered = 0;
    let calls = 0; // remember calls not yet answered
    const writer = async () => {
      while (!stop) {
        if (!on) {
          await wakeUp;
          continue;
        }
        calls++;
        await hub.services.memory.remember(RememberInput.parse(nextFact(rng, ents)));
        calls--;
        remembered++;
      }
    };
    const writers = Array.from({ length: 8 }, writer);
    const began = performance.now();
    await load(total, () => {
      // A phase counts from when it has settled to its end: remember calls take a moment to start,
      // and an "alone" phase starts only once the calls in flight at the switch have all been
      // answered (their embedding must not count as time alone). A phase that never settles is left out.
      let mark: { t: number; n: number } | null = null;
      const count = () => {
        if (!mark) return;
        const phase = on ? acc.on : acc.off;
        phase.ms += performance.now() - mark.t;
        phase.n += stats.accepted - mark.n;
        mark = null;
      };
      let settle: NodeJS.Timeout | undefined;
      const settled = () => {
        if (!on && calls > 0) settle = setTimeout(settled, 5);
        else mark = { t: performance.now(), n: stats.accepted };
      };
      settle = setTimeout(settled, SETTLE_MS);
      const timer = setInterval(() => {
        count();
        clearTimeout(settle);
        on = !on;
        if (on) wake();
        else wakeUp = new Promise<void>((r) => (wake = r));
        settle = setTimeout(settled, SETTLE_MS);
      }, PHASE_MS);
      return () => {
        clearInterval(timer);
        clearTimeout(settle);
        count(); // the last, partial phase
      };
    });
    stop = true;
    wake();
    await Promise.all(writers);
    const alone = (acc.off.n / acc.off.ms) * 1000;
    const beside = (acc.on.n / acc.on.ms) * 1000;
    const rememberRate = (remembered / (since(began) / 2)) * 1000; // per second of remember phases (half the time)
    opts.log(
      `neural: MQTT QoS 1 ingest alone ${alone.toFixed(0)}/s, beside remember ${beside.toFixed(0)}/s (${rememberRate.toFixed(0)} remember/s meanwhile)`,
    );
    return [
      {
        part: 'ingest',
        what: `MQTT QoS 1, 4 publishers, hub with use-lite, alone (${PHASE_MS / 1000} s phases)`,
        value: alone,
        unit: 'readings/s',
      },
      {
        part: 'ingest',
        what: 'the same in the phases between, with remember traffic (8 in flight)',
        value: beside,
        unit: 'readings/s',
        baseline: { what: 'alone', value: alone },
        ratio: beside / alone,
        target: '≥ 0.9 × alone',
        met: beside >= 0.9 * alone,
        note: `${rememberRate.toFixed(0)} remember/s meanwhile`,
      },
    ];
  } finally {
    await hub.stop();
    tmp.remove();
  }
}
