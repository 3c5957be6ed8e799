/** Tier 1.75 tools (working memory), named as in the seed. Descriptions are written for the assistant that calls them. */
import type { Actor } from '../../tiers/audit/audit.repo.js';
import * as W from '../../tiers/working/working.schemas.js';
import type { WorkingService } from '../../tiers/working/working.service.js';
import { tool, type ToolTable } from '../tool.js';

/** Registers the working-memory tools; `s` is typed structurally so `Services` (or a test object) fits. */
export function workingTools(table: ToolTable, s: { working: WorkingService }, actor: Actor): void {
  tool(
    table,
    'wm_open',
    'Open a scratchpad for a multi-step task that spans turns (planning a party, a shopping list being built, a repair in progress). ' +
      'Optional entity_name ties it to a person; ttl_seconds makes it expire on its own. Returns task_id for wm_set, wm_get and wm_close.',
    W.WmOpenInput,
    (a) => s.working.wmOpen(a, actor),
  );
  tool(
    table,
    'wm_set',
    'Write or overwrite one key/value slot in an open task (value is any JSON: text, number, list, object). ' +
      'Fails with conflict when the task is closed or expired — open a new task then.',
    W.WmSetInput,
    (a) => s.working.wmSet(a, actor),
    { idempotentHint: true },
  );
  tool(
    table,
    'wm_get',
    'Read a task scratchpad: one slot by key, or (without key) every slot plus the task status, entity and expiry. Use it to pick a task back up.',
    W.WmGetInput,
    (a) => s.working.wmGet(a),
    { readOnlyHint: true },
  );
  tool(
    table,
    'wm_list',
    'List task scratchpads by status (open by default; closed, expired or all) and optionally by entity_name — to find a task_id you no longer have.',
    W.WmListInput,
    (a) => s.working.wmList(a),
    { readOnlyHint: true },
  );
  tool(
    table,
    'wm_close',
    'Close a task when it is done. promote=true first saves all its slots as ONE long-term memory (trust 2, "inferred"; category general) ' +
      "about the task's entity — use it when the outcome is worth remembering (e.g. the final party plan), not for throwaway notes.",
    W.WmCloseInput,
    (a) => s.working.wmClose(a, actor),
  );
}
