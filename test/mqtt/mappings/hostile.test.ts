/**
 * Hostile corpus: 10,000 seeded random/garbage payloads through every mapping. The contract: only
 * ParseError escapes, nothing reaches Object.prototype, and whatever is returned is well-formed (finite
 * numbers, no forbidden keys). How fast (the slowest call, a 256 KiB refusal, the line-protocol parser)
 * is a row of `npm run bench` (scripts/bench/stopwatch.ts), not a bound here; the timeouts below are
 * sized for a loaded 2-core machine.
 */
import { describe, expect, it } from 'vitest';
import { createMappingSet, MappingsConfigSchema } from '../../../src/mqtt/mappings/index.js';
import { ParseError, type Ingest, type Mapping } from '../../../src/mqtt/mappings/types.js';
import { parseLineProtocol } from '../../../src/tiers/timeseries/line-protocol.js';
import { context, prng } from './helpers.js';

const CORPUS = 10_000;
const FORBIDDEN = ['__proto__', 'constructor', 'prototype'];

const REAL = [
  '{"battery":100,"humidity":45.12,"linkquality":120,"pressure":1012.3,"temperature":21.47,"voltage":3005,"last_seen":"2026-11-30T17:10:00.000Z"}',
  '{"brightness":254,"color":{"x":0.4599,"y":0.4106},"color_mode":"color_temp","state":"ON","update":{"state":"idle"}}',
  '{"Time":"2026-11-30T18:10:00","ENERGY":{"Total":1.234,"Power":[45,12],"Voltage":231},"AM2301":{"Temperature":21.5},"TempUnit":"C"}',
  '{"Time":"2026-11-30T18:10:00","UptimeSec":3723,"POWER":"ON","Wifi":{"RSSI":80}}',
  '{"value":{"lat":52.5,"lon":13.4},"unit":"°C","ts":"2026-11-30T18:10:00+01:00"}',
  '{"fact":"likes tea","category":"preference","confidence":0.9}',
  '{"~":"home/g","stat_t":"~/state","unit_of_meas":"°C","val_tpl":"{{ value_json.t }}","cmps":{"a":{"p":"sensor"}}}',
  '{"tmp":{"tC":21.25},"unixtime":1796058600}',
  '"21.5"',
  '21.5',
  'on',
  '2026-11-30T17:10:00.123456+00:00',
];
const SPECIALS: (string | Buffer)[] = [
  '['.repeat(10_000),
  '['.repeat(10_000) + ']'.repeat(10_000),
  '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000),
  '{"value":' + '{"a":'.repeat(30) + '1' + '}'.repeat(31),
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"value":{"__proto__":{"polluted":"yes"},"a":{"constructor":{"prototype":{"polluted":1}}}}}',
  '{"a":{"__proto__":{"polluted":1}},"prototype":{"polluted":1}}',
  '{"cmps":{"__proto__":{"p":"sensor","stat_t":"x"}},"__proto__":{"stat_t":"y"}}',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e999',
  '-1e999',
  '{"value":"NaN"}',
  '{"value":1e999}',
  '{"Time":"NaN","A":{"B":NaN}}',
  '',
  ' ',
  '\u0000',
  '\ufeff21.5',
  'null',
  'true',
  '{}',
  '[]',
  '""',
  '"\\ud800"',
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]),
];

const TOPICS: Record<string, string[]> = {
  owntracks: ['owntracks/anna/phone', 'owntracks/anna/phone/event', 'owntracks/__proto__/phone'],
  native: ['hearth/record/a/b', 'hearth/remember/a', 'hearth/locate/a', 'hearth/record/__proto__/constructor'],
  discovery: ['homeassistant/sensor/x/config', 'homeassistant/device/x/config', 'homeassistant/sensor/n/x/config'],
  statestream: [
    'homeassistant/sensor/x/state',
    'homeassistant/sensor/x/unit_of_measurement',
    'homeassistant/sensor/x/last_updated',
  ],
  zigbee2mqtt: [
    'zigbee2mqtt/lamp',
    'zigbee2mqtt/living room/lamp',
    'zigbee2mqtt/a/temperature',
    'zigbee2mqtt/__proto__',
  ],
  tasmota: ['tele/pow/SENSOR', 'tele/pow/STATE', 'tele/__proto__/SENSOR'],
};

function randomJson(r: ReturnType<typeof prng>, depth: number): unknown {
  const keys = [
    'a',
    'value',
    'fact',
    'Time',
    'ENERGY',
    'state_topic',
    'stat_t',
    '~',
    'cmps',
    'p',
    'last_seen',
    'tmp',
    'tC',
    '__proto__',
    'constructor',
    'prototype',
    '',
    'x'.repeat(150),
    '\u0000',
  ];
  switch (depth > 10 ? r.int(5) : r.int(8)) {
    case 0:
      return r.pick([0, -1, 1e308, -1e-308, 2 ** 53 + 1, 1796058600, 1796058600000, 0.1]);
    case 1:
      return r.pick([
        '',
        'on',
        'NaN',
        'Infinity',
        '2026-11-30T18:10:00',
        '2026-02-30T25:61:00Z',
        'x'.repeat(2000),
        '\u0000',
        '{{ value_json.__proto__ }}',
      ]);
    case 2:
      return r.pick([true, false, null]);
    case 3:
      return String(r.next());
    case 4:
      return r.next() * 1e6;
    case 5:
      return Array.from({ length: r.int(4) }, () => randomJson(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = r.int(6); i > 0; i--)
        Object.defineProperty(o, r.pick(keys), {
          value: randomJson(r, depth + 1),
          enumerable: true,
          configurable: true,
          writable: true,
        });
      return o;
    }
  }
}

