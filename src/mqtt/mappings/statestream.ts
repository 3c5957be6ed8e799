/**
 * Home Assistant MQTT Statestream (SPEC §7), root = HA's `base_topic` (default here `homeassistant`).
 * Statestream publishes, retained, `<base>/<domain>/<object_id>/state` (raw state text), then with
 * `publish_timestamps` `…/last_updated` and `…/last_changed` (ISO text), then with
 * `publish_attributes` one topic per attribute (JSON-encoded: `"°C"`, `21`, `{…}`).
 *
 * Naming: entity = the HA entity_id `<domain>.<object_id>` (`sensor.bedroom_temperature`), metric =
 * `state` for every domain — the same pair the InfluxDB door produces for HA's `value`/`state` fields,
 * so both paths land on one series.
 *
 * - `…/state`: numeric text → number; any other text (`on`, `home`, `heat`) → categorical string;
 *   `unknown`, `unavailable`, empty → ignored (`[]`: HA's "no value", not a reading). A JSON-quoted
 *   state (`"21.5"`) is unquoted first. The unit comes from `ctx.units` (learned below).
 * - `…/unit_of_measurement` → `{kind:'unit', entity, metric:'state', unit}` for the bridge to store.
 * - `…/last_updated` → `{kind:'timestamp', …}`: it arrives AFTER the state it describes, so it cannot
 *   be looked up while parsing the state; see `TimestampIngest` for how the bridge may apply it.
 * - `person/<id>/friendly_name` → `{kind:'alias'}`: "Anna" becomes another name of `person.anna`
 *   (the rule is in docs/identity.md). Other domains' friendly names are not aliases: "Temperature"
 *   is the friendly name of many sensors.
 * - `…/last_changed` and all other attributes → ignored (attributes are not time series here; a
 *   user mapping can pick one up if needed).
 */
import { epochSeconds, learnedUnit, name, numeric, parseJson, text, topicMapping } from './payload.js';
import { haEntityType } from '../../tiers/entities/entity-types.js';
import { matchTopic } from '../../lib/mqtt-topic.js';
import { ParseError, type BuiltinConfig, type Ingest, type Mapping } from './types.js';

const SOURCE = 'homeassistant';
const NO_VALUE = new Set(['', 'unknown', 'unavailable']);
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Statestream payloads are raw text or JSON-encoded; a JSON string is unquoted, `null` is ''. */
function unquote(raw: string): string {
  const t = raw.trim();
  if (!t.startsWith('"')) return t;
  const v = parseJson(t);
  if (typeof v !== 'string') throw new ParseError('expected a JSON string');
  return v.trim();
}

/**
 * The time a Statestream `…/last_updated` payload names, for bridges that track it per entity:
 * `{entity_name, ts}` or null when the topic is not a `last_updated` topic under `root`.
 */
export function statestreamTimestamp(
  topic: string,
  payload: Buffer,
  root = 'homeassistant',
): { entity_name: string; ts: number } | null {
  const m = matchTopic(`${root}/+/+/last_updated`, topic);
  if (!m) return null;
  return { entity_name: name(`${m[0]}.${m[1]}`, 'entity'), ts: epochSeconds(unquote(text(payload)), 'last_updated') };
}

export function statestreamMapping(cfg: BuiltinConfig = { enabled: true, root: 'homeassistant' }): Mapping {
  return topicMapping('statestream', [`${cfg.root}/+/+/+`], (m, payload, ctx): Ingest[] => {
    const [domain, objectId, attribute] = m;
    if (domain === '' || objectId === '') return [];
    const entity = name(`${domain}.${objectId}`, 'entity');
    switch (attribute) {
      case 'state': {
        const state = unquote(text(payload));
        if (NO_VALUE.has(state.toLowerCase())) return [];
        if (state.length > 255 || CONTROL.test(state)) throw new ParseError('state is not a Home Assistant state');
        const n = numeric(state);
        const reading: Ingest = {
          kind: 'reading',
          entity_name: entity,
          metric: 'state',
          value: n ?? state,
          source: SOURCE,
        };
        const type = haEntityType(entity);
        if (type) reading.entity_type = type;
        const unit = learnedUnit(ctx, entity, 'state');
        return [unit === undefined ? reading : { ...reading, unit }];
      }
      case 'unit_of_measurement': {
        const unit = unquote(text(payload));
        if (unit === '' || unit === 'null') return [];
        if (unit.length > 32 || CONTROL.test(unit)) throw new ParseError('unit_of_measurement is not a unit');
        return [{ kind: 'unit', entity_name: entity, metric: 'state', unit }];
      }
      case 'last_updated': {
        const at = unquote(text(payload));
        if (at === '' || at === 'null') return [];
        return [
          {
            kind: 'timestamp',
            entity_name: entity,
            metric: 'state',
            ts: epochSeconds(at, 'last_updated'),
            source: SOURCE,
          },
        ];
      }
      case 'friendly_name': {
        if (domain !== 'person') return [];
        const friendly = unquote(text(payload));
        if (friendly === '' || friendly === 'null') return [];
        return [{ kind: 'alias', ha_entity_id: entity, friendly_name: friendly, source: SOURCE }];
      }
      default:
        return [];
    }
  });
}
