/** Tier 1 tools, named as in the seed. Descriptions are written for the assistant that calls them. */
import type { Services } from '../../services.js';
import * as M from '../../tiers/memory/memory.schemas.js';
import * as A from '../../tiers/entities/aliases.schemas.js';
import type { Actor } from '../../tiers/audit/audit.repo.js';
import { tool, type ToolTable } from '../tool.js';

export function memoryTools(table: ToolTable, s: Services, actor: Actor): void {
  tool(
    table,
    'remember',
    'Store a durable fact about a person, room, device or object ("Brian keeps the bedroom at 68°F at night"). ' +
      'Use fact_key for single-valued facts (e.g. "bedroom_temp_night") so a later value replaces the old one. ' +
      'Restating a known fact confirms it instead of duplicating it. Returns action: added, reinforced, superseded or contested.',
    M.RememberInput,
    (a) => s.memory.remember(a, actor),
  );
  tool(
    table,
    'recall',
    'Search what the home remembers. mode "hybrid" (default) combines meaning and keywords; "keyword" needs no embedding model. ' +
      'Filter by entity_name or category; as_of answers "what was true then". Two tiers: `results` are what the home knows (empty when nothing answers — ' +
      'then say you do not know, do not guess); `possible` lists low-confidence candidates (low_confidence: true) when fewer than top_k results are confident — ' +
      'never state them as facts: ask the user ("Do you mean …?") or say you are not sure. possible: false returns confident results only.',
    M.RecallInput,
    (a) => s.memory.recall(a),
    { readOnlyHint: true },
  );
  tool(
    table,
    'get_context',
    'Relevance-filtered snapshot to ground a reply: the memories most relevant to query (and/or about entity_name), plus relationships. Prefer this before answering a personal question. ' +
      '`memories` are confident; `possible` (and the lines after "Not sure — possibly related:" in result) are low-confidence candidates: check them with the user before relying on them.',
    M.GetContextInput,
    (a) => s.context.getContext(a),
    { readOnlyHint: true },
  );
  tool(
    table,
    'get_profile',
    'Everything known about one entity: memories by category, relationships and (when recorded) latest readings and schedule.',
    M.ProfileInput,
    (a) => s.context.getProfile(a),
    { readOnlyHint: true },
  );
  tool(
    table,
    'relate',
    'Record a directed relationship: entity_a rel_type entity_b (e.g. Brian spouse_of Anna, Brian owns "blue Subaru"). Entities are created if new.',
    M.RelateInput,
    (a) => s.relations.relate(a, actor),
  );
  tool(
    table,
    'unrelate',
    'End a relationship that is no longer true (history is kept, nothing is deleted). Omit rel_type to end every relation from entity_a to entity_b.',
    M.UnrelateInput,
    (a) => s.relations.unrelate(a, actor),
    { destructiveHint: false },
  );
  tool(
    table,
    'get_related',
    'List the relationships of an entity (direction out, in or both); include_history adds ended ones.',
    M.GetRelatedInput,
    (a) => s.relations.getRelated(a),
    { readOnlyHint: true },
  );
  tool(
    table,
    'add_alias',
    'Give an entity another name, so both name the same person, room or device everywhere (e.g. "Mum" for "Anna", or "person.anna"). ' +
      'Refused when the alias already names another entity.',
    A.AliasInput,
    (a) => s.aliases.add(a, actor),
  );
  tool(
    table,
    'remove_alias',
    'Remove an alias of an entity (not its own name); the entity and everything about it stay.',
    A.UnaliasInput,
    (a) => s.aliases.remove(a, actor),
    { destructiveHint: false },
  );
  tool(
    table,
    'forget',
    'Permanently delete one memory (memory_id) or an entity with all its memories and relations (entity_name). Only when the user asks to forget. ' +
      'A name that is only another name of an entity (e.g. "Bryan" after Bryan was merged into Brian) is refused with the entity it means: tell the user, and pass confirm with that name only if they mean it.',
    M.ForgetInput,
    (a) => s.memory.forget(a, actor),
    { destructiveHint: true },
  );
  tool(
    table,
    'get_fading_memories',
    'Memories whose confidence has decayed below threshold (default 0.3), most faded first — candidates to confirm with the user or let go.',
    M.FadingInput,
    (a) => s.memory.fading(a),
    { readOnlyHint: true },
  );
}
