/**
 * Part 2 — ingest. MQTT QoS 0 and QoS 1 through Hearth's embedded broker into SQLite (the whole hub
 * from `createHub`, scheduler on so rollups run as in production), against a raw aedes broker with
 * one mqtt.js subscriber receiving the same messages from the same publishers; then HTTP
 * `/record/bulk` (ingest-http.ts) and on-disk bytes per reading (ingest-bytes.ts).
 *
 * Each configuration runs the raw broker and Hearth back to back, so they share the machine's mood.
 * Hearth's time is from the first publish until the last reading is committed (ingest counters);
 * the baseline's until the subscriber has received the last message.
 */
import { createServer } from 'node:net';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { since, waitForCount, type BenchOptions, type BenchRow } from './common.js';
import { benchHub, startLoad, type BenchHub } from './harness.js';
import { benchBytesPerReading } from './ingest-bytes.js';
import { benchHttpBulk } from './ingest-http.js';

const TARGET: Record<0 | 1, number> = { 0: 30_000, 1: 15_000 };
const INFLIGHT = 1000;
const METRICS = ['temperature', 'humidity', 'power', 'illuminance'];

/** 100 series: 25 rooms × 4 metrics on Hearth's native topic. */
export const TOPICS = Array.from(
  { length: 100 },
  (_, i) => `hearth/record/bench_room_${Math.floor(i / 4)}/${METRICS[i % 4]}`,
);

/** A bare aedes broker on a free port: the pub→sub baseline. */
async function rawBroker(): Promise<{ url: string; close: () => Promise<void> }> {
  const broker = await Aedes.createBroker();
  const server = createServer(broker.handle as never);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `mqtt://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => (server.close(), broker.close(() => r()))),
  };
}

/** Messages/s from the publishers to one subscriber of the raw broker. */
async function rawPubSub(
  url: string,
  qos: 0 | 1,
  publishers: number,
  total: number,
): Promise<{ rate: number; received: number }> {
  const sub = await mqtt.connectAsync(url, { clientId: `bench-sub-${qos}-${publishers}`, reconnectPeriod: 0 });
  let received = 0;
  sub.on('message', () => void received++);
  await sub.subscribeAsync('hearth/record/#', { qos });
  const load = await startLoad({ kind: 'mqtt', url, qos, publishers, total, inflight: INFLIGHT, topics: TOPICS });
  const t0 = load.go();
  await waitForCount(() => received, total, load.done);
  const ms = since(t0);
  await load.done;
  await sub.endAsync();
  return { rate: (received / ms) * 1000, received };
}

/** Readings/s from the publishers until Hearth has committed every reading. */
async function hearthMqtt(h: BenchHub, qos: 0 | 1, publishers: number, total: number) {
  const stats = h.hub.services.timeseries.writer.stats;
  const before = stats.accepted;
  const load = await startLoad({
    kind: 'mqtt',
    url: h.urls.mqtt,
    qos,
    publishers,
    total,
    inflight: INFLIGHT,
    topics: TOPICS,
  });
  const t0 = load.go();
  await waitForCount(() => stats.accepted - before, total, load.done);
  const ms = since(t0);
  const done = await load.done;
  const committed = stats.accepted - before;
  return { rate: (committed / ms) * 1000, committed, acked: done.acked, errors: done.errors };
}

/** One publisher, QoS 0, against a hub with the default per-client throttle. */
async function defaultThrottle(opts: BenchOptions, total: number): Promise<BenchRow> {
  const d = await benchHub();
  try {
    const limit = d.hub.services.config.mqtt.max_msgs_per_sec;
    // The bucket starts full (a burst of `limit`), so send well past it to see the sustained rate.
    const r = await hearthMqtt(d, 0, 1, Math.max(total, 3 * limit));
    opts.log(
      `ingest: MQTT QoS 0 × 1 pub, default config (max_msgs_per_sec ${limit}): ${r.rate.toFixed(0)} readings/s (${r.committed} committed)`,
    );
    return {
      part: 'ingest',
      what: `MQTT QoS 0, 1 publisher, default config`,
      value: r.rate,
      unit: 'readings/s',
      note: `per-client throttle mqtt.max_msgs_per_sec = ${limit}`,
    };
  } finally {
    await d.close();
  }
}

/** Runs part 2 and returns its table rows. */
export async function benchIngest(opts: BenchOptions): Promise<BenchRow[]> {
  const total = opts.quick ? 20_000 : 200_000;
  const rows: BenchRow[] = [];
  // Capacity runs: the per-client throttle (mqtt.max_msgs_per_sec, default 5000) off, so the
  // numbers are the pipeline's, comparable with the unthrottled raw broker. One run below uses
  // the defaults to show what a single busy client (Zigbee2MQTT publishes as one) gets.
  const h = await benchHub({ max_msgs_per_sec: 0 });
  const raw = await rawBroker();
  opts.log(
    `ingest: hub mqtt ${h.urls.mqtt}, http ${h.urls.http}; raw aedes ${raw.url}; ${total} messages per run over ${TOPICS.length} series`,
  );
  try {
    for (const qos of [0, 1] as const) {
      for (const publishers of [1, 4]) {
        const base = await rawPubSub(raw.url, qos, publishers, total);
        const hearth = await hearthMqtt(h, qos, publishers, total);
        const lost = total - hearth.committed;
        opts.log(
          `ingest: MQTT QoS ${qos} × ${publishers} pub: Hearth ${hearth.rate.toFixed(0)} readings/s (${hearth.committed} committed, ${hearth.acked} acked by client), ` +
            `raw pub→sub ${base.rate.toFixed(0)} msgs/s (${base.received} received)${hearth.errors.length ? `; errors: ${hearth.errors.join('; ')}` : ''}`,
        );
        rows.push({
          part: 'ingest',
          what: `MQTT QoS ${qos}, ${publishers} publisher${publishers > 1 ? 's' : ''} → SQLite`,
          value: hearth.rate,
          unit: 'readings/s',
          baseline: { what: 'raw aedes pub→sub msgs/s', value: base.rate },
          ratio: hearth.rate / base.rate,
          target: `≥ ${TARGET[qos].toLocaleString('en-US')}/s`,
          met: hearth.rate >= TARGET[qos] && lost === 0,
          ...(lost !== 0 && { note: `${lost} readings not committed` }),
        });
      }
    }
    rows.push(...(await benchHttpBulk(h, opts)));
  } finally {
    await raw.close();
    await h.close();
  }
  rows.push(await defaultThrottle(opts, total / 4));
  rows.push(...(await benchBytesPerReading(opts)));
  return rows;
}
