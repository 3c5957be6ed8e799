import { describe, expect, it } from 'vitest';
import { MAX_LINES, parseLineProtocol } from '../../../src/tiers/timeseries/line-protocol.js';

const NOW = 1_796_058_600;
const NS = '1796058600000000000';
const lp = (body: string, precision: Parameters<typeof parseLineProtocol>[1] = 'ns') =>
  parseLineProtocol(body, precision, NOW);

describe('line protocol: Home Assistant InfluxDB integration', () => {
  it('maps value to metric state of <domain>.<entity_id>, with the measurement as unit', () => {
    const body = `°C,domain=sensor,entity_id=bedroom_temperature,friendly_name=Bedroom\\ Temperature device_class_str="temperature",friendly_name_str="Bedroom Temperature",state_class_str="measurement",value=21.5 ${NS}`;
    expect(lp(body)).toEqual({
      points: [
        {
          kind: 'reading',
          entity_name: 'sensor.bedroom_temperature',
          metric: 'state',
          value: 21.5,
          unit: '°C',
          ts: NOW,
          source: 'influxdb',
          entity_type: 'sensor',
        },
      ],
      errors: [],
    });
  });

  it('prefers the state string over HA numeric coding; no unit when measurement is the entity id', () => {
    const body = `binary_sensor.front_door,domain=binary_sensor,entity_id=front_door device_class_str="door",friendly_name_str="Front door",state="off",value=0 ${NS}`;
    expect(lp(body).points).toEqual([
      {
        kind: 'reading',
        entity_name: 'binary_sensor.front_door',
        metric: 'state',
        value: 'off',
        ts: NOW,
        source: 'influxdb',
        entity_type: 'sensor',
      },
    ]);
    const counter = `sensor.visitors,domain=sensor,entity_id=visitors value=12 ${NS}`;
    expect(lp(counter).points[0]).not.toHaveProperty('unit');
  });

  it('keeps numeric attributes as metrics of the same name', () => {
    const body = `%,domain=sensor,entity_id=phone_battery battery_level=87,value=87,icon_str="mdi:battery" ${NS}`;
    expect(lp(body).points.map((p) => [p.metric, p.value, p.unit])).toEqual([
      ['battery_level', 87, undefined],
      ['state', 87, '%'],
    ]);
  });
});

describe('line protocol: Telegraf and generic', () => {
  it('uses the host tag as entity and <measurement>.<field> as metric', () => {
    const body = [
      '# telegraf output',
      `cpu,cpu=cpu-total,host=nas usage_idle=97.5,usage_user=1.2,usage_system=1.3 ${NS}`,
      '',
      `mem,host=nas active=1234567i,available_percent=63.5,total=8589934592u ${NS}`,
    ].join('\n');
    const { points, errors } = lp(body);
    expect(errors).toEqual([]);
    expect(points.map((p) => [p.entity_name, p.metric, p.value])).toEqual([
      ['nas', 'cpu.usage_idle', 97.5],
      ['nas', 'cpu.usage_user', 1.2],
      ['nas', 'cpu.usage_system', 1.3],
      ['nas', 'mem.active', 1234567],
      ['nas', 'mem.available_percent', 63.5],
      ['nas', 'mem.total', 8589934592],
    ]);
  });

  it('handles escapes in measurement, tags, field keys and string values', () => {
    const body = [
      `disk,device=sda1,fstype=ext4,host=my\\ nas,path=/mnt/my\\,data free=1024i,used\\ percent=12.5 ${NS}`,
      'weather\\ station,location=back\\ yard temp=21.5,note="said \\"hi\\" \\\\ bye, ok",raw="a\\b",ok=t',
      'room\\,1 entity\\=x=1',
    ].join('\r\n');
    const { points, errors } = lp(body);
    expect(errors).toEqual([]);
    expect(points.map((p) => [p.entity_name, p.metric, p.value, p.ts])).toEqual([
      ['my nas', 'disk.free', 1024, NOW],
      ['my nas', 'disk.used percent', 12.5, NOW],
      ['weather station', 'temp', 21.5, NOW],
      ['weather station', 'note', 'said "hi" \\ bye, ok', NOW],
      ['weather station', 'raw', 'a\\b', NOW],
      ['weather station', 'ok', true, NOW],
      ['room,1', 'entity=x', 1, NOW],
    ]);
  });

  it('uses the entity tag when there is no host, and reads every field type', () => {
    const body = 'sensors,entity=garage a=1,b=-2i,c=3u,d="x",e=T,f=false,g=FALSE,h=1e3,i=.5,j=-0.25 1796058600';
    const { points } = lp(body, 's');
    expect(Object.fromEntries(points.map((p) => [p.metric, p.value]))).toEqual({
      'sensors.a': 1,
      'sensors.b': -2,
      'sensors.c': 3,
      'sensors.d': 'x',
      'sensors.e': true,
      'sensors.f': false,
      'sensors.g': false,
      'sensors.h': 1000,
      'sensors.i': 0.5,
      'sensors.j': -0.25,
    });
    expect(points.every((p) => p.entity_name === 'garage' && p.ts === NOW)).toBe(true);
  });

  it('converts every precision (v1 and v2 names)', () => {
    for (const [p, ts] of [
      ['ns', NS],
      ['n', NS],
      ['us', '1796058600500000'],
      ['u', '1796058600500000'],
      ['ms', '1796058600500'],
      ['s', '1796058600'],
    ] as const) {
      const expected = p === 's' || p === 'ns' || p === 'n' ? NOW : NOW + 0.5;
      expect(lp(`m v=1 ${ts}`, p).points[0].ts, p).toBe(expected);
    }
    expect(lp('m v=1 -1000', 's').points[0].ts).toBe(-1000);
  });
});

describe('line protocol: errors', () => {
  it('reports each bad line by number and keeps the good ones', () => {
    const body = [
      'ok v=1',
      'nofields',
      'm v=',
      'm v=abc',
      'm,t v=1',
      'm,=x v=1',
      'm v="unterminated',
      'm v=1 12ab',
      'm v=1 1 2',
      'm v=NaN',
      'm v=Inf',
      'm v=9223372036854775808i',
      'm v=-1u',
      'm v=1 -99999999999999999999',
      ',t=1 v=1',
      'm v=1x,w=2',
      'm  v=2',
    ].join('\n');
    const { points, errors } = lp(body);
    expect(points.map((p) => p.value)).toEqual([1, 2]);
    expect(errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
    expect(errors.find((e) => e.line === 4)?.message).toMatch(/field "v" has an invalid value/);
    expect(errors.find((e) => e.line === 7)?.message).toMatch(/unterminated string/);
    expect(errors.find((e) => e.line === 8)?.message).toMatch(/invalid timestamp/);
    expect(errors.find((e) => e.line === 12)?.message).toMatch(/out of range/);
    expect(errors.find((e) => e.line === 14)?.message).toMatch(/timestamp out of range/);
  });

  it('refuses oversized bodies with one error', () => {
    const many = 'm v=1\n'.repeat(MAX_LINES + 1);
    expect(lp(many)).toEqual({ points: [], errors: [{ line: 0, message: `more than ${MAX_LINES} lines` }] });
    expect(lp('m v=1\n'.repeat(MAX_LINES)).points).toHaveLength(MAX_LINES);
    const big = `m s="${'x'.repeat(10 * 1024 * 1024)}"`;
    expect(lp(big).errors).toEqual([{ line: 0, message: 'body over 10485760 bytes' }]);
    expect(parseLineProtocol('m v=1', 'h' as never, NOW).errors[0].message).toMatch(/precision/);
  });
});
