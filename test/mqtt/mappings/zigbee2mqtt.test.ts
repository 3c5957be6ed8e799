import { describe, expect, it } from 'vitest';
import { zigbee2mqttMapping } from '../../../src/mqtt/mappings/zigbee2mqtt.js';
import { ParseError, type Ingest } from '../../../src/mqtt/mappings/types.js';
import { context, parse, values } from './helpers.js';

const z2m = zigbee2mqttMapping();
const units = (items: Ingest[]) =>
  Object.fromEntries(items.flatMap((i) => (i.kind === 'reading' && i.unit ? [[i.metric, i.unit]] : [])));

describe('Zigbee2MQTT mapping', () => {
  it('reads an Aqara WSDCGQ11LM temperature sensor', () => {
    const payload =
      '{"battery":100,"humidity":45.12,"linkquality":120,"power_outage_count":3,"pressure":1012.3,"temperature":21.47,"voltage":3005,"last_seen":"2026-11-30T17:10:00.000Z"}';
    const items = parse(z2m, 'zigbee2mqtt/living_room_sensor', payload);
    expect(values(items)).toEqual({
      battery: 100,
      humidity: 45.12,
      linkquality: 120,
      power_outage_count: 3,
      pressure: 1012.3,
      temperature: 21.47,
      voltage: 3005,
    });
    expect(units(items)).toEqual({
      battery: '%',
      humidity: '%',
      linkquality: 'lqi',
      pressure: 'hPa',
      temperature: '°C',
      voltage: 'mV',
    });
    expect(items[0]).toEqual({
      kind: 'reading',
      entity_name: 'living_room_sensor',
      metric: 'battery',
      value: 100,
      unit: '%',
      ts: Date.UTC(2026, 10, 30, 17, 10) / 1000,
      source: 'zigbee2mqtt',
      entity_type: 'device',
    });
  });

  it('reads an IKEA bulb with a color object, drops OTA bookkeeping, keeps friendly names with /', () => {
    const payload =
      '{"brightness":254,"color":{"x":0.4599,"y":0.4106},"color_mode":"color_temp","color_temp":370,"color_temp_startup":370,"linkquality":72,"power_on_behavior":"previous","state":"ON","update":{"installed_version":587765297,"latest_version":587765297,"state":"idle"},"update_available":false}';
    const items = parse(z2m, 'zigbee2mqtt/living room/lamp', payload);
    expect(items.every((i) => i.kind === 'reading' && i.entity_name === 'living room/lamp' && i.ts === undefined)).toBe(
      true,
    );
    expect(values(items)).toEqual({
      brightness: 254,
      'color.x': 0.4599,
      'color.y': 0.4106,
      color_mode: 'color_temp',
      color_temp: 370,
      color_temp_startup: 370,
      linkquality: 72,
      power_on_behavior: 'previous',
      state: 'ON',
    });
  });

  it('reads booleans, epoch-ms last_seen, volts on plugs, and skips arrays and nulls', () => {
    const items = parse(
      z2m,
      'zigbee2mqtt/plug',
      '{"state":"OFF","power":12.5,"voltage":231.4,"energy":3.21,"child_lock":false,"occupancy":true,"action":null,"scenes":[1,2],"temperature":"NaN","last_seen":1796058600000}',
    );
    expect(values(items)).toEqual({
      state: 'OFF',
      power: 12.5,
      voltage: 231.4,
      energy: 3.21,
      child_lock: false,
      occupancy: true,
    });
    expect(units(items)).toMatchObject({ voltage: 'V', power: 'W', energy: 'kWh' });
    expect(items[0]).toMatchObject({ ts: 1796058600 });
    expect(parse(z2m, 'zigbee2mqtt/plug', '{"state":"ON","last_seen":"garbage"}')[0]).not.toHaveProperty('ts');
  });

  it('ignores bridge, availability and command topics', () => {
    for (const t of [
      'zigbee2mqtt/bridge/state',
      'zigbee2mqtt/bridge/devices',
      'zigbee2mqtt/bridge/logging',
      'zigbee2mqtt/lamp/availability',
      'zigbee2mqtt/lamp/set',
      'zigbee2mqtt/lamp/set/brightness',
      'zigbee2mqtt/lamp/get',
      'other/lamp',
    ]) {
      expect(parse(z2m, t, '{"state":"online"}'), t).toEqual([]);
    }
  });

  it('reads output: attribute mode and uses learned units', () => {
    const ctx = context('UTC', { 'sensor|co2_custom': 'ppm' });
    expect(parse(z2m, 'zigbee2mqtt/sensor/temperature', '22.1', ctx)).toEqual([
      {
        kind: 'reading',
        entity_name: 'sensor',
        metric: 'temperature',
        value: 22.1,
        unit: '°C',
        source: 'zigbee2mqtt',
        entity_type: 'device',
      },
    ]);
    expect(parse(z2m, 'zigbee2mqtt/sensor', '{"co2_custom":400}', ctx)[0]).toMatchObject({ unit: 'ppm' });
  });

  it('refuses non-object payloads and keeps nesting bounded', () => {
    for (const p of ['', 'online', '[1,2]', '{"a":', '"x"', 'NaN'])
      expect(() => parse(z2m, 'zigbee2mqtt/lamp', p), p).toThrow(ParseError);
    const deep = '{"a":'.repeat(12) + '1' + '}'.repeat(12);
    expect(parse(z2m, 'zigbee2mqtt/x', deep)).toEqual([]);
    const eight = '{"a":'.repeat(8) + '1' + '}'.repeat(8);
    expect(values(parse(z2m, 'zigbee2mqtt/x', eight))).toEqual({ 'a.a.a.a.a.a.a.a': 1 });
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k${i}`, i])));
    expect(() => parse(z2m, 'zigbee2mqtt/x', wide)).toThrow(/more than 1000 fields/);
  });
});
