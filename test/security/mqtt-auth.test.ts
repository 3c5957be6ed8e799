import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { mosquittoPub } from '../helpers/mosquitto.js';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
let url: string;

beforeAll(async () => {
  hub = await buildTestHub({
    config: {
      mqtt: {
        mode: 'embedded',
        port: 0,
        username: 'admin',
        password: 'admin-secret',
        users: [
          {
            username: 'sensors',
            password: 's3nsors',
            publish: ['zigbee2mqtt/#', 'hearth/record/#'],
            subscribe: ['hearth/events/#'],
          },
        ],
        max_msgs_per_sec: 200,
      },
    },
  });
  hub.clock.set(Date.now() / 1000);
  url = (await hub.start()).mqtt!;
});
afterAll(async () => {
  await hub?.close();
});

const connectError = (opts: mqtt.IClientOptions) =>
  new Promise<string>((resolve) => {
    const c = mqtt.connect(url, { reconnectPeriod: 0, ...opts });
    c.once('connect', () => (c.end(), resolve('connected')));
    c.once('error', (e) => (c.end(), resolve(e.message)));
  });

describe('embedded broker accounts and ACL', () => {
  it('refuses a wrong password, an unknown user and anonymous clients', async () => {
    expect(await connectError({ username: 'sensors', password: 'wrong' })).toMatch(
      /Bad username or password|Not authorized/i,
    );
    expect(await connectError({ username: 'nobody', password: 'x' })).toMatch(
      /Bad username or password|Not authorized/i,
    );
    expect(await connectError({})).toMatch(/Bad username or password|Not authorized/i);
    const port = new URL(url).port;
    const err = await mosquittoPub([
      '-h',
      '127.0.0.1',
      '-p',
      port,
      '-u',
      'sensors',
      '-P',
      'bad',
      '-t',
      'zigbee2mqtt/x',
      '-m',
      '{"t":1}',
      '-q',
      '1',
    ]).catch((e) => e);
    expect(err.code).not.toBe(0);
  });

  it('lets a sensor account publish readings but not outside its ACL or to hearth/events', async () => {
    const c = await mqtt.connectAsync(url, { username: 'sensors', password: 's3nsors', reconnectPeriod: 0 });
    await c.publishAsync('zigbee2mqtt/acl_sensor', '{"temperature":20}', { qos: 1 });
    const q = await post(hub, '/query_stream', { entity_name: 'acl_sensor', metric: 'temperature' });
    expect(q.body.points).toHaveLength(1);
    // Subscribing outside its ACL is refused with SUBACK 0x80, not a disconnect.
    await expect(c.subscribeAsync('tele/#', { qos: 0 })).rejects.toThrow(/Subscribe error/);
    expect(c.connected).toBe(true);
    const closed = new Promise((r) => c.once('close', r));
    c.publish('tele/plug/SENSOR', '{"ENERGY":{"Power":5}}', { qos: 1 });
    await closed;
    expect((await post(hub, '/query_stream', { entity_name: 'plug', metric: 'energy.power' })).status).toBe(404);

    const admin = await mqtt.connectAsync(url, { username: 'admin', password: 'admin-secret', reconnectPeriod: 0 });
    const kicked = new Promise((r) => admin.once('close', r));
    admin.publish('hearth/events/memory_added', '{"forged":true}', { qos: 1 });
    await kicked;
  });

  it('slows a client over max_msgs_per_sec instead of dropping its messages', async () => {
    const c = await mqtt.connectAsync(url, { username: 'sensors', password: 's3nsors', reconnectPeriod: 0 });
    const health = async () => (await hub.app.inject({ url: '/health' })).json().mqtt;
    const before: number = (await health()).throttled;
    await Promise.all(
      Array.from({ length: 400 }, (_, i) => c.publishAsync('hearth/record/throttle/seq', String(i), { qos: 1 })),
    );
    // 400 messages sent at once against a bucket of 200 at 200/s: the ones past the bucket were held
    // back (counted, not timed: a busy machine only makes the run longer), and every one was stored.
    const total: number = (await health()).throttled;
    const held = total - before;
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(200);
    const metrics = (await hub.app.inject({ url: '/metrics' })).body;
    expect(metrics).toMatch(new RegExp(`^hearth_mqtt_throttled_total ${total}$`, 'm'));
    const q = await post(hub, '/query_stream', { entity_name: 'throttle', metric: 'seq', limit: 1000 });
    expect(q.body.points).toHaveLength(400);
    await c.endAsync();
  });
});
