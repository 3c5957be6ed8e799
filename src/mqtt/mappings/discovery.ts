/**
 * Home Assistant MQTT discovery configs (root = HA's `discovery_prefix`, default `homeassistant`):
 * `<prefix>/<component>/[<node_id>/]<object_id>/config`, and device-based discovery
 * `<prefix>/device/<object_id>/config` with a `components` (`cmps`) map.
 *
 * Each config with a `state_topic` becomes `{kind:'discovery', state_topic, unit?, value_key?, …}`:
 * the bridge stores it so readings later published on `state_topic` get the unit. Abbreviated keys
 * (`stat_t`, `unit_of_meas`, `val_tpl`, …) and the `~` topic base are expanded as HA does
 * (homeassistant/components/mqtt/discovery.py). An empty payload (entity removed) and configs without
 * a `state_topic` (buttons, triggers) are ignored.
 *
 * The state topic is only remembered, never subscribed to: discovery is metadata.
 */
import { entries, isObject, objectPayload, topicMapping } from './payload.js';
import type { BuiltinConfig, DiscoveryIngest, Ingest, Mapping } from './types.js';

const ABBREVIATIONS: Record<string, string> = {
  stat_t: 'state_topic',
  unit_of_meas: 'unit_of_measurement',
  val_tpl: 'value_template',
  dev_cla: 'device_class',
  uniq_id: 'unique_id',
  obj_id: 'object_id',
  def_ent_id: 'default_entity_id',
  cmps: 'components',
  p: 'platform',
};
/** `{{ value_json.temperature }}`, `{{ value_json.color.x }}`, `{{ value_json['co2'] }}` → the key. */
const SIMPLE_TEMPLATE = /^\{\{\s*value_json(?:((?:\.[A-Za-z_][\w]*)+)|\[\s*['"]([\w .-]+)['"]\s*\])\s*\}\}$/;
const MAX_COMPONENTS = 200;

/** Expand abbreviations and the `~` base in one config object (a fresh copy, forbidden keys dropped). */
function expand(raw: Record<string, unknown>, inherited: Record<string, unknown> = {}): Record<string, unknown> {
  const cfg: Record<string, unknown> = {};
  for (const [k, v] of entries(inherited)) cfg[k] = v;
  for (const [k, v] of entries(raw)) cfg[Object.hasOwn(ABBREVIATIONS, k) ? ABBREVIATIONS[k] : k] = v;
  const base = cfg['~'];
  if (typeof base === 'string') {
    for (const [k, v] of Object.entries(cfg)) {
      if (!k.endsWith('topic') || typeof v !== 'string' || v === '') continue;
      let t = v;
      if (t.startsWith('~')) t = base + t.slice(1);
      if (t.endsWith('~')) t = t.slice(0, -1) + base;
      cfg[k] = t;
    }
  }
  return cfg;
}

const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' && v.length <= 1024 ? v : undefined;

function toIngest(cfg: Record<string, unknown>, component: string, discoveryId: string): DiscoveryIngest | null {
  const stateTopic = str(cfg.state_topic);
  if (!stateTopic || /[+#\u0000]/.test(stateTopic)) return null;
  const d: DiscoveryIngest = { kind: 'discovery', component, discovery_id: discoveryId, state_topic: stateTopic };
  const unit = str(cfg.unit_of_measurement);
  if (unit !== undefined && unit.length <= 32) d.unit = unit;
  const template = str(cfg.value_template);
  if (template !== undefined) {
    d.value_template = template;
    const m = SIMPLE_TEMPLATE.exec(template.trim());
    const key = m ? (m[1] ? m[1].slice(1) : m[2]) : undefined;
    if (key && !key.split('.').some((k) => k === '__proto__' || k === 'constructor' || k === 'prototype'))
      d.value_key = key;
  }
  const deviceClass = str(cfg.device_class);
  if (deviceClass !== undefined) d.device_class = deviceClass;
  const uniqueId = str(cfg.unique_id);
  if (uniqueId !== undefined) d.unique_id = uniqueId;
  const entityId =
    str(cfg.default_entity_id) ?? (str(cfg.object_id) ? `${component}.${str(cfg.object_id)}` : undefined);
  if (entityId !== undefined && entityId.length <= 200) d.ha_entity_id = entityId;
  return d;
}

export function discoveryMapping(cfg: BuiltinConfig = { enabled: true, root: 'homeassistant' }): Mapping {
  const filters = [`${cfg.root}/+/+/config`, `${cfg.root}/+/+/+/config`];
  return topicMapping('discovery', filters, (m, payload): Ingest[] => {
    const component = m[0];
    const discoveryId = m[m.length - 1];
    const json = objectPayload(payload, 'discovery config is not a JSON object');
    if (!json) return [];
    const cfgObj = expand(json);
    if (component === 'device' && isObject(cfgObj.components)) {
      const { components, ...shared } = cfgObj;
      const out: Ingest[] = [];
      for (const [id, c] of entries(components as Record<string, unknown>).slice(0, MAX_COMPONENTS)) {
        if (!isObject(c)) continue;
        const one = expand(c, shared);
        const platform = str(one.platform);
        const d = platform ? toIngest(one, platform, id) : null;
        if (d) out.push(d);
      }
      return out;
    }
    const d = toIngest(cfgObj, component, discoveryId);
    return d ? [d] : [];
  });
}
