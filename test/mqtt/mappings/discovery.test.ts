import { describe, expect, it } from 'vitest';
import { discoveryMapping } from '../../../src/mqtt/mappings/discovery.js';
import { ParseError } from '../../../src/mqtt/mappings/types.js';
import { parse } from './helpers.js';

const disc = discoveryMapping();

// As published by Zigbee2MQTT for an Aqara WSDCGQ11LM (trimmed).
const Z2M_TEMPERATURE = JSON.stringify({
  availability: [{ topic: 'zigbee2mqtt/bridge/state', value_template: '{{ value_json.state }}' }],
  device: {
    identifiers: ['zigbee2mqtt_0x00158d0001a2b3c4'],
    manufacturer: 'Aqara',
    model: 'Temperature and humidity sensor (WSDCGQ11LM)',
    name: 'living_room_sensor',
  },
  device_class: 'temperature',
  enabled_by_default: true,
  object_id: 'living_room_sensor_temperature',
  origin: { name: 'Zigbee2MQTT', sw: '2.1.0' },
  state_class: 'measurement',
  state_topic: 'zigbee2mqtt/living_room_sensor',
  unique_id: '0x00158d0001a2b3c4_temperature_zigbee2mqtt',
  unit_of_measurement: '°C',
  value_template: '{{ value_json.temperature }}',
});

describe('Home Assistant MQTT discovery mapping', () => {
  it('reads a Zigbee2MQTT sensor config', () => {
    expect(disc.filters).toEqual(['homeassistant/+/+/config', 'homeassistant/+/+/+/config']);
    expect(parse(disc, 'homeassistant/sensor/0x00158d0001a2b3c4/temperature/config', Z2M_TEMPERATURE)).toEqual([
      {
        kind: 'discovery',
        component: 'sensor',
        discovery_id: 'temperature',
        state_topic: 'zigbee2mqtt/living_room_sensor',
        unit: '°C',
        value_template: '{{ value_json.temperature }}',
        value_key: 'temperature',
        device_class: 'temperature',
        unique_id: '0x00158d0001a2b3c4_temperature_zigbee2mqtt',
        ha_entity_id: 'sensor.living_room_sensor_temperature',
      },
    ]);
  });

  it('expands abbreviations and the ~ topic base', () => {
    const [d] = parse(
      disc,
      'homeassistant/sensor/garden/config',
      '{"~":"home/garden","name":"Garden","stat_t":"~/state","unit_of_meas":"°C","dev_cla":"temperature","uniq_id":"g1"}',
    );
    expect(d).toMatchObject({
      state_topic: 'home/garden/state',
      unit: '°C',
      device_class: 'temperature',
      unique_id: 'g1',
      discovery_id: 'garden',
    });
  });

  it('reads device-based discovery with shared options', () => {
    const payload = JSON.stringify({
      dev: { ids: 'ea334450945afc', name: 'Kitchen' },
      o: { name: 'bla2mqtt' },
      cmps: {
        temp01: {
          p: 'sensor',
          device_class: 'temperature',
          unit_of_measurement: '°C',
          value_template: '{{ value_json.temperature}}',
          unique_id: 'temp01ae_t',
        },
        hum01: {
          p: 'sensor',
          device_class: 'humidity',
          unit_of_measurement: '%',
          value_template: "{{ value_json['humidity'] }}",
          unique_id: 'temp01ae_h',
        },
        __proto__x: 5,
      },
      state_topic: 'sensor/state',
      qos: 2,
    });
    const items = parse(disc, 'homeassistant/device/0AFFD2/config', payload);
    expect(items).toMatchObject([
      {
        component: 'sensor',
        discovery_id: 'temp01',
        state_topic: 'sensor/state',
        unit: '°C',
        value_key: 'temperature',
      },
      { component: 'sensor', discovery_id: 'hum01', state_topic: 'sensor/state', unit: '%', value_key: 'humidity' },
    ]);
  });

  it('ignores removals and configs without a state topic; refuses garbage', () => {
    expect(parse(disc, 'homeassistant/sensor/x/config', '')).toEqual([]);
    expect(parse(disc, 'homeassistant/button/x/config', '{"command_topic":"x/press"}')).toEqual([]);
    expect(parse(disc, 'homeassistant/sensor/x/config', '{"state_topic":"a/+/b"}')).toEqual([]);
    expect(parse(disc, 'homeassistant/sensor/x/state', '1')).toEqual([]);
    const complex = parse(
      disc,
      'homeassistant/sensor/x/config',
      '{"state_topic":"a","value_template":"{{ value_json.t | float * 2 }}"}',
    )[0];
    expect(complex).not.toHaveProperty('value_key');
    expect(() => parse(disc, 'homeassistant/sensor/x/config', '[1]')).toThrow(ParseError);
    expect(() => parse(disc, 'homeassistant/sensor/x/config', '{"state_topic":')).toThrow(ParseError);
  });
});
