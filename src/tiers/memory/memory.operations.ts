/**
 * Tier 1 operations (memory, relationships, aliases, entities), named as in the seed (SPEC §6): each
 * declared once for HTTP and MCP (lib/operation.ts). Descriptions are written for the assistant that calls them.
 */
import { z } from 'zod';
import { operationTable } from '../../lib/operation.js';
import { actorOf } from '../audit/audit.repo.js';
import * as A from '../entities/aliases.schemas.js';
import * as M from './memory.schemas.js';
import * as O from './memory.outputs.js';
import type { ContextService } from '../context/context.service.js';
import type { AliasesService } from '../entities/aliases.service.js';
import type { EntitiesReader } from '../entities/entities.reader.js';
import type { MemoryService } from './memory.service.js';
import type { RelationsService } from './relations.service.js';

/** The services these operations call (the memory service without its repository, as services.ts hands it out). */
type S = {
  memory: Omit<MemoryService, 'repo'>;
  context: ContextService;
  relations: RelationsService;
  aliases: AliasesService;
  entities: EntitiesReader;
};

export const memoryOperations = operationTable<S>('memory', (op) => [
  op({
    name: 'remember',
    http: { method: 'POST', path: '/remember' },
    input: M.RememberInput,
    output: O.RememberOutput,
    summary: 'Store a fact about a person, room or device',
    description:
      'Store a durable fact about a person, room, device or object ("Brian keeps the bedroom at 68°F at night"). ' +
      'Use fact_key for single-valued facts (e.g. "bedroom_temp_night") so a later value replaces the old one. ' +
      'Restating a known fact confirms it instead of duplicating it. Returns action: added, reinforced, superseded or contested.',
    example: {
      entity_name: 'Fuzz Person',
      fact: 'Fuzz Person likes green tea in the morning',
      category: 'preference',
      confidence: 0.9,
      source: 'fuzz',
    },
    call: (s, input, ctx) => s.memory.remember(input, actorOf(ctx)),
  }),
  op({
    name: 'recall',
    http: { method: 'POST', path: '/recall' },
    input: M.RecallInput,
    output: O.RecallOutput,
    summary: 'Search memories (vector, keyword or hybrid)',
    description:
      'Search what the home remembers. mode "hybrid" (default) combines meaning and keywords; "keyword" needs no embedding model. ' +
      'Filter by entity_name or category; as_of answers "what was true then". Two tiers: `results` are what the home knows (empty when nothing answers — ' +
      'then say you do not know, do not guess); `possible` lists low-confidence candidates (low_confidence: true) when fewer than top_k results are confident — ' +
      'never state them as facts: ask the user ("Do you mean …?") or say you are not sure. possible: false returns confident results only.',
    annotations: { readOnlyHint: true },
    example: { query: 'green tea', entity_name: 'Fuzz Person', top_k: 5, mode: 'hybrid' },
    call: (s, input) => s.memory.recall(input),
  }),
  op({
    name: 'get_context',
    http: { method: 'POST', path: '/get_context' },
    input: M.GetContextInput,
    output: O.GetContextOutput,
    summary: 'Relevance-filtered context snapshot',
    description:
      'Relevance-filtered snapshot to ground a reply: the memories most relevant to query (and/or about entity_name), plus relationships. Prefer this before answering a personal question. ' +
      '`memories` are confident; `possible` (and the lines after "Not sure — possibly related:" in result) are low-confidence candidates: check them with the user before relying on them.',
    annotations: { readOnlyHint: true },
    example: { entity_name: 'Fuzz Person', query: 'tea', top_k: 5 },
    call: (s, input) => s.context.getContext(input),
  }),
  op({
    name: 'get_profile',
    http: { method: 'GET', path: '/profile/:entity_name' },
    input: M.ProfileInput,
    output: O.ProfileOutput,
    summary: 'Everything known about one entity',
    description:
      'Everything known about one entity: memories by category, relationships and (when recorded) latest readings and schedule.',
    annotations: { readOnlyHint: true },
    example: { entity_name: 'Fuzz Person' },
    call: (s, input) => s.context.getProfile(input),
  }),
  op({
    name: 'relate',
    http: { method: 'POST', path: '/relate' },
    input: M.RelateInput,
    output: O.RelateOutput,
    summary: 'Create a directed relationship',
    description:
      'Record a directed relationship: entity_a rel_type entity_b (e.g. Brian spouse_of Anna, Brian owns "blue Subaru"). Entities are created if new.',
    example: { entity_a: 'Fuzz Person', entity_b: 'Fuzz Friend', rel_type: 'knows', meta: { since: 2020 } },
    call: (s, input, ctx) => s.relations.relate(input, actorOf(ctx)),
  }),
  op({
    name: 'unrelate',
    http: { method: 'POST', path: '/unrelate' },
    input: M.UnrelateInput,
    output: O.UnrelateOutput,
    summary: 'End a relationship (history kept)',
    description:
      'End a relationship that is no longer true (history is kept, nothing is deleted). Omit rel_type to end every relation from entity_a to entity_b.',
    annotations: { destructiveHint: false },
    example: { entity_a: 'Fuzz Person', entity_b: 'Fuzz Friend', rel_type: 'knows' },
    call: (s, input, ctx) => s.relations.unrelate(input, actorOf(ctx)),
  }),
  op({
    name: 'get_related',
    http: { method: 'POST', path: '/get_related' },
    input: M.GetRelatedInput,
    output: O.GetRelatedOutput,
    summary: 'Relationships of an entity',
    description: 'List the relationships of an entity (direction out, in or both); include_history adds ended ones.',
    annotations: { readOnlyHint: true },
    example: { entity_name: 'Fuzz Person', direction: 'both' },
    call: (s, input) => s.relations.getRelated(input),
  }),
  op({
    name: 'add_alias',
    http: { method: 'POST', path: '/alias' },
    input: A.AliasInput,
    output: O.AliasOutput,
    summary: 'Give an entity another name ("Mum", "person.anna"); 409 when it names another entity',
    description:
      'Give an entity another name, so both name the same person, room or device everywhere (e.g. "Mum" for "Anna", or "person.anna"). ' +
      'Refused when the alias already names another entity.',
    example: { entity_name: 'Fuzz Person', alias: 'Fuzz Nickname' },
    call: (s, input, ctx) => s.aliases.add(input, actorOf(ctx)),
  }),
  op({
    name: 'remove_alias',
    http: { method: 'POST', path: '/unalias' },
    input: A.UnaliasInput,
    output: O.UnaliasOutput,
    summary: 'Remove an alias (the entity keeps everything else)',
    description: 'Remove an alias of an entity (not its own name); the entity and everything about it stay.',
    annotations: { destructiveHint: false },
    // 'Fuzz Nickname Two' is added in the fuzz test's beforeAll: /unalias is one-shot.
    example: { alias: 'Fuzz Nickname Two' },
    call: (s, input, ctx) => s.aliases.remove(input, actorOf(ctx)),
  }),
  op({
    name: 'list_aliases',
    http: { method: 'GET', path: '/aliases/:entity_name' },
    mcp: false,
    input: M.ProfileInput,
    output: O.AliasesOutput,
    summary: 'The other names of an entity',
    description: 'The other names of an entity (HTTP only).',
    example: { entity_name: 'Fuzz Person' },
    call: (s, input) => s.aliases.list(input.entity_name),
  }),
  op({
    name: 'alias_homeassistant',
    http: { method: 'POST', path: '/alias/homeassistant' },
    mcp: false,
    input: A.HaNamesInput,
    output: O.HaNamesOutput,
    summary: "Home Assistant person entities' friendly names as aliases (the HA poller)",
    description: "Home Assistant person entities' friendly names as aliases (HTTP only: the HA poller).",
    example: { names: [{ entity_id: 'person.fuzz_ha', friendly_name: 'Fuzz HA Person' }] },
    call: (s, input, ctx) => s.aliases.fromHomeAssistant(input, actorOf(ctx)),
  }),
  op({
    name: 'forget',
    http: { method: 'POST', path: '/forget' },
    input: M.ForgetInput,
    output: O.ForgetOutput,
    summary: 'Delete a memory or a whole entity',
    description:
      'Permanently delete one memory (memory_id) or an entity with all its memories and relations (entity_name). Only when the user asks to forget. ' +
      'A name that is only another name of an entity (e.g. "Bryan" after Bryan was merged into Brian) is refused with the entity it means: tell the user, and pass confirm with that name only if they mean it.',
    annotations: { destructiveHint: true },
    call: (s, input, ctx) => s.memory.forget(input, actorOf(ctx)),
  }),
  op({
    name: 'get_fading_memories',
    http: { method: 'GET', path: '/fading' },
    input: M.FadingInput,
    output: O.FadingOutput,
    summary: 'Memories whose confidence has decayed below a threshold',
    description:
      'Memories whose confidence has decayed below threshold (default 0.3), most faded first — candidates to confirm with the user or let go.',
    annotations: { readOnlyHint: true },
    example: { threshold: '0.5', limit: '10', entity_name: 'Fuzz Person' },
    call: (s, input) => s.memory.fading(input),
  }),
  op({
    name: 'list_entities',
    http: { method: 'GET', path: '/entities' },
    mcp: false,
    input: z.strictObject({
      type: z.string().max(50).optional(),
      limit: z.coerce.number().int().min(1).max(1000).default(500),
      offset: z.coerce.number().int().min(0).default(0),
    }),
    output: O.EntitiesOutput,
    summary: 'List entities',
    description: 'List entities with their memory counts (HTTP only).',
    example: { type: 'person', limit: '10', offset: '0' },
    call: (s, input) => {
      const entities = s.entities.list(input);
      return { result: entities.map((e) => `${e.name} (${e.type})`).join('\n') || 'No entities yet.', entities };
    },
  }),
]);
