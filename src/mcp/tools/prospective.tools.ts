/** Tier 4 tools, named as in the seed. Descriptions are written for the assistant that calls them. */
import type { Actor } from '../../tiers/audit/audit.repo.js';
import * as P from '../../tiers/prospective/prospective.schemas.js';
import type { ProspectiveService } from '../../tiers/prospective/prospective.service.js';
import { tool, type ToolTable } from '../tool.js';

export function prospectiveTools(table: ToolTable, s: { prospective: ProspectiveService }, actor: Actor): void {
  tool(
    table,
    'intend',
    'Remember to do something later, when a situation comes up: "remind me to ask Anna about the plumber when she gets home" → ' +
      'entity_name "Brian", trigger_text "when Anna gets home", action_text "ask Anna about the plumber". Write the trigger as the ' +
      'situation in plain words (names capitalised). once=true (default) fires it a single time; expires_ts stops it after a date.',
    P.IntendInput,
    (a) => s.prospective.intend(a, actor),
  );
  tool(
    table,
    'check_intentions',
    'Call with each user turn or household event ("Anna just got home") to see whether a stored intention should fire now. ' +
      'Returns triggered: [{id, trigger_text, action_text, score}] — act on each action_text (tell the user, do the task). ' +
      'Firing is recorded: once-intentions will not fire again. An empty list means nothing is due; do not invent reminders.',
    P.CheckIntentionsInput,
    (a) => s.prospective.check(a, actor),
  );
  tool(
    table,
    'dismiss_intention',
    'Deactivate an intention by intention_id when the user cancels it or it no longer applies. It is kept for the record, never deleted.',
    P.DismissIntentionInput,
    (a) => s.prospective.dismiss(a, actor),
    { destructiveHint: false, idempotentHint: true },
  );
  tool(
    table,
    'list_intentions',
    'List intentions (of entity_name, or everyone): what the home will remind about. active_only=false adds fired, dismissed and expired ones with their status.',
    P.ListIntentionsInput,
    (a) => s.prospective.list(a),
    { readOnlyHint: true },
  );
}
