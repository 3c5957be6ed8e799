/**
 * Tier 4 operations, named as in the seed (SPEC §6): each declared once for HTTP and MCP
 * (lib/operation.ts). Descriptions are written for the assistant that calls them.
 */
import { operationTable } from '../../lib/operation.js';
import { actorOf } from '../audit/audit.repo.js';
import * as P from './prospective.schemas.js';
import type { ProspectiveService } from './prospective.service.js';

type S = { prospective: ProspectiveService };

export const prospectiveOperations = operationTable<S>('prospective', (op) => [
  op({
    name: 'intend',
    http: { method: 'POST', path: '/intend' },
    input: P.IntendInput,
    output: P.IntendOutput,
    summary: 'Store an intention: when trigger_text happens, do action_text',
    description:
      'Remember to do something later, when a situation comes up: "remind me to ask Anna about the plumber when she gets home" → ' +
      'entity_name "Brian", trigger_text "when Anna gets home", action_text "ask Anna about the plumber". Write the trigger as the ' +
      'situation in plain words (names capitalised). once=true (default) fires it a single time; expires_ts stops it after a date.',
    call: (s, input, ctx) => s.prospective.intend(input, actorOf(ctx)),
  }),
  op({
    name: 'check_intentions',
    http: { method: 'POST', path: '/check_intentions' },
    input: P.CheckIntentionsInput,
    output: P.CheckIntentionsOutput,
    summary: 'Fire the active intentions this text is relevant to',
    description:
      'Call with each user turn or household event ("Anna just got home") to see whether a stored intention should fire now. ' +
      'Returns triggered: [{id, trigger_text, action_text, score}] — act on each action_text (tell the user, do the task). ' +
      'Firing is recorded: once-intentions will not fire again. An empty list means nothing is due; do not invent reminders.',
    call: (s, input, ctx) => s.prospective.check(input, actorOf(ctx)),
  }),
  op({
    name: 'dismiss_intention',
    http: { method: 'POST', path: '/dismiss_intention' },
    input: P.DismissIntentionInput,
    output: P.DismissIntentionOutput,
    summary: 'Deactivate an intention (kept for the record)',
    description:
      'Deactivate an intention by intention_id when the user cancels it or it no longer applies. It is kept for the record, never deleted.',
    annotations: { destructiveHint: false, idempotentHint: true },
    call: (s, input, ctx) => s.prospective.dismiss(input, actorOf(ctx)),
  }),
  op({
    name: 'list_intentions',
    http: { method: 'GET', path: '/intentions' },
    input: P.ListIntentionsInput,
    output: P.ListIntentionsOutput,
    summary: 'List intentions (?entity_name=X&active_only=true)',
    description:
      'List intentions (of entity_name, or everyone): what the home will remind about. active_only=false adds fired, dismissed and expired ones with their status.',
    annotations: { readOnlyHint: true },
    call: (s, input) => s.prospective.list(input),
  }),
]);
