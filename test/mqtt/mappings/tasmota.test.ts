import { describe, expect, it } from 'vitest';
import { parseLocalTime } from '../../../src/mqtt/mappings/local-time.js';
import { tasmotaMapping } from '../../../src/mqtt/mappings/tasmota.js';
import { ParseError, type Ingest } from '../../../src/mqtt/mappings/types.js';
import { context, parse, values } from './helpers.js';

const tasmota = tasmotaMapping();
const units = (items: Ingest[]) =>
  Object.fromEntries(items.flatMap((i) => (i.kind === 'reading' && i.unit ? [[i.metric, i.unit]] : [])));
const utc = (...a: [number, number, number, number, number]) => Date.UTC(...a) / 1000;

// Sonoff POW R2 (Tasmota 13), tele period 300.
const POW_SENSOR =
  '{"Time":"2026-11-30T18:10:00","ENERGY":{"TotalStartTime":"2019-12-14T18:12:20","Total":1.234,"Yesterday":0.456,"Today":0.123,"Period":0,"Power":45,"ApparentPower":52,"ReactivePower":26,"Factor":0.87,"Voltage":231,"Current":0.225}}';
const POW_STATE =
  '{"Time":"2026-11-30T18:10:00","Uptime":"0T01:02:03","UptimeSec":3723,"Heap":25,"SleepMode":"Dynamic","Sleep":50,"LoadAvg":19,"MqttCount":1,"POWER":"ON","Wifi":{"AP":1,"SSId":"home","BSSId":"AA:BB:CC:DD:EE:FF","Channel":6,"Mode":"11n","RSSI":80,"Signal":-60,"LinkCount":1,"Downtime":"0T00:00:03"}}';

describe('Tasmota mapping', () => {
  it('reads a Sonoff POW SENSOR message with local Time in ctx.timeZone', () => {
    const items = parse(tasmota, 'tele/sonoff_pow/SENSOR', POW_SENSOR, context('Europe/Berlin'));
    expect(values(items)).toEqual({
      'energy.total': 1.234,
      'energy.yesterday': 0.456,
      'energy.today': 0.123,
      'energy.period': 0,
      'energy.power': 45,
      'energy.apparentpower': 52,
      'energy.reactivepower': 26,
      'energy.factor': 0.87,
      'energy.voltage': 231,
      'energy.current': 0.225,
    });
    expect(units(items)).toMatchObject({
      'energy.total': 'kWh',
      'energy.power': 'W',
      'energy.voltage': 'V',
      'energy.current': 'A',
    });
    expect(items[0]).toMatchObject({
      entity_name: 'sonoff_pow',
      ts: utc(2026, 10, 30, 17, 10),
      source: 'tasmota',
      entity_type: 'device',
    });
    expect(parse(tasmota, 'tele/sonoff_pow/SENSOR', POW_SENSOR, context('America/New_York'))[0]).toMatchObject({
      ts: utc(2026, 10, 30, 23, 10),
    });
  });

  it('uses TempUnit/PressureUnit as units, and indexes multi-channel arrays', () => {
    const items = parse(
      tasmota,
      'tele/th/SENSOR',
      '{"Time":"2026-06-01T12:00:00","AM2301":{"Temperature":70.7,"Humidity":40.1,"DewPoint":45.2},"BME280":{"Temperature":21.5,"Pressure":1013.2},"ENERGY":{"Power":[45,12]},"TempUnit":"F","PressureUnit":"hPa"}',
    );
    expect(values(items)).toEqual({
      'am2301.temperature': 70.7,
      'am2301.humidity': 40.1,
      'am2301.dewpoint': 45.2,
      'bme280.temperature': 21.5,
      'bme280.pressure': 1013.2,
      'energy.power.1': 45,
      'energy.power.2': 12,
    });
    expect(units(items)).toEqual({
      'am2301.temperature': '°F',
      'am2301.humidity': '%',
      'am2301.dewpoint': '°F',
      'bme280.temperature': '°F',
      'bme280.pressure': 'hPa',
      'energy.power.1': 'W',
      'energy.power.2': 'W',
    });
    expect(items[0]).toMatchObject({ ts: utc(2026, 5, 1, 10, 0) });
  });

  it('reads STATE: power, dimmer, wifi, load, heap, uptime', () => {
    const items = parse(tasmota, 'tele/sonoff_pow/STATE', POW_STATE, context('UTC'));
    expect(values(items)).toEqual({
      power: 'ON',
      'wifi.rssi': 80,
      'wifi.signal': -60,
      loadavg: 19,
      heap: 25,
      uptimesec: 3723,
    });
    expect(items[0]).toMatchObject({ ts: utc(2026, 10, 30, 18, 10) });
    const multi = parse(
      tasmota,
      'tele/dimmer/STATE',
      '{"Time":"2026-11-30T18:10:00","POWER1":"ON","POWER2":"OFF","Dimmer":55}',
      context('UTC'),
    );
    expect(values(multi)).toEqual({ power1: 'ON', power2: 'OFF', dimmer: 55 });
  });

  it('falls back to arrival time before NTP sync, honours an explicit offset', () => {
    expect(parse(tasmota, 'tele/x/SENSOR', '{"Time":"1970-01-01T00:01:23","ANALOG":{"A0":512}}')[0]).not.toHaveProperty(
      'ts',
    );
    expect(
      parse(tasmota, 'tele/x/SENSOR', '{"Time":"2026-11-30T18:10:00+01:00","ANALOG":{"A0":512}}')[0],
    ).toMatchObject({ ts: utc(2026, 10, 30, 17, 10), metric: 'analog.a0' });
  });

  it('ignores LWT and other telemetry; refuses garbage', () => {
    expect(parse(tasmota, 'tele/x/LWT', 'Online')).toEqual([]);
    expect(parse(tasmota, 'tele/x/INFO1', '{"Module":"Sonoff Pow R2"}')).toEqual([]);
    expect(parse(tasmota, 'stat/x/RESULT', '{"POWER":"ON"}')).toEqual([]);
    for (const p of ['', 'Online', '[1]', '{"Time":"2026-02-30T10:00:00"}', '{"Time":"tomorrow"}']) {
      expect(() => parse(tasmota, 'tele/x/SENSOR', p), p).toThrow(ParseError);
    }
  });
});

