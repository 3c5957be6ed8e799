/** Entity management (manage.service.ts): merge, rename, change type, delete, end a relation. */
import { z } from 'zod';
import { nameKey } from '../../lib/names.js';
import { EntityName, EntityType } from '../../lib/schema.js';

const DryRun = z.boolean().default(false).describe('true: only say what would change (a preview); nothing is changed');

export const MergeEntitiesInput = z
  .strictObject({
    source_name: EntityName.describe(
      'the entity merged away, e.g. "Bryan"; its name stays as another name of the target',
    ),
    target_name: EntityName.describe('the entity that keeps everything, e.g. "Brian"'),
    dry_run: DryRun,
  })
  .refine((v) => nameKey(v.source_name) !== nameKey(v.target_name), {
    message: 'source_name and target_name must differ',
    path: ['target_name'],
  });
export type MergeEntitiesInput = z.infer<typeof MergeEntitiesInput>;

export const RenameEntityInput = z.strictObject({
  entity_name: EntityName.describe('the entity, by its name or an alias, e.g. "Bryan"'),
  new_name: EntityName.describe('its new name, e.g. "Brian"; must not name another entity'),
});
export type RenameEntityInput = z.infer<typeof RenameEntityInput>;

export const SetEntityTypeInput = z.strictObject({
  entity_name: EntityName.describe('the entity, e.g. "Rex"'),
  type: EntityType.regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters').describe(
    'what it is: person, pet, room, device, sensor, object, place, …',
  ),
});
export type SetEntityTypeInput = z.infer<typeof SetEntityTypeInput>;

export const DeleteEntityInput = z.strictObject({
  entity_name: EntityName.describe('the entity to delete with everything that belongs to it, e.g. "old_sensor"'),
  dry_run: DryRun,
});
export type DeleteEntityInput = z.infer<typeof DeleteEntityInput>;

export const EndRelationInput = z.strictObject({
  relation_id: z.coerce
    .number()
    .int()
    .positive()
    .describe('the id of a current relation (GET /get_related lists them)'),
});
export type EndRelationInput = z.infer<typeof EndRelationInput>;
