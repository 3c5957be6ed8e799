/**
 * Other names of an entity (SPEC §3): `person.anna`, "Anna" and "Mum" can be one entity. An alias
 * is resolved by the one name rule wherever an entity is named (entities.repo.ts `find`, and
 * `entityIdByKey` in SQL), so every tier reads and writes the same entity under any of its names.
 *
 * Set by hand (`add`/`remove`: POST /alias, /unalias, MCP add_alias/remove_alias), refused with a
 * conflict when the name already names another entity. From Home Assistant (`fromHomeAssistant`:
 * Statestream's `person/<id>/friendly_name`, the HA poller) by the rule in docs/identity.md: the
 * friendly name becomes an alias of the person entity, or the person entity id an alias of the
 * entity the friendly name already names — unless that entity is already another HA person's. Two
 * existing entities are never folded into one by a name (issue 35 item 5): that is a reported
 * conflict and a proposal (ha-proposals.ts) a person confirms on the admin entity page (the ordinary
 * merge, which keeps the old name as an alias).
 */
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { HubError, notFound } from '../../lib/errors.js';
import { nameKey } from '../../lib/names.js';
import type { Actor, AuditRepo } from '../audit/audit.repo.js';
import type { EntitiesRepo, EntityRow } from './entities.repo.js';
import type { AliasesRepo } from './aliases.repo.js';
import type { AliasInput, HaNamesInput, UnaliasInput } from './aliases.schemas.js';
import { UNKNOWN_TYPE } from './entity-types.js';
import { createHaProposals } from './ha-proposals.js';

export type AliasSource = 'manual' | 'homeassistant';

export interface AliasesDeps {
  db: Db;
  clock: Clock;
  entities: EntitiesRepo;
  audit: AuditRepo;
  /** Alias rows (built once in services.ts, shared with entity management). */
  repo: AliasesRepo;
  /** After a committed change: caches keyed by name (the ingest writer's, the MQTT bridge's) re-resolve. */
  onChanged?: () => void;
  log?: (msg: string) => void;
}

/** What a Home Assistant name did: the alias it added, nothing, or a conflict left alone (maybe proposed). */
export type HaNameAction = 'added' | 'aliased' | 'unchanged' | 'conflict';

/** A Home Assistant person entity id, as an entity's name or alias. */
const HA_PERSON = /^person\.[a-z0-9_]+$/i;

