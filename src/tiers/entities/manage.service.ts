/**
 * Entity management (issue #29): merge two entities, rename one, change its type, delete it, end a
 * relation — the operations behind POST /entities/* and the admin entity page. Each runs in one
 * transaction and is audited; merge and delete can be previewed (`dry_run`), listing what moves or
 * what goes. Undo where it can be undone: a rename is renamed back, a type set back, and a merge
 * leaves the merged name as an alias of the entity that kept everything (so every door still finds
 * it under that name). Delete is the memory service's forget-entity; ending a relation is the
 * relations service's `unrelate`; the move itself is voices/merge.ts `moveEntity`.
 */
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { HubError, invalid, notFound } from '../../lib/errors.js';
import { nameKey } from '../../lib/names.js';
import { plural } from '../../lib/plural.js';
import type { Actor, AuditRepo } from '../audit/audit.repo.js';
import type { MemoryService } from '../memory/memory.service.js';
import type { RelationsService } from '../memory/relations.service.js';
import { countReferences, moveEntity, renameRows } from '../voices/merge.js';
import type { MergeRepo } from '../voices/merge.repo.js';
import { createPrintStore } from '../voices/prints.js';
import type { VoicesRepo } from '../voices/voices.repo.js';
import type { AliasesRepo } from './aliases.repo.js';
import type { AliasesService } from './aliases.service.js';
import { entityVersion, refuseAlias, refuseStale, viaAliasPrefix } from './destructive.js';
import type { EntitiesRepo, EntityRow } from './entities.repo.js';
import type {
  DeleteEntityInput,
  EndRelationInput,
  MergeEntitiesInput,
  RenameEntityInput,
  SetEntityTypeInput,
} from './manage.schemas.js';
import { createChangeSubjects } from '../overview/changes.js';

export interface ManageDeps {
  db: Db;
  clock: Clock;
  entities: EntitiesRepo;
  audit: AuditRepo;
  memory: MemoryService;
  relations: RelationsService;
  aliases: AliasesService;
  /** The voices tier's and the aliases' repositories, shared with those services (services.ts). */
  voicesRepo: VoicesRepo;
  moves: MergeRepo;
  aliasRows: AliasesRepo;
  /** After a committed change: name- and id-keyed caches re-resolve. */
  onChanged?: () => void;
  /** Rolls up readings whose buckets a merge dropped. */
  rollup?: () => unknown;
}

/** What an entity holds, by kind, in the words a person reads (`table.column` of countReferences). */
export const HOLDING_WORDS: [key: string, one: string, many?: string][] = [
  ['memories.entity_id', 'fact'],
  ['relations.entity_a', 'relation to another entity', 'relations to other entities'],
  ['relations.entity_b', 'relation from another entity', 'relations from other entities'],
  ['series.entity_id', 'kind of reading', 'kinds of readings'],
  ['readings', 'reading'],
  ['locations.entity_id', 'record of where it is', 'records of where it is'],
  ['locations.container_id', 'thing put in it', 'things put in it'],
  ['entity_aliases.entity_id', 'other name'],
  ['voiceprints.entity_id', 'voice print'],
  ['sessions.entity_id', 'conversation'],
  ['intentions.entity_id', 'intention'],
  ['working_memory_tasks.entity_id', 'task'],
  ['schedule_events.entity_id', 'schedule event'],
  ['promoted_patterns.entity_id', 'pattern'],
];

export interface Holdings {
  entity: { id: number; name: string; type: string };
  /** What a confirm sends back (destructive.ts): a change since the preview refuses it. */
  version: string;
  /** Non-zero counts only, in HOLDING_WORDS order, then any other table. */
  counts: { key: string; n: number; label: string }[];
  /** Its facts (current first, at most 50) and its current relations, as sentences. */
  facts: { id: number; fact: string; status: string }[];
  relations: string[];
  aliases: string[];
}

