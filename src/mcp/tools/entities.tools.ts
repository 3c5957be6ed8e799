/** Entity tools: merge two names of one thing, rename, say what an entity is (tiers/entities/manage.service.ts). */
import type { Services } from '../../services.js';
import type { Actor } from '../../tiers/audit/audit.repo.js';
import * as E from '../../tiers/entities/manage.schemas.js';
import { tool, type ToolTable } from '../tool.js';

export function entitiesTools(table: ToolTable, s: Services, actor: Actor): void {
  tool(
    table,
    'merge_entities',
    'Two entities turned out to be one (e.g. "Bryan" was a misspelling of "Brian", or "Mum" was stored apart from "Anna"): ' +
      'moves every fact, relation, reading, place, alias, conversation, reminder and task of source_name to target_name and ' +
      'keeps source_name as another name of the target. Call it first with dry_run: true to see what would move and tell the user; ' +
      'then send its source_id, target_id and version with the merge, so nothing that changed since is merged. ' +
      'When a name is not stored as an entity yet, use add_alias instead.',
    E.MergeEntitiesInput,
    (a) => s.manage.merge(a, actor),
    { destructiveHint: true },
  );
  tool(
    table,
    'rename_entity',
    'Give an entity a new name (a correction: "it\'s spelled Brian, not Bryan"); every fact and reading stays attached. ' +
      'Refused when the new name already names another entity: merge_entities joins the two. Renaming back undoes it.',
    E.RenameEntityInput,
    (a) => s.manage.rename(a, actor),
  );
  tool(
    table,
    'set_entity_type',
    'Say what an entity is (person, pet, room, device, sensor, object, place, …) when it was stored without a type or with the wrong one ' +
      '("Rex is our dog" → pet). Setting the old type back undoes it.',
    E.SetEntityTypeInput,
    (a) => s.manage.setType(a, actor),
    { idempotentHint: true },
  );
}
