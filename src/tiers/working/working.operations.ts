/**
 * Tier 1.75 operations (working memory), named as in the seed: each declared once for HTTP and MCP
 * (lib/operation.ts). Descriptions are written for the assistant that calls them.
 */
import { operationTable } from '../../lib/operation.js';
import { actorOf } from '../audit/audit.repo.js';
import * as W from './working.schemas.js';
import type { WorkingService } from './working.service.js';

type S = { working: WorkingService };

export const workingOperations = operationTable<S>('working', (op) => [
  op({
    name: 'wm_open',
    http: { method: 'POST', path: '/wm/open' },
    input: W.WmOpenInput,
    output: W.WmOpenOutput,
    summary: 'Open a task scratchpad (optional TTL and entity)',
    description:
      'Open a scratchpad for a multi-step task that spans turns (planning a party, a shopping list being built, a repair in progress). ' +
      'Optional entity_name ties it to a person; ttl_seconds makes it expire on its own. Returns task_id for wm_set, wm_get and wm_close.',
    example: { task_name: 'plan the party', entity_name: 'Anna', ttl_seconds: 3600 },
    call: (s, input, ctx) => s.working.wmOpen(input, actorOf(ctx)),
  }),
  op({
    name: 'wm_set',
    http: { method: 'POST', path: '/wm/set' },
    input: W.WmSetInput,
    output: W.WmSetOutput,
    summary: 'Set a key/value slot in an open task',
    description:
      'Write or overwrite one key/value slot in an open task (value is any JSON: text, number, list, object). ' +
      'Fails with conflict when the task is closed or expired — open a new task then.',
    annotations: { idempotentHint: true },
    call: (s, input, ctx) => s.working.wmSet(input, actorOf(ctx)),
  }),
  op({
    name: 'wm_unset',
    http: { method: 'POST', path: '/wm/unset' },
    input: W.WmUnsetInput,
    output: W.WmUnsetOutput,
    summary: 'Remove a key/value slot from an open task',
    description:
      'Remove one slot from an open task (take an item off a list being built, drop a step that no longer applies). ' +
      'removed: false when the task had no such key (nothing changed). Fails with conflict when the task is closed or expired.',
    annotations: { destructiveHint: true, idempotentHint: true },
    // The fuzz test's first task (its beforeAll opens it); a key it never sets, so the seed removes nothing others read.
    example: { task_id: 1, key: 'balloons' },
    call: (s, input, ctx) => s.working.wmUnset(input, actorOf(ctx)),
  }),
  op({
    name: 'wm_get',
    http: { method: 'POST', path: '/wm/get' },
    input: W.WmGetInput,
    output: W.WmTaskOutput,
    summary: 'One slot by key, or all slots with task metadata',
    description:
      'Read a task scratchpad: one slot by key, or (without key) every slot plus the task status, entity and expiry. Use it to pick a task back up.',
    annotations: { readOnlyHint: true },
    call: (s, input) => s.working.wmGet(input),
  }),
  op({
    name: 'wm_list',
    http: { method: 'GET', path: '/wm/list' },
    input: W.WmListInput,
    output: W.WmListOutput,
    summary: 'Tasks by status (open/closed/expired/all) and entity',
    description:
      'List task scratchpads by status (open by default; closed, expired or all) and optionally by entity_name — to find a task_id you no longer have.',
    annotations: { readOnlyHint: true },
    example: { status: 'all', limit: 10 },
    call: (s, input) => s.working.wmList(input),
  }),
  // `/wm/list` is a static route, so Fastify matches it before the parametric `/wm/:task_id`.
  op({
    name: 'wm_task',
    http: { method: 'GET', path: '/wm/:task_id' },
    mcp: false,
    input: W.WmGetInput.pick({ task_id: true }),
    output: W.WmTaskOutput,
    summary: 'All slots and metadata of a task',
    description: 'All slots and metadata of a task (HTTP only; MCP clients call wm_get).',
    annotations: { readOnlyHint: true },
    call: (s, input) => s.working.wmGet({ task_id: input.task_id }),
  }),
  op({
    name: 'wm_close',
    http: { method: 'POST', path: '/wm/close' },
    input: W.WmCloseInput,
    output: W.WmCloseOutput,
    summary: 'Close a task; promote=true saves the slots as one memory',
    description:
      'Close a task when it is done. promote=true first saves all its slots as ONE long-term memory (trust 2, "inferred"; category general) ' +
      "about the task's entity — use it when the outcome is worth remembering (e.g. the final party plan), not for throwaway notes.",
    call: (s, input, ctx) => s.working.wmClose(input, actorOf(ctx)),
  }),
]);
