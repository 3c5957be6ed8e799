import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { mosquittoPub } from '../helpers/mosquitto.js';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';
import { internals } from '../../src/internals.js';

let hub: TestHub;
let url: string;
let port: number;

async function connect(opts: mqtt.IClientOptions = {}): Promise<MqttClient> {
  const c = mqtt.connect(url, { reconnectPeriod: 0, ...opts });
  await new Promise<void>((resolve, reject) => {
    c.once('connect', () => resolve());
    c.once('error', reject);
  });
  return c;
}
const publish = (
  c: MqttClient,
  topic: string,
  payload: string | Buffer,
  opts: mqtt.IClientPublishOptions = { qos: 1 },
) => new Promise<void>((resolve, reject) => c.publish(topic, payload, opts, (e) => (e ? reject(e) : resolve())));
const points = async (entity_name: string, metric: string) =>
  (await post(hub, '/query_stream', { entity_name, metric })).body.points ?? [];

beforeAll(async () => {
  hub = await buildTestHub({
    config: { mqtt: { mode: 'embedded', port: 0 }, timeseries: { timezone: 'Europe/Berlin' } },
  });
  // Readings carry real arrival times; keep the test clock near them.
  hub.clock.set(Date.now() / 1000);
  const addr = await hub.start();
  url = addr.mqtt!;
  port = Number(new URL(url).port);
});
afterAll(async () => {
  await hub?.close();
});

describe('MQTT bridge on the embedded broker', () => {
  it('a QoS 1 reading is stored by the time PUBACK arrives', async () => {
    const c = await connect();
    await publish(c, 'hearth/record/bedroom/temperature', '21.5');
    await publish(c, 'hearth/record/Brian/presence', JSON.stringify({ value: 'home', ts: hub.clock.now() - 5 }));
    expect((await points('bedroom', 'temperature')).map((p: { value: number }) => p.value)).toEqual([21.5]);
    expect((await points('Brian', 'presence'))[0]).toMatchObject({ value: 'home', source: 'mqtt' });
    await publish(c, 'hearth/remember/Anna', 'Anna prefers the hallway light dimmed at night');
    const r = await post(hub, '/recall', { query: 'hallway light', entity_name: 'Anna' });
    expect(r.body.results).toHaveLength(1);
    c.end();
  });

  it('third-party clients: mosquitto_pub for Zigbee2MQTT, Tasmota and Statestream', async () => {
    const pub = (topic: string, message: string, extra: string[] = []) =>
      mosquittoPub(['-h', '127.0.0.1', '-p', String(port), '-q', '1', '-t', topic, '-m', message, ...extra]);
    await pub('zigbee2mqtt/bedroom_sensor', '{"temperature":21.5,"humidity":40,"battery":97,"linkquality":120}');
    expect((await points('bedroom_sensor', 'temperature'))[0]).toMatchObject({
      value: 21.5,
      unit: '°C',
      source: 'zigbee2mqtt',
    });
    expect((await points('bedroom_sensor', 'humidity'))[0].value).toBe(40);
    await pub(
      'tele/sonoff_pow/SENSOR',
      '{"Time":"2026-11-30T18:10:00","ENERGY":{"Total":1.2,"Power":45,"Voltage":230}}',
    );
    const power = await post(hub, '/query_stream', { entity_name: 'sonoff_pow', metric: 'energy.power', start_ts: 0 });
    expect(power.body.points[0]).toMatchObject({ value: 45, ts: Date.parse('2026-11-30T17:10:00Z') / 1000 });
    await pub('homeassistant/sensor/living_room_temperature/unit_of_measurement', '"°C"', ['-r']);
    await pub('homeassistant/sensor/living_room_temperature/state', '19.5');
    expect((await points('sensor.living_room_temperature', 'state'))[0]).toMatchObject({ value: 19.5, unit: '°C' });
    await pub('homeassistant/binary_sensor/front_door/state', 'off');
    expect((await points('binary_sensor.front_door', 'state'))[0].value).toBe('off');
  });

  it("an OwnTracks transition published with mosquitto_pub updates the person's location and presence", async () => {
    const msg = JSON.stringify({
      _type: 'transition',
      event: 'enter',
      desc: 'Home',
      tst: Math.round(hub.clock.now()),
      lat: 52.5,
      lon: 13.4,
      acc: 10,
      wtst: 1700000000,
      t: 'c',
    });
    await mosquittoPub(['-h', '127.0.0.1', '-p', String(port), '-q', '1', '-t', 'owntracks/anna/phone', '-m', msg]);
    const found = await post(hub, '/find', { query: 'where is anna?' });
    expect(found.body).toMatchObject({ found: true, container_name: 'Home' });
    expect((await points('anna', 'presence'))[0].value).toBe('home');
  });

  it('10,000 malformed payloads leave the bridge running and every valid reading stored', async () => {
    const c = await connect();
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const garbage = (i: number): Buffer => {
      switch (i % 5) {
        case 0:
          return Buffer.from(Array.from({ length: 1 + Math.floor(rand() * 200) }, () => Math.floor(rand() * 256)));
        case 1:
          return Buffer.from('{"temperature": 2' + '1'.repeat(Math.floor(rand() * 10)));
        case 2:
          return Buffer.alloc(256 * 1024 + 1, 'x');
        case 3:
          return Buffer.from('['.repeat(5000) + ']'.repeat(5000));
        default:
          return Buffer.from(JSON.stringify({ __proto__: { polluted: true }, temperature: 'NaN' }));
      }
    };
    const topics = [
      'zigbee2mqtt/fuzz_sensor',
      'tele/fuzz/SENSOR',
      'hearth/record/fuzz/temp',
      'homeassistant/sensor/fuzz/state',
    ];
    const sends: Promise<void>[] = [];
    let valid = 0;
    for (let i = 0; i < 10_000; i++) {
      sends.push(publish(c, topics[i % topics.length], garbage(i), { qos: i % 2 ? 1 : 0 }));
      if (i % 100 === 0) {
        sends.push(publish(c, 'zigbee2mqtt/fuzz_ok', JSON.stringify({ counter: valid++ })));
      }
      if (i % 500 === 0) await Promise.all(sends.splice(0));
    }
    await Promise.all(sends);
    await publish(c, 'zigbee2mqtt/fuzz_ok', JSON.stringify({ counter: valid++ }));
    const stored = await post(hub, '/query_stream', { entity_name: 'fuzz_ok', metric: 'counter', limit: 10_000 });
    expect(stored.body.points.map((p: { value: number }) => p.value)).toEqual(
      Array.from({ length: valid }, (_, i) => i),
    );
    const stats = hub.mqtt!.bridge.stats;
    expect(stats.unparseable + stats.rejected).toBeGreaterThan(5000);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(c.connected).toBe(true);
    const health = (await hub.app.inject({ url: '/health' })).json();
    expect(health.mqtt.bridge.errors_by_topic['zigbee2mqtt/fuzz_sensor']).toBeGreaterThan(0);
    c.end();
  }, 60_000);

  it('publishes hearth/events/memory_added, and refuses client publishes to hearth/events/#', async () => {
    const sub = await connect();
    const got = new Promise<{ topic: string; body: Record<string, unknown> }>((resolve) =>
      sub.on('message', (topic, payload) => resolve({ topic, body: JSON.parse(payload.toString()) })),
    );
    await new Promise((r) => sub.subscribe('hearth/events/#', { qos: 0 }, r));
    await post(hub, '/remember', { entity_name: 'Leo', fact: 'Leo loves dinosaurs' });
    const ev = await got;
    expect(ev.topic).toBe('hearth/events/memory_added');
    expect(ev.body).toMatchObject({ entity_name: 'Leo', fact: 'Leo loves dinosaurs', action: 'added' });
    const rogue = await connect();
    const closed = new Promise((r) => rogue.once('close', r));
    rogue.publish('hearth/events/memory_added', '{"fake":true}', { qos: 1 });
    await closed;
    sub.end();
  });
});

