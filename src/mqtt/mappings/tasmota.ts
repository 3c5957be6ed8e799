/**
 * Tasmota telemetry (SPEC §7), root `tele` (the `%prefix%` of the default FullTopic
 * `%prefix%/%topic%/`; custom FullTopics are not supported). Entity = `%topic%`.
 *
 * - `tele/<topic>/SENSOR`: every sensor value, keys lower-cased and flattened with `.`
 *   (`ENERGY.Power` → `energy.power`, `AM2301.Temperature` → `am2301.temperature`); multi-channel
 *   arrays become `energy.power.1`, `energy.power.2`. `TempUnit`/`PressureUnit`/`SpeedUnit` are the
 *   unit of the temperature/dew point, pressure and speed values, not metrics; other units come from
 *   a small table (ENERGY fields, humidity, illuminance, gases).
 * - `tele/<topic>/STATE`: `POWER`, `POWER1`… (categorical `ON`/`OFF`), `Dimmer`, `Wifi.RSSI`
 *   (`wifi.rssi`), `Wifi.Signal`, `LoadAvg`, `Heap`, `UptimeSec`. Everything else (the `Uptime`
 *   string, `SleepMode`, `MqttCount`, …) is left out.
 * - `Time` is the reading time: device-local WITHOUT an offset, read in `ctx.timeZone` (see
 *   `local-time.ts` for DST). With SetOption52 it carries an offset, which is honoured. A time before
 *   2000 means the device has no NTP time yet, so the arrival time is used instead.
 * - `tele/<topic>/LWT`, `INFO1..3`, `RESULT`, … → ignored.
 */
import { parseLocalTime } from './local-time.js';
import {
  deviceReading,
  deviceReadings,
  epochSeconds,
  flatten,
  isObject,
  name,
  parseJson,
  text,
  topicMapping,
} from './payload.js';
import { ParseError, type BuiltinConfig, type Ingest, type Mapping, type MappingContext } from './types.js';

const SOURCE = 'tasmota';
const NOT_SYNCED = 946_684_800; // 2000-01-01T00:00:00Z
const SENSOR_META = new Set(['time', 'epoch', 'tempunit', 'pressureunit', 'speedunit']);
const UNITS: Record<string, string> = {
  total: 'kWh',
  yesterday: 'kWh',
  today: 'kWh',
  period: 'Wh',
  power: 'W',
  apparentpower: 'VA',
  reactivepower: 'var',
  voltage: 'V',
  current: 'A',
  frequency: 'Hz',
  humidity: '%',
  illuminance: 'lx',
  co2: 'ppm',
  eco2: 'ppm',
  tvoc: 'ppb',
};
const STATE_FIELDS: [path: string[], metric: string, unit?: string][] = [
  [['Dimmer'], 'dimmer', '%'],
  [['Wifi', 'RSSI'], 'wifi.rssi', '%'],
  [['Wifi', 'Signal'], 'wifi.signal', 'dBm'],
  [['LoadAvg'], 'loadavg'],
  [['Heap'], 'heap', 'kB'],
  [['UptimeSec'], 'uptimesec', 's'],
];

/** The reading time of a Tasmota message, or undefined (arrival time). */
function tasmotaTime(json: Record<string, unknown>, ctx: MappingContext): number | undefined {
  const time = Object.hasOwn(json, 'Time') ? json.Time : undefined;
  const epoch = Object.hasOwn(json, 'Epoch') ? json.Epoch : undefined;
  let ts: number | undefined;
  if (typeof time === 'string') ts = parseLocalTime(time, ctx.timeZone) ?? epochSeconds(time, 'Time');
  else if (typeof epoch === 'number') ts = epochSeconds(epoch, 'Epoch');
  return ts !== undefined && ts >= NOT_SYNCED ? ts : undefined;
}

const tempUnit = (u: unknown) => (u === 'C' ? '°C' : u === 'F' ? '°F' : u === 'K' ? 'K' : undefined);
const plainUnit = (u: unknown) => (typeof u === 'string' && u !== '' && u.length <= 16 ? u : undefined);

function sensor(entity: string, json: Record<string, unknown>, ctx: MappingContext): Ingest[] {
  const ts = tasmotaTime(json, ctx);
  const temp = tempUnit(Object.hasOwn(json, 'TempUnit') ? json.TempUnit : undefined);
  const pressure = plainUnit(Object.hasOwn(json, 'PressureUnit') ? json.PressureUnit : undefined);
  const speed = plainUnit(Object.hasOwn(json, 'SpeedUnit') ? json.SpeedUnit : undefined);
  const fields = flatten(json, {
    arrays: 'index',
    key: (k) => k.toLowerCase(),
    omit: (k) => SENSOR_META.has(k) || k.endsWith('.totalstarttime'),
  });
  const unitOf = (metric: string) => {
    const leaf =
      metric
        .split('.')
        .filter((s) => !/^\d+$/.test(s))
        .pop() ?? metric;
    if (leaf === 'temperature' || leaf === 'dewpoint') return temp;
    if (leaf === 'pressure' || leaf === 'seapressure') return pressure;
    if (leaf === 'speed' || leaf === 'windspeed') return speed;
    return Object.hasOwn(UNITS, leaf) ? UNITS[leaf] : undefined;
  };
  return deviceReadings(SOURCE, entity, fields, unitOf, ctx, ts);
}

function state(entity: string, json: Record<string, unknown>, ctx: MappingContext): Ingest[] {
  const ts = tasmotaTime(json, ctx);
  const out: Ingest[] = [];
  for (const key of Object.keys(json)) {
    const v = json[key];
    if (/^POWER\d{0,2}$/.test(key) && typeof v === 'string' && v !== '' && v.length <= 16) {
      out.push(deviceReading(SOURCE, entity, key.toLowerCase(), v, undefined, ts));
    }
  }
  for (const [path, metric, unit] of STATE_FIELDS) {
    let v: unknown = json;
    for (const p of path) v = isObject(v) && Object.hasOwn(v, p) ? v[p] : undefined;
    if (typeof v === 'number' && Number.isFinite(v)) out.push(deviceReading(SOURCE, entity, metric, v, unit, ts));
  }
  return out;
}

export function tasmotaMapping(cfg: BuiltinConfig = { enabled: true, root: 'tele' }): Mapping {
  return topicMapping('tasmota', [`${cfg.root}/+/+`], (m, payload, ctx): Ingest[] => {
    if (m[1] !== 'SENSOR' && m[1] !== 'STATE') return [];
    const entity = name(m[0], 'device topic');
    const json = parseJson(text(payload));
    if (!isObject(json)) throw new ParseError(`${m[1]} payload is not a JSON object`);
    return m[1] === 'SENSOR' ? sensor(entity, json, ctx) : state(entity, json, ctx);
  });
}
