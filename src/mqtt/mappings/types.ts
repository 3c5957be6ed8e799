/**
 * The pure parsing layer of the MQTT bridge (SPEC §7). A `Mapping` turns one MQTT message into
 * zero or more `Ingest` items; the bridge validates each item with the tier's zod schema and hands
 * it to the matching service. Mappings do no I/O and keep no state between messages.
 */

/** A composite reading value (an object), already stripped of `__proto__`/`constructor`/`prototype`. */
export type CompositeValue = Record<string, unknown>;

/** One sensor reading → `timeseries.record`. `ts` is epoch seconds; absent means "arrival time". */
export interface ReadingIngest {
  kind: 'reading';
  entity_name: string;
  metric: string;
  value: number | string | boolean | CompositeValue;
  unit?: string;
  ts?: number;
  source: string;
  entity_type?: string;
}

/** A fact → `memory.remember`. */
export interface RememberIngest {
  kind: 'remember';
  entity_name: string;
  fact: string;
  category?: string;
  fact_key?: string;
  source_trust?: number | string;
  confidence?: number;
  source: string;
  /** Other payload keys (native topic), for the shared schema to accept or refuse. */
  [field: string]: unknown;
}

/** An object's place → `spatial.locate`. */
export interface LocateIngest {
  kind: 'locate';
  entity_name: string;
  container_name: string;
  confidence?: number;
  note?: string;
  source: string;
  /** Types used when the object / container entity is new (spatial defaults: object / room). */
  entity_type?: string;
  container_type?: string;
  /** When it was seen there (epoch s); absent means arrival time. */
  ts?: number;
  /** Other payload keys (native topic), for the shared schema to accept or refuse. */
  [field: string]: unknown;
}

/** A learned unit (Statestream `unit_of_measurement`): the bridge stores it and serves it back via `ctx.units`. */
export interface UnitIngest {
  kind: 'unit';
  entity_name: string;
  metric: string;
  unit: string;
}

/**
 * "The reading of entity/metric last published happened at `ts`" (Statestream `last_updated`).
 * Home Assistant publishes `…/state` BEFORE `…/last_updated`, so the time cannot be looked up while
 * parsing the state. A bridge that wants it holds the state reading briefly (per entity) and applies
 * this time if it arrives; a bridge that ignores it falls back to arrival time (SPEC §7).
 */
export interface TimestampIngest {
  kind: 'timestamp';
  entity_name: string;
  metric: string;
  ts: number;
  source: string;
}

/**
 * A Home Assistant MQTT discovery config: readings published on `state_topic` carry `unit`.
 * `value_key` is set when `value_template` is the simple `{{ value_json.KEY }}` form (e.g. the
 * Zigbee2MQTT discovery configs), so the bridge can key the unit by (entity, metric = KEY).
 */
export interface DiscoveryIngest {
  kind: 'discovery';
  component: string;
  /** The `<object_id>` level of the discovery topic (or the component key of a device config). */
  discovery_id: string;
  state_topic: string;
  unit?: string;
  value_template?: string;
  value_key?: string;
  device_class?: string;
  unique_id?: string;
  /** HA's entity id: `default_entity_id`, or `<component>.<object_id>` when the config names one. */
  ha_entity_id?: string;
  /**
   * The Hearth entity and metric that readings on `state_topic` become, filled in by
   * `createMappingSet` when one of its mappings reads that topic (so the bridge can key the unit).
   */
  entity_name?: string;
  metric?: string;
}

/**
 * A Home Assistant person entity's `friendly_name` (Statestream `person/<id>/friendly_name`): the
 * bridge hands it to the aliases service, which makes "Anna" and `person.anna` one entity.
 */
export interface AliasIngest {
  kind: 'alias';
  ha_entity_id: string;
  friendly_name: string;
  source: string;
}

export type Ingest =
  | ReadingIngest
  | RememberIngest
  | LocateIngest
  | UnitIngest
  | TimestampIngest
  | DiscoveryIngest
  | AliasIngest;

export interface MappingContext {
  /** IANA zone for device-local times without an offset (Tasmota `Time`): config `timeseries.timezone`. */
  timeZone: string;
  /** Units the bridge learned (Statestream attributes, discovery); used when a message carries none. */
  units: { get(entity: string, metric: string): string | undefined };
}

export interface Mapping {
  name: string;
  /** MQTT subscription filters, already re-rooted. */
  filters: string[];
  /**
   * Parse one message. Returns `[]` for messages that are deliberately ignored (bridge, availability,
   * non-data topics); throws `ParseError` (and nothing else) for malformed payloads.
   */
  parse(topic: string, payload: Buffer, ctx: MappingContext): Ingest[];
}

/** A payload or topic a mapping cannot read. The message is short: the bridge logs it per topic. */
export class ParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ParseError';
  }
}

export type { BuiltinConfig } from '../../config/mappings.js';