describe('/metrics', () => {
  it('exposes ingest and bridge counters in Prometheus text', async () => {
    await hub.services.timeseries.rollupAll();
    // A persistent session that went away holds what it subscribed to until it comes back.
    const away = await connect({ clientId: 'metrics-away', clean: false });
    await away.subscribeAsync('zigbee2mqtt/away_probe', { qos: 1 });
    await away.endAsync();
    const pub = await connect();
    await pub.publishAsync('zigbee2mqtt/away_probe', '{"temperature": 20.5}', { qos: 1 });
    await pub.publishAsync('zigbee2mqtt/away_probe', '{"temperature": 20.6}', { qos: 1 });
    await pub.endAsync();
    const res = await hub.app.inject({ url: '/metrics' });
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    const value = (re: RegExp) => Number(re.exec(text)?.[1]);
    expect(value(/^hearth_ingest_readings_total\{result="accepted"\} (\d+)$/m)).toBeGreaterThan(100);
    expect(
      value(/^hearth_ingest_source_readings_total\{source="zigbee2mqtt",result="accepted"\} (\d+)$/m),
    ).toBeGreaterThan(0);
    expect(value(/^hearth_mqtt_messages_total\{outcome="unparseable"\} (\d+)$/m)).toBeGreaterThan(1000);
    expect(text).toMatch(/^hearth_mqtt_topic_errors_total\{topic="zigbee2mqtt\/fuzz_sensor"\} \d+$/m);
    expect(value(/^hearth_mqtt_connected (\d)$/m)).toBe(1);
    expect(value(/^hearth_mqtt_offline_queue_messages (\d+)$/m)).toBe(2);
    expect(value(/^hearth_mqtt_offline_queue_bytes (\d+)$/m)).toBe(
      2 * ('zigbee2mqtt/away_probe'.length + '{"temperature": 20.5}'.length),
    );
    expect((await hub.app.inject({ url: '/health' })).json().mqtt.offline_queue).toEqual({
      messages: 2,
      bytes: 2 * ('zigbee2mqtt/away_probe'.length + '{"temperature": 20.5}'.length),
    });
    expect(value(/^hearth_rollup_cache_series (\d+)$/m)).toBeGreaterThan(0);
    expect(value(/^hearth_rollup_cache_bytes (\d+)$/m)).toBeGreaterThan(0);
  });
});
