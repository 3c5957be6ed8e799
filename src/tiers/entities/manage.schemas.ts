/** Entity management (manage.service.ts): merge, rename, change type, delete, end a relation. */
import { z } from 'zod';
import { distinctEntities, EntityName, EntityType, RowId } from '../../lib/schema.js';
import { bool, int, list, obj, str } from '../../lib/output.js';

const DryRun = z.boolean().default(false).describe('true: only say what would change (a preview); nothing is changed');
/** What a preview (dry_run) answered, sent back with the confirm: 409 when that is no longer what the name means. */
const PreviewedId = (what: string) =>
  z
    .number()
    .int()
    .positive()
    .optional()
    .describe(`the id of ${what} from the preview (dry_run); 409 when the name now names another entity`);
const Version = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .optional()
  .describe('the version from the preview (dry_run); 409 when what it holds changed since');
export const Confirm = EntityName.optional().describe(
  "when the name given is another name (an alias) of an entity: that entity's own name, to say you mean it (else 409 naming it)",
);

export const MergeEntitiesInput = z
  .strictObject({
    source_name: EntityName.describe(
      'the entity merged away, e.g. "Bryan"; its name stays as another name of the target',
    ),
    target_name: EntityName.describe('the entity that keeps everything, e.g. "Brian"'),
    dry_run: DryRun,
    source_id: PreviewedId('the source'),
    target_id: PreviewedId('the target'),
    version: Version,
    confirm: Confirm,
  })
  .refine(...distinctEntities('source_name', 'target_name', 'source_name and target_name must differ'));
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
  entity_id: PreviewedId('the entity'),
  version: Version,
  confirm: Confirm,
});
export type DeleteEntityInput = z.infer<typeof DeleteEntityInput>;

export const EndRelationInput = z.strictObject({
  relation_id: RowId.describe('the id of a current relation (GET /get_related lists them)'),
});
export type EndRelationInput = z.infer<typeof EndRelationInput>;

// What the operations answer besides `ok: true` (describe-only, for /docs).
/** What an entity holds, as a merge or a delete reports it (`dry_run: true` is the preview). */
const holdings = obj({
  entity: obj({ id: int, name: str, type: str }),
  version: str.describe('what the preview saw (its facts, names, kinds of readings…)'),
  counts: list({ key: str, n: int, label: str }),
  facts: z.array(z.unknown()),
  relations: z.array(str).describe('current relations, as sentences'),
  aliases: z.array(str),
});
export const MergeEntitiesOutput = z.looseObject({
  dry_run: bool,
  source_name: str,
  target_name: str,
  source_id: int.optional().describe('on a preview: send back with the confirm'),
  target_id: int.optional().describe('on a preview: send back with the confirm'),
  version: str.optional().describe('on a preview: send back with the confirm (409 when either changed since)'),
  moves: holdings,
  moved: obj({}).optional().describe('rows moved, by table (not on a preview)'),
});
export const RenameEntityOutput = z.looseObject({ entity_name: str, previous_name: str, changed: bool });
export const SetEntityTypeOutput = z.looseObject({ entity_name: str, type: str, previous_type: str, changed: bool });
export const DeleteEntityOutput = z.looseObject({
  dry_run: bool,
  entity_name: str,
  entity_id: int,
  version: str.optional().describe('on a preview: send back with entity_id on the confirm (409 when it changed since)'),
  deletes: holdings,
  deleted_memories: int.optional().describe('not on a preview'),
});
export const EndRelationOutput = z.looseObject({ ended: z.array(int), entity_a: str, entity_b: str, rel_type: str });
