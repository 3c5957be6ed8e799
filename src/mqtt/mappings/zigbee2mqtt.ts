/**
 * Zigbee2MQTT (SPEC §7), root `zigbee2mqtt` (z2m's `mqtt.base_topic`).
 *
 * `<root>/<friendly_name>` carries a JSON object of the device state. Friendly names may contain `/`
 * (`zigbee2mqtt/living room/lamp` → entity `living room/lamp`). Each number, boolean or string key
 * becomes a metric of that entity; nested objects are flattened with `.` (`color.x`), arrays are
 * ignored, null is ignored. Units come from a small table of z2m's standard exposes (below).
 *
 * - `last_seen` (z2m `advanced.last_seen`: ISO-8601 or epoch ms) is the reading time, not a metric;
 * - `linkquality` IS kept as a metric (unit `lqi`): a falling link quality is worth a pattern;
 * - bookkeeping keys are dropped: `update` / `update_available` (OTA), `device` (device info),
 *   `elapsed`;
 * - `<root>/bridge/#`, and topics ending `/availability` or with a `set`/`get` level (commands,
 *   `…/set/brightness`), are ignored;
 * - a scalar payload on `<root>/<name>/<attribute>` is z2m's `output: attribute` mode → entity
 *   `<name>`, metric `<attribute>`.
 */
import {
  deviceReadings,
  epochSeconds,
  flatten,
  guarded,
  isObject,
  looksLikeJson,
  name,
  parseJson,
  scalar,
  text,
} from './payload.js';
import { ParseError, type BuiltinConfig, type Ingest, type Mapping, type ReadingIngest } from './types.js';

const SOURCE = 'zigbee2mqtt';
const DROPPED = new Set(['last_seen', 'update', 'update_available', 'device', 'elapsed']);

/** Units of z2m's standard exposes (zigbee-herdsman-converters `lib/exposes.ts` presets). */
const UNITS: Record<string, string> = {
  temperature: '°C',
  local_temperature: '°C',
  device_temperature: '°C',
  current_heating_setpoint: '°C',
  occupied_heating_setpoint: '°C',
  humidity: '%',
  soil_moisture: '%',
  pressure: 'hPa',
  battery: '%',
  power: 'W',
  energy: 'kWh',
  current: 'A',
  illuminance: 'lx',
  illuminance_lux: 'lx',
  co2: 'ppm',
  voc: 'ppb',
  formaldehyd: 'mg/m³',
  pm25: 'µg/m³',
  pm10: 'µg/m³',
  linkquality: 'lqi',
  color_temp: 'mired',
};

/**
 * `voltage` is mV on battery devices (Aqara `3005`) but V on mains plugs (`230.4`): values under
 * 500 are read as volts.
 */
function unitFor(key: string, value: ReadingIngest['value']): string | undefined {
  if (key === 'voltage' && typeof value === 'number') return value < 500 ? 'V' : 'mV';
  return Object.hasOwn(UNITS, key) ? UNITS[key] : undefined;
}

/** `last_seen` → epoch seconds: ISO with a zone, or epoch milliseconds. Unreadable → arrival time. */
function lastSeen(v: unknown): number | undefined {
  try {
    if (typeof v === 'number') return epochSeconds(v / 1000, 'last_seen');
    if (typeof v === 'string') return epochSeconds(v, 'last_seen');
  } catch {
    // A bad last_seen does not spoil the state: fall back to arrival time.
  }
  return undefined;
}

export function zigbee2mqttMapping(cfg: BuiltinConfig = { enabled: true, root: 'zigbee2mqtt' }): Mapping {
  const prefix = `${cfg.root}/`;
  return {
    name: 'zigbee2mqtt',
    filters: [`${cfg.root}/#`],
    parse: guarded((topic, payload, ctx): Ingest[] => {
      if (!topic.startsWith(prefix)) return [];
      const levels = topic.slice(prefix.length).split('/');
      if (levels[0] === 'bridge') return [];
      const last = levels[levels.length - 1];
      if (last === 'availability' || levels.includes('set') || levels.includes('get')) return [];
      const raw = text(payload);
      const json = looksLikeJson(raw) ? parseJson(raw) : undefined;
      if (!isObject(json)) {
        // `output: attribute` mode: one value per topic (`zigbee2mqtt/<name>/<attribute>`).
        if (levels.length < 2) throw new ParseError('expected a JSON object');
        const value = typeof json === 'string' ? scalar(json) : json === undefined ? scalar(raw) : undefined;
        if (value === undefined) throw new ParseError('expected a JSON object or a single value');
        const entity = name(levels.slice(0, -1).join('/'), 'friendly name');
        const metric = name(last, 'attribute');
        return deviceReadings(SOURCE, entity, [[metric, value]], unitFor, ctx, undefined);
      }
      const entity = name(levels.join('/'), 'friendly name');
      const ts = lastSeen(Object.hasOwn(json, 'last_seen') ? json.last_seen : undefined);
      const fields = flatten(json, { arrays: 'skip', omit: (k) => DROPPED.has(k.split('.')[0]) });
      return deviceReadings(SOURCE, entity, fields, unitFor, ctx, ts);
    }),
  };
}
