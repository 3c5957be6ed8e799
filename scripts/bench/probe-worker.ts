/**
 * Latency probes for the scale benchmark, in a worker thread so a stalled hub event loop cannot
 * stall the probe's own clock: `GET /health` and a QoS 1 MQTT publish (time to PUBACK), one after
 * another, until the parent posts `'stop'`; then posts `{ health: number[], puback: number[] }` (ms).
 */
import { parentPort, workerData } from 'node:worker_threads';
import mqtt from 'mqtt';

const { http, mqttUrl } = workerData as { http: string; mqttUrl: string };
let stop = false;
parentPort!.on('message', (m) => m === 'stop' && (stop = true));
const client = await mqtt.connectAsync(mqttUrl, { clientId: `bench-probe-${process.pid}`, reconnectPeriod: 0 });
const health: number[] = [];
const puback: number[] = [];
parentPort!.postMessage({ ready: true });
let k = 0;
while (!stop) {
  let t0 = performance.now();
  await fetch(`${http}/health`).then((r) => r.arrayBuffer());
  health.push(performance.now() - t0);
  t0 = performance.now();
  await client.publishAsync('hearth/record/bench_probe/temperature', String(20 + (k++ % 10)), { qos: 1 });
  puback.push(performance.now() - t0);
  await new Promise((r) => setTimeout(r, 10));
}
await client.endAsync();
parentPort!.postMessage({ health, puback });
