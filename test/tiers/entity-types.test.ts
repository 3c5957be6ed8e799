import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';

// SPEC §3 + issue #12 item 7: nothing invents a type; unknown until something says; a later type fills an unknown one.
let hub: TestHub;
let client: MqttClient;
const typeOf = (name: string) =>
  (hub.db.prepare('SELECT type FROM entities WHERE name = ?').get(name) as { type: string } | undefined)?.type;
const publish = (topic: string, payload: string) =>
  new Promise<void>((resolve, reject) =>
    client.publish(topic, payload, { qos: 1 }, (e) => (e ? reject(e) : resolve())),
  );

beforeAll(async () => {
  hub = await buildTestHub({ config: { mqtt: { mode: 'embedded', port: 0 } } });
  hub.clock.set(Date.now() / 1000);
  const { mqtt: url } = await hub.start();
  client = mqtt.connect(url!, { reconnectPeriod: 0 });
  await new Promise((r) => client.once('connect', r));
});
afterAll(async () => {
  client?.end(true);
  await hub?.close();
});

describe('entity types', () => {
  it("the seed's push_presence body (no entity_type) leaves Brian unknown, not a room", async () => {
    const r = await post(hub, '/record', { entity_name: 'Brian', metric: 'presence', value: 'home' });
    expect(r.status).toBe(200);
    expect(typeOf('Brian')).toBe('unknown');
  });

  it('remember about "kitchen" without a type does not make it a person', async () => {
    await post(hub, '/remember', { entity_name: 'kitchen', fact: 'The kitchen light is on a dimmer' });
    expect(typeOf('kitchen')).toBe('unknown');
  });

  it('a later, more specific type fills an unknown one, and a known type is kept', async () => {
    await post(hub, '/record', { entity_name: 'kitchen', metric: 'temperature', value: 21, entity_type: 'room' });
    expect(typeOf('kitchen')).toBe('room');
    await post(hub, '/record', { entity_name: 'kitchen', metric: 'humidity', value: 40, entity_type: 'device' });
    expect(typeOf('kitchen')).toBe('room');
    await post(hub, '/remember', { entity_name: 'Anna', fact: 'Anna is vegetarian' });
    await post(hub, '/remember', { entity_name: 'Anna', fact: 'Anna runs on Sundays', entity_type: 'person' });
    expect(typeOf('Anna')).toBe('person');
  });

  it('Home Assistant sensor.* and binary_sensor.* are sensors (Statestream and the InfluxDB integration)', async () => {
    await publish('homeassistant/sensor/bedroom_temperature/state', '21.5');
    await publish('homeassistant/binary_sensor/front_door/state', 'on');
    await publish('homeassistant/light/hall/state', 'off');
    expect(typeOf('sensor.bedroom_temperature')).toBe('sensor');
    expect(typeOf('binary_sensor.front_door')).toBe('sensor');
    expect(typeOf('light.hall')).toBe('device');
    const res = await hub.app.inject({
      method: 'POST',
      url: '/write',
      payload: '°C,domain=sensor,entity_id=attic_temperature value=17.5',
    });
    expect(res.statusCode).toBe(204);
    expect(typeOf('sensor.attic_temperature')).toBe('sensor');
  });

  it('Zigbee2MQTT and Tasmota devices are devices; OwnTracks users are people (filling an unknown Brian)', async () => {
    await publish('zigbee2mqtt/hall_motion', JSON.stringify({ occupancy: true, battery: 90 }));
    await publish('tele/plug_tv/SENSOR', JSON.stringify({ Time: '2026-12-01T09:00:00', ENERGY: { Power: 42 } }));
    expect(typeOf('hall_motion')).toBe('device');
    expect(typeOf('plug_tv')).toBe('device');
    await publish(
      'owntracks/Brian/phone',
      JSON.stringify({ _type: 'location', lat: 52.5, lon: 13.4, acc: 10, tst: Math.floor(hub.clock.now()) }),
    );
    expect(typeOf('Brian')).toBe('person');
  });
});
