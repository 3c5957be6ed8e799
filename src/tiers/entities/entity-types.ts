/**
 * Entity types (SPEC §3: open strings). Nothing invents one: an entity first named without a type
 * is `unknown`, and the first later reference that carries a type fills it in (`person`, `room`,
 * `device`, …); a known type is never overwritten by another door's guess. What the doors say:
 *
 * - `remember`, `record`, `relate` without `entity_type`: nothing (unknown).
 * - Home Assistant (Statestream, its InfluxDB integration): by domain — `sensor.*` and
 *   `binary_sensor.*` are `sensor`, `person.*` a `person`, lights, switches and other actuators
 *   `device`; other domains say nothing.
 * - Zigbee2MQTT and Tasmota: `device`. OwnTracks users: `person`.
 * - `locate`: the object is an `object` and its container a `room` unless the call says otherwise.
 */
import type { Db } from '../../db/open.js';

export const UNKNOWN_TYPE = 'unknown';

/** The one statement that fills a type in: `run(type, now, id)` changes an entity only while it is unknown. */
export const fillTypeStatement = (db: Db) => db.prepare(`UPDATE entities SET type = ?, updated = ? WHERE id = ? AND type = '${UNKNOWN_TYPE}'`);

const HA_DOMAIN_TYPES: Record<string, string> = {
  sensor: 'sensor',
  binary_sensor: 'sensor',
  person: 'person',
  device_tracker: 'device',
  light: 'device',
  switch: 'device',
  climate: 'device',
  fan: 'device',
  cover: 'device',
  lock: 'device',
  media_player: 'device',
  vacuum: 'device',
  camera: 'device',
  humidifier: 'device',
  water_heater: 'device',
};

/** The type a Home Assistant entity id (`domain.object_id`) implies, or undefined. */
export function haEntityType(entityId: string): string | undefined {
  const dot = entityId.indexOf('.');
  return dot > 0 ? HA_DOMAIN_TYPES[entityId.slice(0, dot)] : undefined;
}
