import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';

/**
 * The three ingest doors — the MQTT bridge, POST /record/bulk and line protocol (/write) — reach the
 * one `timeseries.ingest`: the same bad reading is refused with the same reason through each, wrapped
 * only in its door's framing (the bridge's log line, the bulk item's `readings.N.` path, /write's
 * "<entity> <metric>: " problem). Real embedded broker and mqtt.js client, real HTTP (inject), real SQLite.
 */
let hub: TestHub;
let client: MqttClient;
const logs: string[] = [];
const auth = { authorization: 'Bearer tok' };

beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: 'tok' }, mqtt: { mode: 'embedded', port: 0 } } });
  hub.clock.set(Math.round(Date.now() / 1000));
  // The bridge logs through the app logger (silent in tests): capture it.
  (hub.app.log as unknown as { warn: (m: unknown) => void }).warn = (m) =>
    logs.push(typeof m === 'string' ? m : JSON.stringify(m));
  const { mqtt: url } = await hub.start();
  client = mqtt.connect(url!, { reconnectPeriod: 0 });
  await new Promise<void>((resolve, reject) => (client.once('connect', () => resolve()), client.once('error', reject)));
});
afterAll(async () => {
  client?.end(true);
  await hub?.close();
});

/** The reason the bridge gave for refusing a message on `topic` (its log line, minus the framing). */
async function viaMqtt(entity: string, metric: string, payload: object): Promise<string> {
  const topic = `hearth/record/${entity}/${metric}`;
  const before = hub.mqtt!.bridge.stats.rejected;
  const from = logs.length;
  await new Promise<void>((resolve, reject) =>
    client.publish(topic, JSON.stringify(payload), { qos: 1 }, (e) => (e ? reject(e) : resolve())),
  );
  expect(hub.mqtt!.bridge.stats.rejected).toBe(before + 1);
  // The log caps a long topic; each topic here is refused once, so its line is the one logged now.
  const line = logs.slice(from).find((l) => l.startsWith(`mqtt: rejected message on ${topic.slice(0, 60)}`));
  expect(line, `no log line for ${topic}: ${logs.join(' | ')}`).toBeDefined();
  return line!.replace(/^mqtt: rejected message on .*? \(\d+ so far\): /, '');
}

async function viaBulk(reading: object): Promise<string> {
  const r = await post(hub, '/record/bulk', { readings: [reading] }, auth);
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ inserted: 0, rejected: 1 });
  expect(r.body.results[0].message).toMatch(/^readings\.0\./);
  return r.body.results[0].message.replace(/^readings\.0\./, '');
}

async function viaWrite(line: string, entity: string, metric: string): Promise<string> {
  const res = await hub.app.inject({
    method: 'POST',
    url: '/write?precision=s',
    payload: line,
    headers: { 'content-type': 'text/plain', ...auth },
  });
  expect(res.statusCode).toBe(400);
  const m = /^body: partial write, 0 readings stored; (.*)$/.exec(res.json().message as string);
  expect(m, res.json().message).not.toBeNull();
  expect(m![1].startsWith(`${entity} ${metric}: `)).toBe(true);
  return m![1].slice(`${entity} ${metric}: `.length);
}

describe('one ingest entry point behind three doors', () => {
  it('a reading from the future: the same reason from MQTT, /record/bulk and /write', async () => {
    const ts = hub.clock.now() + 3 * 86_400;
    const mqttWhy = await viaMqtt('porch', 'x.temperature', { value: 4.5, ts });
    const bulkWhy = await viaBulk({ entity_name: 'porch', metric: 'x.temperature', value: 4.5, ts });
    const writeWhy = await viaWrite(`x,host=porch temperature=4.5 ${ts}`, 'porch', 'x.temperature');
    expect(mqttWhy).toMatch(/^ts: .* is in the future$/);
    expect(bulkWhy).toBe(mqttWhy);
    expect(writeWhy).toBe(mqttWhy);
  });

  it('a value of the wrong type for its series (refused by the store): the same reason through each door', async () => {
    const ok = await post(hub, '/record', { entity_name: 'attic', metric: 'x.humidity', value: 51 }, auth);
    expect(ok.status).toBe(200);
    const mqttWhy = await viaMqtt('attic', 'x.humidity', { value: 'damp' });
    const bulkWhy = await viaBulk({ entity_name: 'attic', metric: 'x.humidity', value: 'damp' });
    const writeWhy = await viaWrite('x,host=attic humidity="damp"', 'attic', 'x.humidity');
    expect(mqttWhy).toMatch(/numeric/);
    expect(bulkWhy).toBe(mqttWhy);
    expect(writeWhy).toBe(mqttWhy);
    // Nothing of the three was stored beside the first reading.
    const q = await post(hub, '/query_stream', { entity_name: 'attic', metric: 'x.humidity' }, auth);
    expect(q.body.points.map((p: { value: unknown }) => p.value)).toEqual([51]);
  });

  it('a name the schema refuses (checked once, by EntityName): the same reason from MQTT and /record/bulk', async () => {
    const long = 'n'.repeat(201);
    const mqttWhy = await viaMqtt(long, 'x.temperature', { value: 1 });
    const bulkWhy = await viaBulk({ entity_name: long, metric: 'x.temperature', value: 1 });
    expect(mqttWhy).toBe('entity_name: must be at most 200 characters');
    expect(bulkWhy).toBe(mqttWhy);
  });
});