describe('local time → UTC', () => {
  it('converts standard and summer time', () => {
    expect(parseLocalTime('2026-01-15T12:00:00', 'Europe/Berlin')).toBe(utc(2026, 0, 15, 11, 0));
    expect(parseLocalTime('2026-07-15T12:00:00', 'Europe/Berlin')).toBe(utc(2026, 6, 15, 10, 0));
    expect(parseLocalTime('2026-06-01T12:00:00', 'Asia/Kolkata')).toBe(utc(2026, 5, 1, 6, 30));
    expect(parseLocalTime('2026-06-01T12:00:00.250', 'UTC')).toBe(utc(2026, 5, 1, 12, 0) + 0.25);
    expect(parseLocalTime('not a time', 'UTC')).toBeUndefined();
  });

  it('takes the earlier instant for an ambiguous fall-back time', () => {
    expect(parseLocalTime('2026-10-25T02:30:00', 'Europe/Berlin')).toBe(utc(2026, 9, 25, 0, 30));
    expect(parseLocalTime('2026-11-01T01:30:00', 'America/New_York')).toBe(utc(2026, 10, 1, 5, 30));
    expect(parseLocalTime('2026-10-25T03:00:00', 'Europe/Berlin')).toBe(utc(2026, 9, 25, 2, 0));
  });

  it('moves a skipped spring-forward time forward by the gap', () => {
    expect(parseLocalTime('2026-03-29T02:30:00', 'Europe/Berlin')).toBe(utc(2026, 2, 29, 1, 30));
    expect(parseLocalTime('2026-03-08T02:30:00', 'America/New_York')).toBe(utc(2026, 2, 8, 7, 30));
    expect(parseLocalTime('2026-03-29T03:00:00', 'Europe/Berlin')).toBe(utc(2026, 2, 29, 1, 0));
  });

  it('refuses impossible dates and unknown zones', () => {
    expect(() => parseLocalTime('2026-13-01T00:00:00', 'UTC')).toThrow(ParseError);
    expect(() => parseLocalTime('2026-01-01T00:00:00', 'Mars/Olympus')).toThrow(ParseError);
  });
});
