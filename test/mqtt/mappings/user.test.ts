import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/mqtt/mappings/types.js';
import { UserMappingSchema, parsePath, userMapping } from '../../../src/mqtt/mappings/user.js';
import { context, parse } from './helpers.js';

const make = (entry: unknown) => userMapping(UserMappingSchema.parse(entry));

describe('user mappings', () => {
  it('fills {n} from + and each # level, {#} from the whole # remainder', () => {
    const m = make({ topic: 'home/+/sensor/#', entity: '{1}', metric: '{2}.{3}' });
    expect(parse(m, 'home/kitchen/sensor/temp/1', '21.5')).toEqual([
      { kind: 'reading', entity_name: 'kitchen', metric: 'temp.1', value: 21.5, source: 'mqtt' },
    ]);
    const hash = make({ topic: 'home/+/sensor/#', entity: '{1}', metric: '{#}' });
    expect(parse(hash, 'home/kitchen/sensor/temp/1', '1')[0]).toMatchObject({ metric: 'temp/1' });
    expect(() => parse(m, 'home/kitchen/sensor/temp', '1')).toThrow(/\{3\} has no match/);
    expect(parse(m, 'away/kitchen/sensor/temp', '1')).toEqual([]);
  });

  it('extracts values and times with JSON paths, coercing strings like plain payloads', () => {
    const m = make({
      topic: 'shellies/+/status',
      entity: '{1}',
      metric: 'temperature',
      value: '$.tmp.tC',
      ts: '$.unixtime',
      unit: '°C',
      source: 'shelly',
      entity_type: 'device',
    });
    expect(parse(m, 'shellies/shellyht-1/status', '{"tmp":{"tC":21.25,"tF":70.25},"unixtime":1796058600}')).toEqual([
      {
        kind: 'reading',
        entity_name: 'shellyht-1',
        metric: 'temperature',
        value: 21.25,
        unit: '°C',
        ts: 1796058600,
        source: 'shelly',
        entity_type: 'device',
      },
    ]);
    const s = make({ topic: 'x/+', entity: '{1}', metric: 'm', value: 'data.list[1]' });
    expect(parse(s, 'x/a', '{"data":{"list":["1","22.5"]}}')[0]).toMatchObject({ value: 22.5 });
    const whole = make({ topic: 'gps/+', entity: '{1}', metric: 'location', value: '$' });
    expect(parse(whole, 'gps/car', '{"lat":52.5,"lon":13.4}')[0]).toMatchObject({ value: { lat: 52.5, lon: 13.4 } });
    expect(parse(s, 'x/a', '{"data":{"list":[1,null]}}')).toEqual([]);
    expect(() => parse(s, 'x/a', '{"data":{}}')).toThrow(/not found/);
    expect(() => parse(s, 'x/a', '21')).toThrow(/not found/);
    expect(() => parse(s, 'x/a', 'plain')).toThrow(ParseError);
  });

  it('reads native-style payloads without a path, with config unit winning over learned', () => {
    const m = make({ topic: 'sensors/+/+', entity: '{1}', metric: '{2}' });
    expect(parse(m, 'sensors/garage/door', 'open')[0]).toMatchObject({
      entity_name: 'garage',
      metric: 'door',
      value: 'open',
    });
    expect(parse(m, 'sensors/garage/t', '{"value":4,"unit":"°C","ts":1796058600}')[0]).toMatchObject({
      value: 4,
      unit: '°C',
      ts: 1796058600,
    });
    const ctx = context('UTC', { 'garage|h': '%' });
    expect(parse(m, 'sensors/garage/h', '55', ctx)[0]).toMatchObject({ unit: '%' });
    const fixed = make({ topic: 'sensors/+/+', entity: '{1}', metric: '{2}', unit: 'lx' });
    expect(parse(fixed, 'sensors/garage/h', '55', ctx)[0]).toMatchObject({ unit: 'lx' });
  });

  it('validates entries', () => {
    const bad = [
      { topic: 'a/#/b', entity: 'x', metric: 'y' },
      { topic: 'a/+', entity: '{2}', metric: 'y' },
      { topic: 'a/+', entity: '{#}', metric: 'y' },
      { topic: 'a/+', entity: '{0}', metric: 'y' },
      { topic: 'a/+', entity: '{1', metric: 'y' },
      { topic: 'a/+', entity: '{1}', metric: 'y', value: '$.__proto__.x' },
      { topic: 'a/+', entity: '{1}', metric: 'y', value: '$..x' },
      { topic: 'a/+', entity: '{1}', metric: 'y', extra: 1 },
      { topic: 'a+/b', entity: 'x', metric: 'y' },
    ];
    for (const b of bad) expect(UserMappingSchema.safeParse(b).success, JSON.stringify(b)).toBe(false);
    expect(UserMappingSchema.parse({ topic: 'a/#', entity: '{1}', metric: '{5}' })).toMatchObject({ source: 'mqtt' });
    expect(parsePath('$')).toEqual([]);
    expect(parsePath("$['odd key'].b[2]")).toEqual(['odd key', 'b', 2]);
  });
});
