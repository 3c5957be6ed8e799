/**
 * Entity management operations (manage.service.ts): each declared once for HTTP and MCP
 * (lib/operation.ts). Descriptions are written for the assistant that calls them. Previews and a
 * no-op rename keep the examples (the fuzz tests' seeds) repeatable.
 */
import { operationTable } from '../../lib/operation.js';
import { actorOf } from '../audit/audit.repo.js';
import * as E from './manage.schemas.js';
import type { EntityManageService } from './manage.service.js';

type S = { manage: EntityManageService };

export const entitiesOperations = operationTable<S>('entities', (op) => [
  op({
    name: 'merge_entities',
    http: { method: 'POST', path: '/entities/merge' },
    input: E.MergeEntitiesInput,
    output: E.MergeEntitiesOutput,
    summary: 'Merge one entity into another (dry_run: what would move); the merged name stays as an alias',
    description:
      'Two entities turned out to be one (e.g. "Bryan" was a misspelling of "Brian", or "Mum" was stored apart from "Anna"): ' +
      'moves every fact, relation, reading, place, alias, conversation, reminder and task of source_name to target_name and ' +
      'keeps source_name as another name of the target. Call it first with dry_run: true to see what would move and tell the user; ' +
      'then send its source_id, target_id and version with the merge, so nothing that changed since is merged. ' +
      'When a name is not stored as an entity yet, use add_alias instead.',
    annotations: { destructiveHint: true },
    example: { source_name: 'Fuzz Mergeable', target_name: 'Fuzz Pet', dry_run: true },
    call: (s, input, ctx) => s.manage.merge(input, actorOf(ctx)),
  }),
  op({
    name: 'rename_entity',
    http: { method: 'POST', path: '/entities/rename' },
    input: E.RenameEntityInput,
    output: E.RenameEntityOutput,
    summary: 'Rename an entity (everything stays attached); 409 when the name is taken',
    description:
      'Give an entity a new name (a correction: "it\'s spelled Brian, not Bryan"); every fact and reading stays attached. ' +
      'Refused when the new name already names another entity: merge_entities joins the two. Renaming back undoes it.',
    example: { entity_name: 'Fuzz Renamable', new_name: 'Fuzz Renamable' },
    call: (s, input, ctx) => s.manage.rename(input, actorOf(ctx)),
  }),
  op({
    name: 'set_entity_type',
    http: { method: 'POST', path: '/entities/set_type' },
    input: E.SetEntityTypeInput,
    output: E.SetEntityTypeOutput,
    summary: 'Set what an entity is (person, pet, room, device, …)',
    description:
      'Say what an entity is (person, pet, room, device, sensor, object, place, …) when it was stored without a type or with the wrong one ' +
      '("Rex is our dog" → pet). Setting the old type back undoes it.',
    annotations: { idempotentHint: true },
    example: { entity_name: 'Fuzz Renamable', type: 'pet' },
    call: (s, input, ctx) => s.manage.setType(input, actorOf(ctx)),
  }),
  op({
    name: 'delete_entity',
    http: { method: 'POST', path: '/entities/delete' },
    mcp: false,
    input: E.DeleteEntityInput,
    output: E.DeleteEntityOutput,
    summary: 'Delete an entity with everything that belongs to it (dry_run: what would go)',
    description: 'Delete an entity with everything that belongs to it, after a dry_run preview (HTTP only).',
    annotations: { destructiveHint: true },
    example: { entity_name: 'Fuzz Deletable', dry_run: true },
    call: (s, input, ctx) => s.manage.delete(input, actorOf(ctx)),
  }),
  op({
    name: 'end_relation',
    http: { method: 'POST', path: '/entities/end_relation' },
    mcp: false,
    input: E.EndRelationInput,
    output: E.EndRelationOutput,
    summary: 'End one current relation by its id (history kept)',
    description: 'End one current relation by its id, keeping its history (HTTP only).',
    annotations: { destructiveHint: true },
    call: (s, input, ctx) => s.manage.endRelation(input, actorOf(ctx)),
  }),
]);
