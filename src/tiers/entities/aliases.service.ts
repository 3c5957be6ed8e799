/**
 * Other names of an entity (SPEC §3): `person.anna`, "Anna" and "Mum" can be one entity. An alias
 * is resolved by the one name rule wherever an entity is named (entities.repo.ts `find`, and
 * `entityIdByKey` in SQL), so every tier reads and writes the same entity under any of its names.
 *
 * Set by hand (`add`/`remove`: POST /alias, /unalias, MCP add_alias/remove_alias), refused with a
 * conflict when the name already names another entity. From Home Assistant (`fromHomeAssistant`:
 * Statestream's `person/<id>/friendly_name`, the HA poller) by the rule in docs/identity.md: the
 * friendly name becomes an alias of the person entity, or the person entity id an alias of the
 * entity the friendly name already names; two existing entities are folded into one only when one of
 * them holds nothing but readings (what HA itself sent) — never when both hold facts: that is
 * reported and logged, and left to a person (POST /entities/merge, which keeps the old name as an alias).
 */
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { HubError, notFound } from '../../lib/errors.js';
import { nameKey } from '../../lib/names.js';
import type { Actor, AuditRepo } from '../audit/audit.repo.js';
import { countReferences, moveEntity } from '../voices/merge.js';
import { createPrintStore } from '../voices/prints.js';
import type { EntitiesRepo, EntityRow } from './entities.repo.js';
import type { AliasInput, HaNamesInput, UnaliasInput } from './aliases.schemas.js';
import { UNKNOWN_TYPE, fillTypeStatement } from './entity-types.js';

export type AliasSource = 'manual' | 'homeassistant';

export interface AliasesDeps {
  db: Db;
  clock: Clock;
  entities: EntitiesRepo;
  audit: AuditRepo;
  /** After a committed change: caches keyed by name (the ingest writer's, the MQTT bridge's) re-resolve. */
  onChanged?: () => void;
  /** After a fold moved readings: rebuild the rollups it dropped. */
  rollup?: () => void;
  log?: (msg: string) => void;
}

/** What a Home Assistant name did: the alias it added, a fold, nothing, or a conflict left alone. */
export type HaNameAction = 'added' | 'aliased' | 'merged' | 'unchanged' | 'conflict';

/** References that readings alone make: an entity with nothing else holds no facts (see the rule above). */
const READINGS_ONLY = new Set(['series.entity_id', 'readings', 'entity_aliases.entity_id']);

export function createAliasesService(deps: AliasesDeps) {
  const { db, clock, entities, audit } = deps;
  const insert = db.prepare(
    'INSERT INTO entity_aliases (name_key, entity_id, alias, source, created) VALUES (?, ?, ?, ?, ?)',
  );
  const byKey = db.prepare('SELECT name_key, entity_id, alias, source FROM entity_aliases WHERE name_key = ?');
  const remove = db.prepare('DELETE FROM entity_aliases WHERE name_key = ?');
  const fillType = fillTypeStatement(db);
  const prints = createPrintStore(db, clock);
  const log = deps.log ?? (() => {});

  /** Inserts an alias the caller has checked is free; the triggers of migration 011 guard the rest. */
  function put(e: EntityRow, alias: string, source: AliasSource, actor: Actor) {
    insert.run(nameKey(alias), e.id, alias, source, clock.now());
    audit.record(actor, 'entity.alias', e.name, null, { alias, source });
  }

  const holdsOnlyReadings = (id: number) =>
    Object.entries(countReferences(db, id)).every(([k, n]) => n === 0 || READINGS_ONLY.has(k));

  function changed() {
    deps.onChanged?.();
  }

  /** One person entity and its friendly name, in the caller's transaction. */
  function haName(
    haId: string,
    friendly: string,
    actor: Actor,
  ): { action: HaNameAction; message: string; entity_name?: string; merged?: string } {
    if (nameKey(haId) === nameKey(friendly))
      return { action: 'unchanged', message: `${haId}: the friendly name is the entity id` };
    const ha = entities.find(haId);
    const named = entities.find(friendly);
    if (ha && named && ha.id === named.id)
      return { action: 'unchanged', message: `${friendly} is already ${ha.name}`, entity_name: ha.name };
    if (!named) {
      const e = ha ?? entities.ensure(haId, 'person');
      put(e, friendly, 'homeassistant', actor);
      return { action: 'added', message: `"${friendly}" is now another name of ${e.name}`, entity_name: e.name };
    }
    if (!ha) {
      put(named, haId, 'homeassistant', actor);
      if (named.type === UNKNOWN_TYPE) fillType.run('person', clock.now(), named.id);
      return { action: 'aliased', message: `${haId} is now another name of ${named.name}`, entity_name: named.name };
    }
    // Two entities exist. Fold one into the other only when it holds nothing but readings.
    const [from, into] = holdsOnlyReadings(ha.id)
      ? [ha, named]
      : holdsOnlyReadings(named.id)
        ? [named, ha]
        : [null, null];
    if (!from || !into) {
      const message =
        `${haId} (friendly name "${friendly}") and ${named.name} are two entities that both hold facts; ` +
        `not merged. To make them one: POST /entities/merge {"source_name": "${haId}", "target_name": "${named.name}"} ` +
        `(MCP merge_entities; ${haId} stays as another name of ${named.name})`;
      return { action: 'conflict', message, entity_name: ha.name };
    }
    const before = countReferences(db, from.id);
    moveEntity(db, prints, from.id, into.id, into.name, clock.now());
    // The folded entity's own name and the friendly name both mean the survivor now.
    for (const name of [from.name, friendly])
      if (!entities.find(name)) insert.run(nameKey(name), into.id, name, 'homeassistant', clock.now());
    audit.record(
      actor,
      'entity.alias_merge',
      into.name,
      { folded: from.name, counts: before },
      { aliases: [from.name, friendly] },
    );
    return {
      action: 'merged',
      message: `${from.name} held only readings: folded into ${into.name}, which now also answers to ${from.name} and "${friendly}"`,
      entity_name: into.name,
      merged: from.name,
    };
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
        const row = byKey.get(nameKey(input.alias)) as { entity_id: number; alias: string; source: string } | undefined;
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
        remove.run(nameKey(input.alias));
        audit.record(actor, 'entity.unalias', e.name, { alias: row.alias, source: row.source }, null);
        return { result: `"${row.alias}" is no longer a name of ${e.name}`, entity_name: e.name, alias: row.alias };
      })();
      changed();
      return out;
    },

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
      for (const r of results) if (r.action === 'conflict' || r.action === 'merged') log(`aliases: ${r.message}`);
      if (results.some((r) => r.action !== 'unchanged' && r.action !== 'conflict')) {
        changed();
        if (results.some((r) => r.action === 'merged')) deps.rollup?.();
      }
      const counts = (a: HaNameAction) => results.filter((r) => r.action === a).length;
      return {
        result: results.map((r) => r.message).join('\n'),
        added: counts('added') + counts('aliased'),
        merged: counts('merged'),
        conflicts: counts('conflict'),
        results,
      };
    },
  };
}
export type AliasesService = ReturnType<typeof createAliasesService>;