export function createAliasesService(deps: AliasesDeps) {
  const { db, clock, entities, audit, repo } = deps;
  const proposals = createHaProposals(repo, entities, audit);
  const log = deps.log ?? (() => {});

  /** Inserts an alias the caller has checked is free; the triggers of migration 011 guard the rest. */
  function put(e: EntityRow, alias: string, source: AliasSource, actor: Actor) {
    repo.insert(nameKey(alias), e.id, alias, source, clock.now());
    audit.record(actor, 'entity.alias', e.name, null, { alias, source });
  }

  /** Another HA person that `e` already is (its name or an alias), other than `haId`. */
  const otherPerson = (e: EntityRow, haId: string) =>
    [e.name, ...entities.aliases(e.id).map((a) => a.alias)].find(
      (n) => HA_PERSON.test(n) && nameKey(n) !== nameKey(haId),
    );

  function changed() {
    deps.onChanged?.();
  }

  /** One person entity and its friendly name, in the caller's transaction. */
  function haName(
    haId: string,
    friendly: string,
    actor: Actor,
  ): { action: HaNameAction; message: string; entity_name?: string; proposed?: boolean } {
    if (nameKey(haId) === nameKey(friendly))
      return { action: 'unchanged', message: `${haId}: the friendly name is the entity id` };
    proposals.closeOther(haId, friendly, actor);
    const ha = entities.find(haId);
    const named = entities.find(friendly);
    if (ha && named && ha.id === named.id)
      return { action: 'unchanged', message: `${friendly} is already ${ha.name}`, entity_name: ha.name };
    if (!named) {
      const e = ha ?? entities.ensure(haId, 'person');
      put(e, friendly, 'homeassistant', actor);
      return { action: 'added', message: `"${friendly}" is now another name of ${e.name}`, entity_name: e.name };
    }
    // One entity is at most one HA person: a second person's name never joins it.
    const person = otherPerson(named, haId);
    if (person)
      return {
        action: 'conflict',
        message:
          `${haId} says its name is "${friendly}", but ${named.name} is already Home Assistant's ${person}; not linked ` +
          `(two people are never made one by a name). If Home Assistant renamed a person, rename or unalias it in Hearth to match`,
        entity_name: ha?.name ?? named.name,
      };
    if (!ha) {
      put(named, haId, 'homeassistant', actor);
      if (named.type === UNKNOWN_TYPE) entities.fillType(named.id, 'person');
      return { action: 'aliased', message: `${haId} is now another name of ${named.name}`, entity_name: named.name };
    }
    // Two entities: a name never folds one that holds data into another. A person decides.
    const proposed = proposals.propose(haId, friendly, ha, named, actor);
    const message =
      `${haId} (friendly name "${friendly}") and ${named.name} are two entities; not merged — a name from Home Assistant never ` +
      `merges two entities. If they are one: confirm the merge proposed on ${named.name}'s admin page, or POST /entities/merge ` +
      `{"source_name": "${ha.name}", "target_name": "${named.name}"} (MCP merge_entities; ${ha.name} stays as another name of ${named.name})`;
    return { action: 'conflict', message, entity_name: ha.name, proposed };
  }

  return {
    /** Adds `alias` as another name of the entity `entity_name` names; a conflict when it names another entity. */
    add(input: AliasInput, actor: Actor = 'system', source: AliasSource = 'manual') {
      const out = db.transaction(() => {
        const e = entities.get(input.entity_name);
        const other = entities.find(input.alias);
        if (other?.id === e.id)
          return {
            result: `"${input.alias}" is already a name of ${e.name}`,
            entity_name: e.name,
            alias: input.alias,
            created: false,
          };
        if (other) {
          const how =
            nameKey(other.name) === nameKey(input.alias)
              ? `is the entity ${other.name}`
              : `is already an alias of ${other.name}`;
          throw new HubError(
            'conflict',
            `alias: "${input.alias}" ${how}; remove that alias, or merge the two (POST /voices/merge), first`,
          );
        }
        put(e, input.alias, source, actor);
        return {
          result: `"${input.alias}" is now another name of ${e.name}`,
          entity_name: e.name,
          alias: input.alias,
          created: true,
        };
      })();
      if (out.created) changed();
      return out;
    },

    /** Removes an alias (never an entity's own name); the entity keeps everything else. */
    remove(input: UnaliasInput, actor: Actor = 'system') {
      const out = db.transaction(() => {
        const row = repo.byKey(nameKey(input.alias));
        if (!row) {
          const e = entities.find(input.alias);
          if (e)
            throw new HubError(
              'conflict',
              `alias: "${input.alias}" is the name of ${e.name}, not an alias; rename or forget the entity instead`,
            );
          throw notFound(`alias: no entity has the alias "${input.alias}"`);
        }
        const e = entities.byId(row.entity_id)!;
        repo.remove(nameKey(input.alias));
        audit.record(actor, 'entity.unalias', e.name, { alias: row.alias, source: row.source }, null);
        return { result: `"${row.alias}" is no longer a name of ${e.name}`, entity_name: e.name, alias: row.alias };
      })();
      changed();
      return out;
    },

    /** Open merge proposals from Home Assistant names about one entity (the admin entity page). */
    proposals: (entityId: number) => proposals.of(entityId),

    /** An entity's other names (the admin entity page, /entities). */
    list(entityName: string) {
      const e = entities.get(entityName);
      const aliases = entities.aliases(e.id);
      return {
        result: aliases.length
          ? `${e.name} is also ${aliases.map((a) => `"${a.alias}"`).join(', ')}`
          : `${e.name} has no other names`,
        entity_name: e.name,
        aliases,
      };
    },

    /** Home Assistant person entities' friendly names, by the rule above; one result per name, in order. */
    fromHomeAssistant(input: HaNamesInput, actor: Actor = 'system') {
      const results = db.transaction(() =>
        input.names.map((n) => ({
          entity_id: n.entity_id,
          friendly_name: n.friendly_name,
          ...haName(n.entity_id, n.friendly_name, actor),
        })),
      )();
      for (const r of results) if (r.action === 'conflict') log(`aliases: ${r.message}`);
      if (results.some((r) => r.action !== 'unchanged' && r.action !== 'conflict')) changed();
      const counts = (a: HaNameAction) => results.filter((r) => r.action === a).length;
      return {
        result: results.map((r) => r.message).join('\n'),
        added: counts('added') + counts('aliased'),
        /** Always 0: a name never merges (issue 35 item 5); kept for clients that read it. */
        merged: 0,
        conflicts: counts('conflict'),
        /** Conflicts recorded as a merge proposal for a person to confirm (new ones; a replay proposes nothing again). */
        proposed: results.filter((r) => r.proposed).length,
        results,
      };
    },
  };
}
export type AliasesService = ReturnType<typeof createAliasesService>;