function payload(r: ReturnType<typeof prng>, i: number): string | Buffer {
  switch (i % 6) {
    case 0:
      return Buffer.from(Array.from({ length: r.int(512) }, () => r.int(256)));
    case 1:
      return Array.from({ length: r.int(512) }, () => String.fromCharCode(32 + r.int(95))).join('');
    case 2: {
      const s = r.pick(REAL);
      return s.slice(0, r.int(s.length + 1));
    }
    case 3: {
      const s = r.pick(REAL).split('');
      for (let k = r.int(6); k >= 0; k--)
        s[r.int(s.length)] = r.pick(['{', '}', '[', ']', '"', ',', ':', '\\', '0', 'e', '-', '\u0000']);
      return s.join('');
    }
    case 4:
      return JSON.stringify(randomJson(r, 0)) ?? 'undefined';
    default:
      if (i % 600 === 5) return Buffer.alloc(256 * 1024 + 1 + r.int(1024), r.pick([0x7b, 0x5b, 0x31, 0x20]));
      return r.pick(SPECIALS);
  }
}

function checkWellFormed(items: Ingest[]): void {
  for (const item of items) {
    if (item.kind === 'reading') {
      if (typeof item.value === 'number') expect(Number.isFinite(item.value)).toBe(true);
      if (typeof item.value === 'string') expect(item.value.trim()).not.toMatch(/^$|^[+-]?(nan|inf|infinity)$/i);
      if (typeof item.value === 'object')
        expect(JSON.stringify(item.value)).not.toMatch(/"(__proto__|constructor|prototype)"/);
      expect(FORBIDDEN.some((f) => item.metric.split('.').includes(f))).toBe(false);
    }
    if ('ts' in item && item.ts !== undefined) expect(Number.isFinite(item.ts)).toBe(true);
  }
}

describe('hostile corpus', () => {
  it(`survives ${CORPUS} seeded garbage payloads on every mapping`, () => {
    const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort();
    const set = createMappingSet(
      MappingsConfigSchema.parse({
        user: [{ topic: 'custom/+/#', entity: '{1}', metric: '{#}', value: '$.tmp.tC', ts: '$.unixtime' }],
      }),
    );
    const targets: [Mapping, string[]][] = set.mappings.map((m) => [m, TOPICS[m.name] ?? ['custom/dev/a/b']]);
    const r = prng(0x4ea27);
    const ctx = context('Europe/Berlin', { 'a|b': '°C' });
    let parsed = 0;
    let refused = 0;
    for (let i = 0; i < CORPUS; i++) {
      const p = payload(r, i);
      const buf = typeof p === 'string' ? Buffer.from(p) : p;
      for (const [mapping, topics] of targets) {
        const topic = r.pick(topics);
        try {
          checkWellFormed(mapping.parse(topic, buf, ctx));
          parsed++;
        } catch (e) {
          if (!(e instanceof ParseError))
            throw new Error(`${mapping.name} threw ${String(e)} on payload #${i} (${topic})`);
          // `guarded` turns a stray error into ParseError('unexpected: …'): that would be a bug here.
          expect(e.message, `${mapping.name} on payload #${i}`).not.toMatch(/^unexpected/);
          refused++;
        }
      }
    }
    expect(parsed).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(1000);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore);
  }, 120_000);

  it('refuses payloads over 256 KiB before parsing', () => {
    const set = createMappingSet();
    const blob = Buffer.from(`{"value":"${'x'.repeat(256 * 1024)}"}`);
    for (const m of set.mappings) {
      expect(() => m.parse(TOPICS[m.name][0], blob, context())).toThrow(/over 262144 bytes/);
    }
  });

  it('never throws from the line-protocol parser', () => {
    const r = prng(7);
    const seeds = [
      'cpu,cpu=cpu-total,host=nas usage_idle=97.5,usage_user=1.2 1796058600000000000',
      '°C,domain=sensor,entity_id=t,friendly_name=T\\ x value=21.5,state="on",x_str="y" 1796058600000000000',
      'weather\\ station,location=back\\ yard temp=21.5,note="said \\"hi\\"" 1',
    ];
    for (let i = 0; i < 2000; i++) {
      const lines = Array.from({ length: 1 + r.int(20) }, () => {
        const s = r.pick(seeds).split('');
        for (let k = r.int(8); k >= 0; k--)
          s[r.int(s.length)] = r.pick([',', '=', ' ', '"', '\\', '#', 'i', 'u', '\n', '\u0000', '9', '-']);
        return r.next() < 0.2
          ? String.fromCharCode(...Array.from({ length: r.int(80) }, () => r.int(0xffff)))
          : s.join('');
      });
      const out = parseLineProtocol(
        lines.join(r.pick(['\n', '\r\n'])),
        r.pick(['ns', 'us', 'ms', 's', 'n', 'u'] as const),
        1796058600,
      );
      for (const p of out.points) {
        expect(Number.isFinite(p.ts)).toBe(true);
        if (typeof p.value === 'number') expect(Number.isFinite(p.value)).toBe(true);
      }
      for (const e of out.errors) expect(e.line).toBeGreaterThan(0);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 60_000);
});
