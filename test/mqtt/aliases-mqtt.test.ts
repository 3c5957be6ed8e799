/**
 * Entity aliases over MQTT (issue #28 item 5): Home Assistant's Statestream names `person.anna`
 * "Anna" (its `friendly_name` topic), and from then on Statestream, native topics and HTTP all land
 * on one entity; a unit learned under one name serves readings under another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { buildTestHub, get, post, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
let c: MqttClient;

beforeAll(async () => {
  hub = await buildTestHub({ config: { mqtt: { mode: 'embedded', port: 0 } } });
  hub.clock.set(Date.now() / 1000);
  const addr = await hub.start();
  c = mqtt.connect(addr.mqtt!, { reconnectPeriod: 0 });
  await new Promise<void>((resolve, reject) => c.once('connect', () => resolve()).once('error', reject));
});
afterAll(async () => {
  c?.end();
  await hub?.close();
});

const publish = (topic: string, payload: string, retain = false) =>
  new Promise<void>((resolve, reject) =>
    c.publish(topic, payload, { qos: 1, retain }, (e) => (e ? reject(e) : resolve())),
  );
const points = async (entity_name: string, metric: string) =>
  (await post(hub, '/query_stream', { entity_name, metric, start_ts: 0 })).body.points ?? [];
const entities = () => hub.db.prepare('SELECT name FROM entities ORDER BY id').pluck().all();

describe('aliases from Statestream', () => {
  it("person.anna (readings only) and the assistant's Anna: proposed, not folded; once a person merges them every door writes to one entity", async () => {
    // HA publishes the state first (person.anna is created by its reading), then the attributes
    await publish('homeassistant/person/anna/state', 'home', true);
    expect(await points('person.anna', 'state')).toMatchObject([{ value: 'home' }]);
    expect(
      (await post(hub, '/remember', { entity_name: 'Anna', fact: 'Anna plays the cello', entity_type: 'person' }))
        .status,
    ).toBe(200);
    await publish('homeassistant/person/anna/friendly_name', '"Anna"', true);
    // a name over MQTT never folds two entities (issue 35 item 5): a proposal a person confirms
    expect(entities()).toEqual(['person.anna', 'Anna']);
    expect(hub.db.prepare("SELECT actor, op FROM audit WHERE op LIKE 'entity.alias%'").all()).toEqual([
      { actor: 'mqtt', op: 'entity.alias_proposal' },
    ]);
    // a retained replay (every reconnect) changes nothing, and proposes nothing again
    await publish('homeassistant/person/anna/friendly_name', '"Anna"', true);
    expect(hub.db.prepare("SELECT count(*) FROM audit WHERE op LIKE 'entity.alias%'").pluck().get()).toBe(1);
    expect((await post(hub, '/entities/merge', { source_name: 'person.anna', target_name: 'Anna' })).status).toBe(200);
    expect(entities()).toEqual(['Anna']);

    // Statestream, native MQTT and HTTP under either name: one series, one entity
    hub.clock.advance(10);
    await publish('homeassistant/person/anna/state', 'not_home');
    hub.clock.advance(10);
    await publish('hearth/record/Anna/state', 'work');
    expect((await points('Anna', 'state')).map((p: { value: string }) => p.value)).toEqual([
      'home',
      'not_home',
      'work',
    ]);
    await publish('hearth/remember/person.anna', 'Anna walks the dog at seven');
    const recalled = await post(hub, '/recall', { query: 'dog', entity_name: 'Anna', mode: 'keyword' });
    expect(recalled.body.results.map((r: { entity_name: string }) => r.entity_name)).toEqual(['Anna']);
    await publish('hearth/locate/person.anna', 'garden');
    expect((await post(hub, '/find', { entity_name: 'Anna' })).body.container_name).toBe('garden');
    expect(entities()).toEqual(['Anna', 'garden']);
  });

  it('issue 35 item 5: a retained person/bob friendly_name "Anna" never folds Anna (known only through presence readings) into Bob', async () => {
    // Dana is known only through HA: person.dana's presence readings, "Dana" its friendly name
    await publish('homeassistant/person/dana/state', 'home', true);
    await publish('homeassistant/person/dana/friendly_name', '"Dana"', true);
    await publish('homeassistant/person/ed/state', 'not_home', true);
    await publish('homeassistant/person/ed/friendly_name', '"Ed"', true);
    await post(hub, '/remember', { entity_name: 'Ed', fact: 'Ed takes the bins out on Mondays' });
    const before = entities();
    const merges = () =>
      hub.db.prepare("SELECT count(*) FROM audit WHERE op IN ('entity.alias_merge', 'entity.merge')").pluck().get();
    const mergesBefore = merges();
    // the slip (or a client with publish rights on homeassistant/#)
    await publish('homeassistant/person/ed/friendly_name', '"Dana"', true);
    expect(entities()).toEqual(before);
    expect(merges()).toBe(mergesBefore);
    expect(hub.services.entities.find('Dana')!.name).toBe('person.dana');
    expect(hub.services.entities.find('Ed')!.name).toBe('person.ed');
    // both people's presence stays apart, and Dana's next fact is filed under Dana
    hub.clock.advance(10);
    await publish('homeassistant/person/ed/state', 'home');
    expect((await points('Dana', 'state')).map((p: { value: string }) => p.value)).toEqual(['home']);
    expect((await points('Ed', 'state')).map((p: { value: string }) => p.value)).toEqual(['not_home', 'home']);
    await post(hub, '/remember', { entity_name: 'Dana', fact: 'Dana swims on Thursdays' });
    const factsOf = (id: number) =>
      hub.db.prepare('SELECT fact FROM memories WHERE entity_id = ? ORDER BY id').pluck().all(id);
    expect(factsOf(hub.services.entities.find('Ed')!.id)).toEqual(['Ed takes the bins out on Mondays']);
    expect(factsOf(hub.services.entities.find('Dana')!.id)).toEqual(['Dana swims on Thursdays']);
  });

  it("a friendly name new to Hearth becomes an alias of the person entity; other domains' names do not", async () => {
    await publish('homeassistant/person/brian/friendly_name', '"Brian"', true);
    expect((await get(hub, '/aliases/Brian')).body).toMatchObject({
      entity_name: 'person.brian',
      aliases: [{ alias: 'Brian', source: 'homeassistant' }],
    });
    await publish('homeassistant/sensor/kitchen_temperature/friendly_name', '"Temperature"', true);
    expect((await get(hub, '/aliases/Temperature')).status).toBe(404);
  });

  it('a unit learned under one name serves a reading under an alias', async () => {
    // HA taught the unit (retained) before any state; the first reading arrives under the alias
    await publish('homeassistant/sensor/bedroom_temperature/unit_of_measurement', '"°C"', true);
    await post(hub, '/record', { entity_name: 'sensor.bedroom_temperature', metric: 'battery', value: 80 });
    expect(
      (await post(hub, '/alias', { entity_name: 'sensor.bedroom_temperature', alias: 'bedroom thermometer' })).status,
    ).toBe(200);
    await publish('hearth/record/bedroom thermometer/state', '20');
    expect(await points('sensor.bedroom_temperature', 'state')).toMatchObject([{ value: 20, unit: '°C' }]);
  });

  it('a name resolved before its alias existed resolves again once the alias is added (entities_changed)', async () => {
    await publish('homeassistant/sensor/hall_humidity/unit_of_measurement', '"%"', true);
    await post(hub, '/record', { entity_name: 'sensor.hall_humidity', metric: 'battery', value: 90 });
    // "hall hygrometer" is no name of it yet: its first reading has no unit, and that answer is cached.
    await publish('hearth/record/hall hygrometer/state', '55');
    expect(await points('hall hygrometer', 'state')).toMatchObject([{ value: 55, unit: null }]);
    await post(hub, '/forget', { entity_name: 'hall hygrometer' });
    expect((await post(hub, '/alias', { entity_name: 'sensor.hall_humidity', alias: 'hall hygrometer' })).status).toBe(
      200,
    );
    await publish('hearth/record/hall hygrometer/state', '56');
    expect(await points('sensor.hall_humidity', 'state')).toMatchObject([{ value: 56, unit: '%' }]);
  });

  it('two entities that both hold facts are not merged: left alone and logged', async () => {
    await post(hub, '/remember', { entity_name: 'person.carol', fact: 'person.carol is the account on the old phone' });
    await post(hub, '/remember', { entity_name: 'Carol', fact: 'Carol likes tulips' });
    const before = entities().length;
    await publish('homeassistant/person/carol/friendly_name', '"Carol"', true);
    expect(entities()).toHaveLength(before);
    expect((await get(hub, '/aliases/Carol')).body.aliases).toEqual([]);
  });
});
