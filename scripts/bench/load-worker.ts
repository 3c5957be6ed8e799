/**
 * The load generator of the ingest benchmark, run in a worker thread so that sensors (mqtt.js
 * publishers, HTTP clients) do not share the hub's event loop — in a home they are other
 * processes. The same worker drives Hearth and the raw baselines, so both see the same load.
 *
 * Protocol: the worker connects, posts `{ready}`, waits for `'go'`, sends everything, then posts
 * `{done, ms, sent, acked, errors}` (ms = from the first send to the last ack/response).
 */
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import mqtt from 'mqtt';

/** What to send. `total` messages are split evenly over `publishers` clients. */
export type LoadSpec =
  | { kind: 'mqtt'; url: string; qos: 0 | 1; publishers: number; total: number; inflight: number; topics: string[] }
  | { kind: 'http'; url: string; clients: number; batches: number; bodies: string[] };

/** What the worker reports when done. */
export interface LoadDone {
  done: true;
  ms: number;
  sent: number;
  acked: number;
  errors: string[];
}

async function mqttLoad(
  spec: Extract<LoadSpec, { kind: 'mqtt' }>,
  go: Promise<void>,
): Promise<Omit<LoadDone, 'done' | 'ms'>> {
  const clients = await Promise.all(
    Array.from({ length: spec.publishers }, (_, i) =>
      mqtt.connectAsync(spec.url, { clientId: `bench-pub-${i}-${process.pid}`, reconnectPeriod: 0, clean: true }),
    ),
  );
  // QoS 0 callbacks wait for 'drain' when the socket is full: many waiters, none leaked.
  for (const c of clients) c.stream.setMaxListeners(0);
  parentPort!.postMessage({ ready: true });
  await go;
  let acked = 0;
  const errors: string[] = [];
  const per = Math.ceil(spec.total / spec.publishers);
  await Promise.all(
    clients.map(async (c, ci) => {
      const n = Math.min(per, spec.total - ci * per);
      let inflight = 0;
      let wake: (() => void) | null = null;
      for (let i = 0; i < n; i++) {
        // Bounded in flight: mqtt.js would otherwise queue everything in memory at once.
        if (inflight >= spec.inflight) await new Promise<void>((r) => (wake = r));
        inflight++;
        const k = ci * per + i;
        const payload = (15 + (k % 997) / 50).toFixed(2);
        c.publish(spec.topics[k % spec.topics.length], payload, { qos: spec.qos }, (err) => {
          inflight--;
          if (err) errors.length < 5 && errors.push(err.message);
          else acked++;
          const w = wake;
          wake = null;
          w?.();
        });
      }
      while (inflight > 0) await new Promise<void>((r) => (wake = r));
    }),
  );
  await Promise.all(clients.map((c) => c.endAsync()));
  return { sent: spec.total, acked, errors };
}

async function httpLoad(
  spec: Extract<LoadSpec, { kind: 'http' }>,
  go: Promise<void>,
): Promise<Omit<LoadDone, 'done' | 'ms'>> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.clients });
  const url = new URL('/record/bulk', spec.url);
  const post = (body: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  // One request per client before the clock starts: sockets open and Fastify's routes are warm.
  await Promise.all(Array.from({ length: spec.clients }, () => post('{"readings":[]}')));
  parentPort!.postMessage({ ready: true });
  await go;
  let next = 0;
  let acked = 0;
  const errors: string[] = [];
  await Promise.all(
    Array.from({ length: spec.clients }, async () => {
      while (next < spec.batches) {
        const body = spec.bodies[next++ % spec.bodies.length];
        const res = await post(body);
        if (res.status === 200) acked += (JSON.parse(res.text) as { inserted: number }).inserted;
        else if (errors.length < 5) errors.push(`${res.status} ${res.text.slice(0, 200)}`);
      }
    }),
  );
  agent.destroy();
  return { sent: spec.batches, acked, errors };
}

if (parentPort) {
  const spec = workerData as LoadSpec;
  const go = new Promise<void>((resolve) => parentPort!.once('message', () => resolve()));
  const started = go.then(() => performance.now());
  const out = await (spec.kind === 'mqtt' ? mqttLoad(spec, go) : httpLoad(spec, go));
  parentPort.postMessage({ done: true, ms: performance.now() - (await started), ...out } satisfies LoadDone);
}
