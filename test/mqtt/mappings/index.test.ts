import { describe, expect, it } from 'vitest';
import {
  MappingsConfigSchema,
  createMappingSet,
  createMappings,
  isValidFilter,
  matchTopic,
  route,
} from '../../../src/mqtt/mappings/index.js';
import { parse } from './helpers.js';

describe('matchTopic', () => {
  it('matches + and # with captured levels', () => {
    expect(matchTopic('a/+/c', 'a/b/c')).toEqual(['b']);
    expect(matchTopic('a/+/c', 'a/b/d')).toBeNull();
    expect(matchTopic('a/+', 'a/b/c')).toBeNull();
    expect(matchTopic('a/#', 'a/b/c')).toEqual(['b', 'c']);
    expect(matchTopic('a/#', 'a')).toEqual([]);
    expect(matchTopic('#', 'a/b')).toEqual(['a', 'b']);
    expect(matchTopic('+/+', '/finance')).toEqual(['', 'finance']);
    expect(matchTopic('a/b', 'a/b')).toEqual([]);
    expect(matchTopic('a/b', 'a/b/')).toBeNull();
  });

  it('never matches $ topics with a leading wildcard [MQTT-4.7.2-1]', () => {
    expect(matchTopic('#', '$SYS/broker/uptime')).toBeNull();
    expect(matchTopic('+/broker/uptime', '$SYS/broker/uptime')).toBeNull();
    expect(matchTopic('$SYS/#', '$SYS/broker/uptime')).toEqual(['broker', 'uptime']);
  });

  it('rejects invalid filters', () => {
    for (const f of ['', 'a/#/b', 'a/b#', 'a+/b', '#/a']) expect(isValidFilter(f), f).toBe(false);
    expect(matchTopic('a/#/b', 'a/x/b')).toBeNull();
  });
});

describe('mapping config and routing', () => {
  it('defaults every built-in on, with its usual root', () => {
    const cfg = MappingsConfigSchema.parse(undefined);
    expect(cfg).toEqual({
      native: { enabled: true, root: 'hearth' },
      statestream: { enabled: true, root: 'homeassistant' },
      zigbee2mqtt: { enabled: true, root: 'zigbee2mqtt' },
      tasmota: { enabled: true, root: 'tele' },
      discovery: { enabled: true, root: 'homeassistant' },
      owntracks: { enabled: true, root: 'owntracks', home_regions: ['home'] },
      user: [],
    });
    expect(createMappings().map((m) => m.name)).toEqual([
      'native',
      'discovery',
      'statestream',
      'zigbee2mqtt',
      'tasmota',
      'owntracks',
    ]);
  });

  it('validates roots and unknown keys', () => {
    for (const bad of [
      { native: { root: 'a/+' } },
      { native: { root: '/a' } },
      { native: { root: '' } },
      { tasmota: { prefix: 'x' } },
      { owntracks: { device: 'x' } },
    ]) {
      expect(MappingsConfigSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('routes user mappings first, discovery before statestream, and honours disabling', () => {
    const cfg = MappingsConfigSchema.parse({
      statestream: { root: 'statestream' },
      tasmota: { enabled: false },
      user: [{ topic: 'zigbee2mqtt/special/#', entity: 'special', metric: '{#}' }],
    });
    const ms = createMappings(cfg);
    expect(route(ms, 'zigbee2mqtt/special/x')?.name).toMatch(/^user\[0\]/);
    expect(route(ms, 'zigbee2mqtt/lamp')?.name).toBe('zigbee2mqtt');
    expect(route(ms, 'statestream/sensor/a/state')?.name).toBe('statestream');
    expect(route(ms, 'homeassistant/sensor/a/config')?.name).toBe('discovery');
    expect(route(ms, 'tele/x/SENSOR')).toBeUndefined();
    expect(route(ms, 'hearth/record/a/b')?.name).toBe('native');
    const same = createMappings(MappingsConfigSchema.parse({}));
    expect(route(same, 'homeassistant/sensor/a/config')?.name).toBe('discovery');
    expect(route(same, 'homeassistant/sensor/a/state')?.name).toBe('statestream');
  });

  it('MappingSet: filters, route, and discovery resolved to the entity/metric readings will carry', () => {
    const set = createMappingSet();
    expect(set.filters()).toContain('zigbee2mqtt/#');
    expect(new Set(set.filters()).size).toBe(set.filters().length);
    const config =
      '{"state_topic":"zigbee2mqtt/living_room_sensor","unit_of_measurement":"°C","value_template":"{{ value_json.temperature }}"}';
    const m = set.route('homeassistant/sensor/0x00158d0001a2b3c4/temperature/config')!;
    expect(parse(m, 'homeassistant/sensor/0x00158d0001a2b3c4/temperature/config', config)[0]).toMatchObject({
      kind: 'discovery',
      entity_name: 'living_room_sensor',
      metric: 'temperature',
      unit: '°C',
    });
    const plain = '{"state_topic":"hearth/record/boiler/flow","unit_of_measurement":"°C"}';
    expect(parse(m, 'homeassistant/sensor/boiler/config', plain)[0]).toMatchObject({
      entity_name: 'boiler',
      metric: 'flow',
    });
    const nowhere = parse(
      m,
      'homeassistant/sensor/y/config',
      '{"state_topic":"somewhere/else","unit_of_measurement":"W"}',
    )[0];
    expect(nowhere).not.toHaveProperty('metric');
  });
});
