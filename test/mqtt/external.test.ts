import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { buildTestHub, post, tempDir, type TestHub } from '../helpers/hub.js';
import { startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';

let broker: Mosquitto;
const dir = tempDir();
const open = async () => {
  const hub = await buildTestHub({ dir, config: { mqtt: { mode: 'external', url: broker.url } } });
  hub.clock.set(Date.now() / 1000);
  await hub.start();
  return hub;
};
const publish = async (topic: string, payload: string, opts: mqtt.IClientPublishOptions) => {
  const c = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0 });
  await c.publishAsync(topic, payload, opts);
  await c.endAsync();
};
async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}
const points = (hub: TestHub, entity_name: string, metric: string) =>
  post(hub, '/query_stream', { entity_name, metric }).then((r) => (r.body.points ?? []) as { value: unknown }[]);

beforeAll(async () => {
  broker = await startMosquitto();
});
afterAll(async () => {
  await broker?.stop();
});

describe('external broker (Mosquitto, or the stand-in without it)', () => {
  it('ingests what third-party clients publish to Mosquitto, and retained replays are not duplicated', async () => {
    let hub = await open();
    expect(hub.mqtt!.connected()).toBe(true);
    await publish('zigbee2mqtt/office_sensor', JSON.stringify({ temperature: 22.25, occupancy: true }), {
      qos: 1,
      retain: true,
    });
    const got = await eventually(
      () => points(hub, 'office_sensor', 'temperature'),
      (p) => p.length > 0,
    );
    expect(got.map((p) => p.value)).toEqual([22.25]);
    expect((await points(hub, 'office_sensor', 'occupancy'))[0].value).toBe('true');
    await hub.stop();

    // Mosquitto restarts (no persistence): Hearth subscribes anew and the retained message is replayed.
    const port = broker.port;
    await broker.stop();
    broker = await startMosquitto(port);
    await publish('zigbee2mqtt/office_sensor', JSON.stringify({ temperature: 22.25, occupancy: true }), {
      qos: 1,
      retain: true,
    });
    hub = await open();
    await publish('zigbee2mqtt/office_sensor', JSON.stringify({ temperature: 23 }), { qos: 1 });
    const after = await eventually(
      () => points(hub, 'office_sensor', 'temperature'),
      (p) => p.length >= 2,
    );
    expect(after.map((p) => p.value)).toEqual([22.25, 23]);
    // The replay did arrive, and was recognised as already stored.
    expect(hub.services.timeseries.writer.stats.skipped).toBe(2); // temperature and occupancy
    await hub.close();
  });

  it('publishes events through the external broker', async () => {
    const hub = await open();
    const sub = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0 });
    await sub.subscribeAsync('hearth/events/#');
    const got = new Promise<string>((resolve) => sub.on('message', (t) => resolve(t)));
    await post(hub, '/remember', { entity_name: 'Ruth', fact: 'Ruth visits on Sundays' });
    expect(await got).toBe('hearth/events/memory_added');
    await sub.endAsync();
    await hub.stop();
  });
});
