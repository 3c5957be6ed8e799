import { describe, expect, it } from 'vitest';
import { nativeMapping } from '../../../src/mqtt/mappings/native.js';
import { ParseError } from '../../../src/mqtt/mappings/types.js';
import { context, parse } from './helpers.js';

const native = nativeMapping();

describe('native mapping', () => {
  it('subscribes under its root and re-roots', () => {
    expect(native.filters).toEqual(['hearth/record/+/+', 'hearth/remember/+', 'hearth/locate/+']);
    const m = nativeMapping({ enabled: true, root: 'house/hub' });
    expect(parse(m, 'house/hub/record/bedroom/temperature', '21.5')).toHaveLength(1);
    expect(parse(m, 'hearth/record/bedroom/temperature', '21.5')).toEqual([]);
  });

  it('reads plain numbers, booleans and categorical text', () => {
    expect(parse(native, 'hearth/record/living_room/temperature', ' 21.5\n')).toEqual([
      { kind: 'reading', entity_name: 'living_room', metric: 'temperature', value: 21.5, source: 'mqtt' },
    ]);
    expect(parse(native, 'hearth/record/brian/presence', 'home')[0]).toMatchObject({ value: 'home' });
    expect(parse(native, 'hearth/record/door/open', 'true')[0]).toMatchObject({ value: true });
    expect(parse(native, 'hearth/record/door/open', 'false')[0]).toMatchObject({ value: false });
    expect(parse(native, 'hearth/record/x/y', '-1e3')[0]).toMatchObject({ value: -1000 });
    expect(parse(native, 'hearth/record/x/y', '"21.5"')[0]).toMatchObject({ value: 21.5 });
    expect(parse(native, 'hearth/record/x/y', '0x10')[0]).toMatchObject({ value: '0x10' });
  });

  it('reads the JSON form with unit, ts (epoch or ISO with zone), source and composite values', () => {
    const [r] = parse(
      native,
      'hearth/record/bedroom/temperature',
      '{"value":21.5,"unit":"°C","ts":1796058600,"source":"esp32"}',
    );
    expect(r).toEqual({
      kind: 'reading',
      entity_name: 'bedroom',
      metric: 'temperature',
      value: 21.5,
      unit: '°C',
      ts: 1796058600,
      source: 'esp32',
    });
    expect(parse(native, 'hearth/record/b/t', '{"value":1,"ts":"2026-11-30T18:10:00+01:00"}')[0]).toMatchObject({
      ts: 1796058600,
    });
    const [c] = parse(
      native,
      'hearth/record/car/location',
      '{"value":{"lat":52.5,"lon":13.4,"__proto__":{"x":1},"constructor":2}}',
    );
    expect(c).toMatchObject({ value: { lat: 52.5, lon: 13.4 } });
    expect(Object.keys((c as { value: object }).value)).toEqual(['lat', 'lon']);
    expect(parse(native, 'hearth/record/a/b', '{"value":"21.5"}')[0]).toMatchObject({ value: '21.5' });
  });

  it('uses a learned unit when the payload has none', () => {
    const ctx = context('UTC', { 'bedroom|temperature': '°C' });
    expect(parse(native, 'hearth/record/bedroom/temperature', '20', ctx)[0]).toMatchObject({ unit: '°C' });
  });

  it('refuses malformed payloads with ParseError', () => {
    const bad = [
      '',
      '   ',
      'NaN',
      'Infinity',
      '-inf',
      '1e999',
      '{"value":null}',
      '{"unit":"C"}',
      '{"value":',
      '[1,2]',
      '{"value":1,"ts":"2026-11-30T18:10:00"}',
      '{"value":1,"ts":1e20}',
      '{"value":1,"unit":5}',
      '{"value":[1]}',
      '{"value":{}}',
      '{"value":"NaN"}',
      '{"value":" -Infinity"}',
    ];
    for (const p of bad) expect(() => parse(native, 'hearth/record/x/y', p), p).toThrow(ParseError);
    expect(() => parse(native, 'hearth/record/ /y', '1')).toThrow(ParseError);
    expect(() => parse(native, 'hearth/record/x/y', Buffer.from([0xff, 0xfe, 0x31]))).toThrow(/UTF-8/);
  });

  it('reads remember as text or JSON', () => {
    expect(parse(native, 'hearth/remember/Brian', 'Brian keeps the bedroom at 68°F at night')).toEqual([
      { kind: 'remember', entity_name: 'Brian', fact: 'Brian keeps the bedroom at 68°F at night', source: 'mqtt' },
    ]);
    expect(
      parse(
        native,
        'hearth/remember/Brian',
        '{"fact":"likes tea","category":"preference","fact_key":"drink","source_trust":"user","confidence":0.9}',
      ),
    ).toEqual([
      {
        kind: 'remember',
        entity_name: 'Brian',
        fact: 'likes tea',
        category: 'preference',
        fact_key: 'drink',
        source_trust: 'user',
        confidence: 0.9,
        source: 'mqtt',
      },
    ]);
    for (const p of [
      '',
      '{"category":"x"}',
      '{"fact":1}',
      '{"fact":"x","confidence":"high"}',
      '{"fact":"x","source_trust":{}}',
    ]) {
      expect(() => parse(native, 'hearth/remember/Brian', p), p).toThrow(ParseError);
    }
  });

  it('reads locate as text or JSON', () => {
    expect(parse(native, 'hearth/locate/keys', 'hallway')).toEqual([
      { kind: 'locate', entity_name: 'keys', container_name: 'hallway', source: 'mqtt' },
    ]);
    expect(
      parse(
        native,
        'hearth/locate/keys',
        '{"container_name":"kitchen drawer","confidence":0.8,"note":"left of the forks"}',
      )[0],
    ).toMatchObject({
      container_name: 'kitchen drawer',
      confidence: 0.8,
      note: 'left of the forks',
    });
    expect(() => parse(native, 'hearth/locate/keys', '{"container":"x"}')).toThrow(ParseError);
  });

  it('ignores its own event topics and other levels', () => {
    expect(parse(native, 'hearth/events/memory_added', '{}')).toEqual([]);
    expect(parse(native, 'hearth/record/a/b/c', '1')).toEqual([]);
  });
});
