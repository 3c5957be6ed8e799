import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';
import { haYaml, render, renderData } from '../helpers/ha-templates.js';

const DIR = 'integrations/homeassistant';
const TOKEN = 'ha-test-token';
const SECRETS = { hearth_token: TOKEN, hearth_authorization: `Bearer ${TOKEN}` };
let hub: TestHub;
let base: string;
let client: MqttClient;
const pkg = haYaml(join(DIR, 'packages/hearth.yaml'), SECRETS);

beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN }, mqtt: { mode: 'embedded', port: 0 } } });
  hub.clock.set(Date.now() / 1000);
  const addr = await hub.start();
  base = addr.http!;
  client = mqtt.connect(addr.mqtt!, { reconnectPeriod: 0 });
  await new Promise((r) => client.once('connect', r));
});
afterAll(async () => {
  client?.end(true);
  await hub?.close();
});

/** What HA's rest_command does with a call: render url and payload, send with its headers. */
async function restCommand(name: string, vars: Record<string, unknown>) {
  const cmd = pkg.rest_command[name];
  expect(cmd, name).toBeDefined();
  const url = render(cmd.url, vars).replace('http://hearth.local:8900', base);
  const res = await fetch(url, {
    method: cmd.method,
    headers: { 'content-type': cmd.content_type, ...cmd.headers },
    body: render(cmd.payload, vars),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
const stored = (entity: string, metric: string) =>
  post(hub, '/query_stream', { entity_name: entity, metric }, { authorization: `Bearer ${TOKEN}` }).then(
    (r) => r.body.points,
  );
const typeOf = (name: string) =>
  (hub.db.prepare('SELECT type FROM entities WHERE name = ?').get(name) as { type: string }).type;
const automation = (id: string) => pkg.automation.find((a: { id: string }) => a.id === id);
/** Subscribes (waiting for SUBACK) and resolves with the next message on the topic. */
async function nextEvent(topic: string): Promise<{ next: Promise<Record<string, unknown>> }> {
  const next = new Promise<Record<string, unknown>>((resolve) =>
    client.on('message', (t, payload) => t === topic && resolve(JSON.parse(payload.toString()))),
  );
  await client.subscribeAsync(topic, { qos: 1 });
  return { next };
}

describe('integrations/homeassistant', () => {
  it('every YAML file parses (HA tags included)', () => {
    const files = readdirSync(DIR, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.yaml'));
    expect(files.sort()).toEqual(['influxdb.yaml', 'packages/hearth.yaml', 'secrets.example.yaml', 'statestream.yaml']);
    for (const f of files) expect(haYaml(join(DIR, f), SECRETS), f).toBeTypeOf('object');
    expect(Object.keys(pkg.rest_command).sort()).toEqual([
      'hearth_ask',
      'hearth_check_intentions',
      'hearth_find',
      'hearth_locate',
      'hearth_recall',
      'hearth_record',
      'hearth_remember',
      'push_presence',
    ]);
  });

  it('rest_command payloads render and the hub accepts them: record, remember → recall, locate → find', async () => {
    const reading = await restCommand('hearth_record', {
      entity_name: 'sensor.attic_temperature',
      metric: 'state',
      value: 17.5,
      unit: '°C',
      entity_type: 'sensor',
    });
    expect(reading.status, JSON.stringify(reading.body)).toBe(200);
    expect(reading.body.value_type).toBe('numeric');
    const word = await restCommand('hearth_record', {
      entity_name: 'binary_sensor.back_door',
      metric: 'state',
      value: 'on',
    });
    expect(word.body.value_type).toBe('categorical');
    expect((await stored('sensor.attic_temperature', 'state'))[0]).toMatchObject({ value: 17.5, unit: '°C' });

    const seed = await restCommand('push_presence', { person: 'Brian', state: 'home' });
    expect(seed.status).toBe(200);
    expect(typeOf('Brian')).toBe('unknown');

    const fact = 'Brian likes the living room at 21 °C in the evening';
    expect(
      (await restCommand('hearth_remember', { entity_name: 'Brian', fact, category: 'preference' })).body.action,
    ).toBe('added');
    // Quotes and newlines in a value stay JSON (to_json), as HA would send them.
    expect(
      (await restCommand('hearth_remember', { entity_name: 'Anna', fact: 'Anna calls the dog "Biscuit"\nalways' }))
        .status,
    ).toBe(200);
    const recall = await restCommand('hearth_recall', { query: 'what temperature does Brian like in the evening' });
    expect(recall.status).toBe(200);
    expect(recall.body.results[0].fact).toBe(fact);
    expect(recall.body.result).toContain(fact);

    expect((await restCommand('hearth_locate', { object: 'car keys', place: 'kitchen drawer' })).status).toBe(200);
    const find = await restCommand('hearth_find', { question: 'where are my car keys?' });
    expect(find.body).toMatchObject({ found: true, container_name: 'kitchen drawer' });
  });

  it('check_intentions fires, and the MQTT automation renders the announcement from the real event', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    await post(
      hub,
      '/intend',
      { entity_name: 'Anna', trigger_text: 'when Anna gets home', action_text: 'remind Anna to call the plumber' },
      auth,
    );
    const a = automation('hearth_intention_triggered');
    const event = await nextEvent(a.triggers[0].topic);
    const res = await restCommand('hearth_check_intentions', { text: 'Anna just got home' });
    expect(res.body.triggered).toHaveLength(1);
    const data = renderData(a.actions[0].data, { trigger: { payload_json: await event.next } });
    expect(data).toEqual({ title: 'Reminder for Anna', message: 'remind Anna to call the plumber' });
  });

  it('the forwarding automation turns a state change into a typed numeric reading with its unit', async () => {
    const a = automation('hearth_forward_sensors');
    const trigger = {
      entity_id: 'sensor.living_room_temperature',
      to_state: { state: '21.5', attributes: { unit_of_measurement: '°C' } },
    };
    expect(render(a.conditions[0].value_template, { trigger })).toBe('true');
    expect(render(a.conditions[0].value_template, { trigger: { to_state: { state: 'unavailable' } } })).toBe('false');
    const call = a.actions[0];
    expect(call.action).toBe('rest_command.hearth_record');
    const res = await restCommand('hearth_record', renderData(call.data, { trigger }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await stored('sensor.living_room_temperature', 'state'))[0]).toMatchObject({ value: 21.5, unit: '°C' });
    expect(typeOf('sensor.living_room_temperature')).toBe('sensor');
    // A door's "on" stays a word.
    const door = { entity_id: 'binary_sensor.front_door', to_state: { state: 'on', attributes: {} } };
    expect((await restCommand('hearth_record', renderData(call.data, { trigger: door }))).body.value_type).toBe(
      'categorical',
    );
    // No unit attribute: no unit sent, so a unit learned before is not blanked.
    const noUnit = { entity_id: 'sensor.living_room_temperature', to_state: { state: '21.7', attributes: {} } };
    expect(
      JSON.parse(render(pkg.rest_command.hearth_record.payload, renderData(call.data, { trigger: noUnit }))),
    ).not.toHaveProperty('unit');
    await restCommand('hearth_record', renderData(call.data, { trigger: noUnit }));
    expect((await stored('sensor.living_room_temperature', 'state')).at(-1)).toMatchObject({ value: 21.7, unit: '°C' });
  });

  it("the pattern automation renders from Hearth's event (hearth_ask: homeassistant-ask.test.ts)", async () => {
    const p = automation('hearth_pattern_promoted');
    const payload_json = { action: 'added', fact: "Brian's bedroom temperature is consistently around 68°F" };
    expect(render(p.conditions[0].value_template, { trigger: { payload_json } })).toBe('true');
    expect(renderData(p.actions[0].data, { trigger: { payload_json } }).message).toBe(payload_json.fact);
  });

  it('statestream.yaml: the base_topic it sets is the one Hearth maps (unit and state)', async () => {
    const { base_topic } = haYaml(join(DIR, 'statestream.yaml')).mqtt_statestream;
    const pub = (t: string, m: string) =>
      new Promise<void>((r, j) =>
        client.publish(`${base_topic}/${t}`, m, { qos: 1, retain: true }, (e) => (e ? j(e) : r())),
      );
    await pub('sensor/hall_humidity/unit_of_measurement', '%');
    await pub('sensor/hall_humidity/state', '48');
    expect((await stored('sensor.hall_humidity', 'state'))[0]).toMatchObject({ value: 48, unit: '%' });
  });

  it("influxdb.yaml: HA's InfluxDB integration settings reach /write (Basic auth with the token as password)", async () => {
    const { influxdb: c } = haYaml(join(DIR, 'influxdb.yaml'), SECRETS);
    expect([c.host, c.port]).toEqual(['hearth.local', 8900]); // the README says: replace with your hub's address
    const url = `${base}/write?db=${c.database}&precision=s`;
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}` },
      body: `°C,domain=sensor,entity_id=cellar_temperature,friendly_name=Cellar value=12.5 ${Math.floor(hub.clock.now())}`,
    });
    expect(res.status).toBe(204);
    expect((await stored('sensor.cellar_temperature', 'state'))[0]).toMatchObject({ value: 12.5, unit: '°C' });
    expect(typeOf('sensor.cellar_temperature')).toBe('sensor');
  });
});
