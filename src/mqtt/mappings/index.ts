/**
 * The MQTT bridge's mapping table (SPEC §7): the enabled mappings in routing order, and topic routing
 * (their config schema is config/mappings.ts). The bridge builds `createMappingSet(cfg)`, subscribes
 * to `set.filters()` and, for each message, calls `set.route(topic)?.parse(topic, payload, ctx)`.
 *
 * Routing order (first matching filter wins): user mappings (so a user can override a built-in),
 * native, discovery (before Statestream: both default to the `homeassistant` root, and a
 * `…/<object_id>/config` topic is discovery), Statestream, Zigbee2MQTT, Tasmota.
 */
import { owntracksMapping } from './owntracks.js';
import { discoveryMapping } from './discovery.js';
import { nativeMapping } from './native.js';
import { statestreamMapping } from './statestream.js';
import { tasmotaMapping } from './tasmota.js';
import { MappingsConfigSchema, type BuiltinConfig, type MappingsConfig } from '../../config/mappings.js';
import { matchTopic } from '../../lib/mqtt-topic.js';
import type { DiscoveryIngest, Ingest, Mapping, MappingContext, ReadingIngest } from './types.js';
import { userMapping } from './user.js';
import { zigbee2mqttMapping } from './zigbee2mqtt.js';

export { matchTopic, isValidFilter, filterWithin } from '../../lib/mqtt-topic.js';
export { MappingsConfigSchema, type MappingsConfig, type MappingsConfigInput } from '../../config/mappings.js';
export { ParseError } from './types.js';
export type { Ingest, Mapping, MappingContext } from './types.js';
export { UserMappingSchema } from '../../config/mappings.js';

const BUILTINS: [keyof Omit<MappingsConfig, 'user'>, (cfg: BuiltinConfig) => Mapping][] = [
  ['native', nativeMapping],
  ['discovery', discoveryMapping],
  ['statestream', statestreamMapping],
  ['zigbee2mqtt', zigbee2mqttMapping],
  ['tasmota', tasmotaMapping],
  ['owntracks', owntracksMapping as (cfg: BuiltinConfig) => Mapping],
];

/** The enabled mappings, in routing order. `cfg` defaults to the schema defaults. */
export function createMappings(cfg: MappingsConfig = MappingsConfigSchema.parse(undefined)): Mapping[] {
  const out = cfg.user.map((entry, i) => userMapping(entry, i));
  for (const [key, factory] of BUILTINS) if (cfg[key].enabled) out.push(factory(cfg[key]));
  return out;
}

/** The first mapping with a filter matching `topic`, or undefined. */
export function route(mappings: readonly Mapping[], topic: string): Mapping | undefined {
  return mappings.find((m) => m.filters.some((f) => matchTopic(f, topic) !== null));
}

/** The distinct subscription filters of `mappings`, in order. */
export function subscriptions(mappings: readonly Mapping[]): string[] {
  return [...new Set(mappings.flatMap((m) => m.filters))];
}

/** The mappings plus routing, as the bridge uses them. */
export interface MappingSet {
  readonly mappings: readonly Mapping[];
  /** Distinct subscription filters. */
  filters(): string[];
  /** The mapping that owns `topic`, or undefined (message ignored). */
  route(topic: string): Mapping | undefined;
}

/**
 * Build the enabled mappings and their router. Discovery items are completed here: the state topic
 * is routed to the mapping that reads it and parsed with a probe payload (`{"<value_key>": 0}` or
 * `0`), which names the Hearth entity/metric its readings get — so `entity_name`/`metric` on a
 * `discovery` item are exactly the key a later reading will look its unit up by.
 */
export function createMappingSet(cfg: MappingsConfig = MappingsConfigSchema.parse(undefined)): MappingSet {
  const mappings = createMappings(cfg);
  const resolve = (d: DiscoveryIngest, ctx: MappingContext): DiscoveryIngest => {
    const target = route(mappings, d.state_topic);
    if (!target || target.name === 'discovery') return d;
    const probe = d.value_key === undefined ? '0' : JSON.stringify(nest(d.value_key.split('.'), 0));
    try {
      const readings = target
        .parse(d.state_topic, Buffer.from(probe), ctx)
        .filter((i): i is ReadingIngest => i.kind === 'reading');
      const key = d.value_key?.toLowerCase();
      const r =
        key === undefined
          ? readings.length === 1
            ? readings[0]
            : undefined
          : readings.find((i) => i.metric.toLowerCase() === key);
      return r ? { ...d, entity_name: r.entity_name, metric: r.metric } : d;
    } catch {
      return d; // a state topic the probe cannot stand in for: the unit stays keyed by state_topic only
    }
  };
  const routed = mappings.map(
    (m): Mapping =>
      m.name !== 'discovery'
        ? m
        : {
            ...m,
            parse: (topic, payload, ctx): Ingest[] =>
              m.parse(topic, payload, ctx).map((i) => (i.kind === 'discovery' ? resolve(i, ctx) : i)),
          },
  );
  return {
    mappings: routed,
    filters: () => subscriptions(routed),
    route: (topic) => route(routed, topic),
  };
}

function nest(path: string[], leaf: unknown): unknown {
  return path.reduceRight<unknown>((acc, k) => ({ [k]: acc }), leaf);
}
