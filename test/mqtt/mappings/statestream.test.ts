import { describe, expect, it } from 'vitest';
import { statestreamMapping, statestreamTimestamp } from '../../../src/mqtt/mappings/statestream.js';
import { ParseError } from '../../../src/mqtt/mappings/types.js';
import { context, parse } from './helpers.js';

const ss = statestreamMapping();

describe('Home Assistant Statestream mapping', () => {
  it('maps <base>/<domain>/<object_id>/state to entity domain.object_id, metric state', () => {
    expect(ss.filters).toEqual(['homeassistant/+/+/+']);
    expect(parse(ss, 'homeassistant/sensor/bedroom_temperature/state', '21.5')).toEqual([
      {
        kind: 'reading',
        entity_name: 'sensor.bedroom_temperature',
        metric: 'state',
        value: 21.5,
        source: 'homeassistant',
        entity_type: 'sensor',
      },
    ]);
    expect(parse(ss, 'homeassistant/binary_sensor/front_door/state', 'off')[0]).toMatchObject({
      entity_name: 'binary_sensor.front_door',
      value: 'off',
      entity_type: 'sensor',
    });
    expect(parse(ss, 'homeassistant/person/brian/state', 'home')[0]).toMatchObject({
      value: 'home',
      entity_type: 'person',
    });
    expect(parse(ss, 'homeassistant/climate/hall/state', 'heat')[0]).toMatchObject({
      value: 'heat',
      entity_type: 'device',
    });
    // A domain that says nothing about what the entity is adds no type.
    expect(parse(ss, 'homeassistant/input_select/house_mode/state', 'away')[0]).not.toHaveProperty('entity_type');
  });

  it('handles JSON-quoted states and ignores unknown/unavailable/empty', () => {
    expect(parse(ss, 'homeassistant/sensor/power/state', '"45.2"')[0]).toMatchObject({ value: 45.2 });
    expect(parse(ss, 'homeassistant/sensor/mode/state', '"eco"')[0]).toMatchObject({ value: 'eco' });
    for (const p of ['unknown', 'unavailable', '', '"unavailable"', ' '])
      expect(parse(ss, 'homeassistant/sensor/x/state', p)).toEqual([]);
  });

  it('learns units and applies them from ctx.units', () => {
    expect(parse(ss, 'homeassistant/sensor/bedroom_temperature/unit_of_measurement', '"°C"')).toEqual([
      { kind: 'unit', entity_name: 'sensor.bedroom_temperature', metric: 'state', unit: '°C' },
    ]);
    expect(parse(ss, 'homeassistant/sensor/p/unit_of_measurement', 'W')[0]).toMatchObject({ unit: 'W' });
    const ctx = context('UTC', { 'sensor.bedroom_temperature|state': '°C' });
    expect(parse(ss, 'homeassistant/sensor/bedroom_temperature/state', '21.5', ctx)[0]).toMatchObject({ unit: '°C' });
  });

  it('turns last_updated into a timestamp item and ignores other attributes', () => {
    const ts = Date.UTC(2026, 10, 30, 17, 10, 0, 123) / 1000;
    expect(parse(ss, 'homeassistant/sensor/t/last_updated', '2026-11-30T17:10:00.123456+00:00')).toEqual([
      { kind: 'timestamp', entity_name: 'sensor.t', metric: 'state', ts, source: 'homeassistant' },
    ]);
    expect(parse(ss, 'homeassistant/sensor/t/last_updated', '"2026-11-30T17:10:00.123456+00:00"')[0]).toMatchObject({
      ts,
    });
    expect(
      statestreamTimestamp('homeassistant/sensor/t/last_updated', Buffer.from('2026-11-30T17:10:00.123+00:00')),
    ).toEqual({ entity_name: 'sensor.t', ts });
    expect(statestreamTimestamp('homeassistant/sensor/t/state', Buffer.from('1'))).toBeNull();
    for (const attr of ['last_changed', 'friendly_name', 'device_class', 'battery_level', 'attributes']) {
      expect(parse(ss, `homeassistant/sensor/t/${attr}`, '"x"')).toEqual([]);
    }
    expect(() => parse(ss, 'homeassistant/sensor/t/last_updated', 'yesterday')).toThrow(ParseError);
  });

  it('re-roots to another base_topic and refuses garbage states', () => {
    const m = statestreamMapping({ enabled: true, root: 'statestream' });
    expect(parse(m, 'statestream/sensor/a/state', '1')[0]).toMatchObject({ entity_name: 'sensor.a' });
    expect(parse(m, 'homeassistant/sensor/a/state', '1')).toEqual([]);
    for (const p of ['NaN', 'inf', '"21', 'x'.repeat(300), 'a\u0000b'])
      expect(() => parse(ss, 'homeassistant/sensor/x/state', p), p).toThrow(ParseError);
  });
});
