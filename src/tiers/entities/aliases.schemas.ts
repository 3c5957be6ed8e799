/** Entity aliases: other names of one entity (SPEC §3; aliases.service.ts). */
import { z } from 'zod';
import { EntityName } from '../../lib/schema.js';

export const AliasInput = z.strictObject({
  entity_name: EntityName.describe('the entity, by its name or a name it already has, e.g. "Anna"'),
  alias: EntityName.describe('another name for it, e.g. "Mum" or "person.anna"; must not name another entity'),
});
export type AliasInput = z.infer<typeof AliasInput>;

export const UnaliasInput = z.strictObject({
  alias: EntityName.describe('the alias to remove, e.g. "Mum" (an entity\'s own name cannot be removed)'),
});
export type UnaliasInput = z.infer<typeof UnaliasInput>;

/** Home Assistant's entity ids are `<domain>.<object_id>`, lower-case letters, digits and `_`. */
const PersonEntityId = z
  .string()
  .trim()
  .max(255)
  .regex(
    /^person\.[a-z0-9_]+$/,
    'must be a Home Assistant person entity id, e.g. "person.anna" (only person entities\' names become aliases)',
  );

export const HaNamesInput = z.strictObject({
  names: z
    .array(
      z.strictObject({
        entity_id: PersonEntityId,
        friendly_name: EntityName.describe('HA\'s friendly_name, e.g. "Anna"'),
      }),
    )
    .min(1)
    .max(1000)
    .describe('person entities and their friendly names, e.g. [{"entity_id": "person.anna", "friendly_name": "Anna"}]'),
});
export type HaNamesInput = z.infer<typeof HaNamesInput>;
