/**
 * The doors benchmark's sensor: `POST /record` one after another from its own thread (a sensor is
 * another process in a home), so what the hub does on its event loop — a pattern run's share —
 * lands on the request's time once, not a second time on the client's own callbacks. Posts each
 * request's `[start, end]` (epoch ms, comparable across threads) until told to stop.
 */
import { parentPort, workerData } from 'node:worker_threads';

const now = () => performance.timeOrigin + performance.now();
let stopped = false;
parentPort!.once('message', () => (stopped = true));
const url = `${workerData as string}/record`;
while (!stopped) {
  const start = now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ entity_name: 'bench_doors', metric: 'temperature', value: 20 + Math.random() }),
  });
  await res.text();
  if (res.status !== 200) throw new Error(`/record answered ${res.status}`);
  parentPort!.postMessage([start, now()]);
}
parentPort!.close();