export function createEntityManageService(deps: ManageDeps) {
  const { db, clock, entities, audit, memory, relations, aliases, moves, aliasRows } = deps;
  const prints = createPrintStore(deps.voicesRepo, clock);
  const subjects = createChangeSubjects(db);

  function holdings(e: EntityRow): Holdings {
    const raw = countReferences(moves, e.id);
    const known = new Set(HOLDING_WORDS.map((w) => w[0]));
    const counts = [
      ...HOLDING_WORDS.map(([key, one, many]) => ({
        key,
        n: raw[key] ?? 0,
        label: plural(raw[key] ?? 0, one, many).replace(/^\d+ /, ''),
      })),
      ...Object.entries(raw)
        .filter(([k]) => !known.has(k))
        .map(([key, n]) => ({ key, n, label: key.split('.')[0].replaceAll('_', ' ') })),
    ].filter((c) => c.n > 0);
    const aliasNames = entities.aliases(e.id).map((a) => a.alias);
    return {
      entity: { id: e.id, name: e.name, type: e.type },
      version: entityVersion(e, raw, aliasNames),
      counts,
      facts: moves.factsOf(e.id),
      relations: relations.list(e.id).map((r) => relations.sentence(r)),
      aliases: aliasNames,
    };
  }
  const inWords = (h: Holdings) => h.counts.map((c) => `${c.n} ${c.label}`).join(', ') || 'nothing but its name';

  /** After commit: caches, rollups, vectors. Their failure must not turn a committed change into an error. */
  async function after() {
    deps.onChanged?.();
    try {
      await deps.rollup?.();
      for (let r = await memory.embedPending(256); r.embedded && r.remaining; r = await memory.embedPending(256));
    } catch {
      // the memories stay pending; the scheduler's embed_pending job (or `hearth reembed`) fills them later
    }
  }

  return {
    holdings: (name: string, field = 'entity_name') => holdings(entities.get(name, field)),

    /** Moves everything of the source onto the target and deletes the source; its name becomes an alias. */
    async merge(input: MergeEntitiesInput, actor: Actor = 'system') {
      const src = entities.get(input.source_name, 'source_name');
      const dst = entities.get(input.target_name, 'target_name');
      if (src.id === dst.id)
        throw invalid(
          `target_name: "${input.target_name}" is another name of ${src.name}; they are one entity already`,
        );
      const what = holdings(src);
      const version = `${what.version}.${holdings(dst).version}`; // both ends as previewed
      if (input.dry_run) {
        return {
          result: `${viaAliasPrefix(src, input.source_name)}Would merge ${src.name} into ${dst.name}: ${inWords(what)} move; "${src.name}" stays as another name of ${dst.name}`,
          dry_run: true,
          source_name: src.name,
          target_name: dst.name,
          source_id: src.id,
          target_id: dst.id,
          version,
          moves: what,
        };
      }
      // A stale preview or an alias never merges away an entity the caller did not mean.
      for (const [e, asked, id, field] of [
        [src, input.source_name, input.source_id, 'source_id'],
        [dst, input.target_name, input.target_id, 'target_id'],
      ] as const)
        refuseStale(
          e,
          asked,
          { id: field, version: 'version' },
          { previewedId: id, version: () => version, holds: () => inWords(holdings(e)) },
        );
      if (input.version !== undefined && input.version !== version)
        refuseStale(
          src,
          input.source_name,
          { id: 'source_id', version: 'version' },
          {
            previewedVersion: input.version,
            version: () => version,
            holds: () => `${inWords(what)}; ${dst.name} ${inWords(holdings(dst))}`,
          },
        );
      refuseAlias(src, input.source_name, 'source_name', 'merging it would merge away', {
        confirm: input.confirm,
        previewedId: input.source_id,
        holds: inWords(what),
      });
      const out = db.transaction(() => {
        const before = { source: countReferences(moves, src.id), target: countReferences(moves, dst.id) };
        const now = clock.now();
        const r = moveEntity(moves, prints, src.id, dst.id, dst.name, now);
        const after = countReferences(moves, dst.id);
        const lost = Object.keys(after).filter(
          (k) =>
            after[k] < before.source[k] + before.target[k] && k !== 'series.entity_id' && k !== 'voiceprints.entity_id',
        );
        if (lost.length)
          throw new HubError('internal', `merge would lose rows of ${lost.join(', ')}; nothing was changed`);
        audit.record(
          actor,
          'entity.merge',
          dst.name,
          // ids: the Markdown sync tells a note of the merged-away entity by them (io/markdown/history.ts)
          {
            source: src.name,
            source_type: src.type,
            counts: before,
            source_id: src.id,
            source_created: src.created,
            target_id: dst.id,
          },
          { target: dst.name, moved: r.moved, counts: after },
        );
        aliases.add({ entity_name: dst.name, alias: src.name }, actor);
        return {
          result: `Merged ${src.name} into ${dst.name}: ${inWords(what)} moved; "${src.name}" is now another name of ${dst.name}`,
          dry_run: false,
          source_name: src.name,
          target_name: dst.name,
          source_id: src.id,
          target_id: dst.id,
          moves: what,
          moved: r.moved,
          series_merged: r.series_merged,
          relations_ended: r.relations_ended,
        };
      })();
      await after();
      return out;
    },

    /**
     * A new name; everything stays attached and the old name stays as an alias. Renaming back undoes
     * it (an alias of the entity itself may be taken: it becomes the name again).
     */
    async rename(input: RenameEntityInput, actor: Actor = 'system') {
      const out = db.transaction(() => {
        const e = entities.get(input.entity_name);
        const taken = entities.find(input.new_name);
        if (taken && taken.id !== e.id)
          throw new HubError(
            'conflict',
            `new_name: "${input.new_name}" already names ${taken.name}; merge the two instead`,
          );
        if (input.new_name === e.name)
          return {
            result: `${e.name} already has that name`,
            entity_name: e.name,
            previous_name: e.name,
            changed: false,
          };
        // One of its own aliases becomes its name (e.g. renaming back after a merge).
        if (taken && nameKey(taken.name) !== nameKey(input.new_name)) aliasRows.remove(nameKey(input.new_name));
        // The keyword index, the vectors and series names include the entity's name: re-index now, re-embed after commit.
        renameRows(moves, e.id, input.new_name, clock.now());
        audit.record(actor, 'entity.rename', input.new_name, { name: e.name }, { name: input.new_name });
        // The old name stays another name of the entity (as a merge keeps the merged one): a device
        // still publishing under it feeds the same series, and renaming back finds it.
        const keepOld = nameKey(e.name) !== nameKey(input.new_name);
        if (keepOld) aliases.add({ entity_name: input.new_name, alias: e.name }, actor);
        return {
          result: `${e.name} is now called ${input.new_name}; everything stays attached${keepOld ? `, and "${e.name}" stays another name of it` : ''}`,
          entity_name: input.new_name,
          previous_name: e.name,
          changed: true,
        };
      })();
      if (out.changed) await after();
      return out;
    },

    /** Sets what the entity is (any known type is overwritten; setting the old one back undoes it). */
    setType(input: SetEntityTypeInput, actor: Actor = 'system') {
      return db.transaction(() => {
        const e = entities.get(input.entity_name);
        if (e.type === input.type)
          return {
            result: `${e.name} is already a ${e.type}`,
            entity_name: e.name,
            type: e.type,
            previous_type: e.type,
            changed: false,
          };
        entities.setType(e.id, input.type);
        audit.record(actor, 'entity.type', e.name, { type: e.type }, { type: input.type });
        return {
          result: `${e.name} is now a ${input.type} (was ${e.type})`,
          entity_name: e.name,
          type: input.type,
          previous_type: e.type,
          changed: true,
        };
      })();
    },

    /** Deletes the entity with everything that belongs to it (forget-entity); `dry_run` lists what would go. */
    delete(input: DeleteEntityInput, actor: Actor = 'system') {
      const e = entities.get(input.entity_name);
      const what = holdings(e);
      if (input.dry_run)
        return {
          result: `${viaAliasPrefix(e, input.entity_name)}Would delete ${e.name} with ${inWords(what)}`,
          dry_run: true,
          entity_name: e.name,
          entity_id: e.id,
          version: what.version,
          deletes: what,
        };
      // A stale page (Bryan merged into Brian since) or an alias never deletes another entity.
      refuseStale(
        e,
        input.entity_name,
        { id: 'entity_id', version: 'version' },
        {
          previewedId: input.entity_id,
          previewedVersion: input.version,
          version: () => what.version,
          holds: () => inWords(what),
        },
      );
      refuseAlias(e, input.entity_name, 'entity_name', 'deleting it would delete', {
        confirm: input.confirm,
        previewedId: input.entity_id,
        holds: inWords(what),
      });
      const r = memory.forget({ entity_name: e.name }, actor);
      deps.onChanged?.();
      return {
        result: `Deleted ${e.name} with ${inWords(what)}`,
        dry_run: false,
        entity_name: e.name,
        entity_id: e.id,
        deletes: what,
        deleted_memories: r.deleted_memories,
      };
    },

    /** Ends one current relation by its id (history kept); relate again to undo. */
    endRelation(input: EndRelationInput, actor: Actor = 'system') {
      const r = relations.byId(input.relation_id);
      if (!r) throw notFound(`relation_id: no relation with id ${input.relation_id}`);
      if (r.valid_until !== null)
        throw new HubError('conflict', `relation_id: ${r.a} ${r.rel_type} ${r.b} has already ended`);
      const out = relations.unrelate({ entity_a: r.a, entity_b: r.b, rel_type: r.rel_type }, actor);
      return { ...out, entity_a: r.a, entity_b: r.b, rel_type: r.rel_type };
    },

    /** The last audit entries with what each is about, resolved now (the dashboard's "Recent changes"). */
    recentChanges(limit = 10) {
      return subjects.recent(limit);
    },
  };
}
export type EntityManageService = ReturnType<typeof createEntityManageService>;
