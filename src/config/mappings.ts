/**
 * `[mqtt.mappings]` of the configuration (SPEC §7): which built-in MQTT mappings are on and under
 * which root, and the user mappings (`[[mqtt.mappings.user]]`, see src/mqtt/mappings/user.ts). Here,
 * outside the MQTT door, because the configuration schema (config/schema.ts) embeds it.
 */
import { z } from 'zod';
import { parsePath } from '../lib/json-path.js';
import { isValidFilter, isValidRoot, plusCount } from '../lib/mqtt-topic.js';

/** `{n}` (the n-th captured topic level) or `{#}` (everything `#` matched) in an entity/metric template. */
export const PLACEHOLDER = /\{(\d+|#)\}/g;

const Template = z.string().trim().min(1).max(200);
const Path = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((p) => parsePath(p) !== null, 'not a JSON path like $.a.b');

export const UserMappingSchema = z
  .object({
    topic: z.string().min(1).max(1024).refine(isValidFilter, 'not a valid MQTT topic filter'),
    entity: Template.describe('entity name template, e.g. "{1}"'),
    metric: Template.describe('metric name template, e.g. "{2}.{3}" or "temperature"'),
    value: Path.optional().describe('JSON path of the value in the payload, e.g. "$.temp"'),
    ts: Path.optional().describe('JSON path of the reading time (epoch seconds or ISO-8601 with a zone)'),
    unit: z.string().trim().min(1).max(32).optional(),
    source: z.string().trim().min(1).max(100).default('mqtt'),
    entity_type: z.string().trim().min(1).max(50).optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    const hasHash = m.topic.endsWith('#');
    const plus = plusCount(m.topic);
    for (const field of ['entity', 'metric'] as const) {
      const t = m[field];
      if (t.replace(PLACEHOLDER, '').match(/[{}]/)) {
        ctx.addIssue({ code: 'custom', path: [field], message: 'braces must form {n} or {#}' });
      }
      for (const [, p] of t.matchAll(PLACEHOLDER)) {
        const bad = p === '#' ? !hasHash : Number(p) < 1 || (!hasHash && Number(p) > plus);
        if (bad) ctx.addIssue({ code: 'custom', path: [field], message: `{${p}} has no wildcard in "${m.topic}"` });
      }
    }
  });
export type UserMapping = z.output<typeof UserMappingSchema>;
export type UserMappingInput = z.input<typeof UserMappingSchema>;

const Root = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine(isValidRoot, 'must be literal topic levels: no +, #, empty level or leading/trailing /');

const builtin = (root: string) =>
  z
    .object({ enabled: z.boolean().default(true), root: Root.default(root) })
    .strict()
    .prefault({});

/** `[mqtt.mappings]`: every built-in enabled by default, with its ecosystem's usual root. */
export const MappingsConfigSchema = z
  .object({
    native: builtin('hearth'),
    statestream: builtin('homeassistant'),
    zigbee2mqtt: builtin('zigbee2mqtt'),
    tasmota: builtin('tele'),
    owntracks: z
      .object({
        enabled: z.boolean().default(true),
        root: Root.default('owntracks'),
        /** Region names that mean presence = home. */
        home_regions: z.array(z.string().trim().min(1).max(100)).max(50).default(['home']),
      })
      .strict()
      .prefault({}),
    discovery: builtin('homeassistant'),
    user: z.array(UserMappingSchema).max(200).default([]),
  })
  .strict()
  .prefault({});
export type MappingsConfig = z.output<typeof MappingsConfigSchema>;
export type MappingsConfigInput = z.input<typeof MappingsConfigSchema>;

/** Config of one built-in mapping: can be switched off and re-rooted. */
export interface BuiltinConfig {
  enabled: boolean;
  root: string;
}
