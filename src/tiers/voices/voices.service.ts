/**
 * Who is speaking (seed `/voices/*` plus identify, SPEC §3 `voiceprints`). A voice pipeline sends a
 * speaker embedding; Hearth answers with the best known speaker above `VOICE_MATCH_THRESHOLD`, or
 * creates a provisional person `unknown_speaker_N` (`meta.provisional = true`) that later
 * utterances of the same voice find again. A person then enrolls it (renames it, keeping
 * everything) or merges it into someone already enrolled (everything moves, in one transaction,
 * audited). See docs/voices.md.
 */
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { HubError } from '../../lib/errors.js';
import type { Actor, AuditRepo } from '../audit/audit.repo.js';
import type { EntitiesRepo, EntityRow } from '../entities/entities.repo.js';
import { countReferences, moveEntity, renameRows } from './merge.js';
import type { MergeRepo } from './merge.repo.js';
import { blend, createPrintStore, dot, VOICE_MATCH_THRESHOLD } from './prints.js';
import type { VoicesRepo } from './voices.repo.js';
import type { EnrollInput, IdentifyInput, MergeInput, UnknownInput, UpdatePrintInput } from './voices.schemas.js';

export interface VoicesDeps {
  db: Db;
  clock: Clock;
  entities: EntitiesRepo;
  audit: AuditRepo;
  /** Prints and provisional speakers; a merge's statements (built once in services.ts, shared with entity management). */
  repo: VoicesRepo;
  moves: MergeRepo;
  /** After a rename or merge: cached entity ids are stale, vectors carry the old name. */
  onEntityChanged?: (oldName: string) => void;
  /** Re-embeds memories left pending (memory.embedPending). */
  embedPending?: () => Promise<unknown>;
  /** Rolls up readings whose buckets a merge dropped. */
  rollup?: () => unknown;
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
const isProvisional = (e: EntityRow) => e.meta.provisional === true;

export function createVoicesService(deps: VoicesDeps) {
  const { db, clock, entities, audit, repo, moves } = deps;
  const prints = createPrintStore(repo, clock);

  /** After commit: caches, rollups, vectors. Their failure must not turn a committed change into an error. */
  async function after(oldName: string) {
    deps.onEntityChanged?.(oldName);
    try {
      await deps.rollup?.();
      await deps.embedPending?.();
    } catch {
      // the memories stay pending; the scheduler's embed_pending job (or `hearth reembed`) fills them later
    }
  }

  return {
    threshold: VOICE_MATCH_THRESHOLD,

    identify(input: IdentifyInput, actor: Actor = 'system') {
      const threshold = input.threshold ?? VOICE_MATCH_THRESHOLD;
      return db.transaction(() => {
        const v = prints.accept(input.embedding);
        const ranked = prints
          .all()
          .map((p) => ({ p, similarity: dot(p.embedding, v) }))
          .sort((a, b) => b.similarity - a.similarity);
        const candidates = ranked
          .slice(0, 3)
          .map((r) => ({ entity_name: entities.byId(r.p.entity_id)!.name, similarity: round(r.similarity) }));
        const best = ranked[0];
        const now = clock.now();
        if (best && best.similarity >= threshold) {
          const e = entities.byId(best.p.entity_id)!;
          if (isProvisional(e))
            entities.setMeta(
              e.id,
              JSON.stringify({ ...e.meta, detection_count: Number(e.meta.detection_count ?? 0) + 1, last_seen: now }),
              now,
            );
          return {
            result: `${e.name}${isProvisional(e) ? ' (not enrolled yet)' : ''} is speaking (similarity ${best.similarity.toFixed(2)})`,
            entity_name: e.name,
            entity_id: e.id,
            provisional: isProvisional(e),
            created: false,
            similarity: round(best.similarity),
            threshold,
            candidates,
          };
        }
        prints.fixDim(v.length);
        // A name someone else already holds (an entity created by hand, an import, a `remember`) is
        // skipped, never reused: `ensure` would hand back that entity and the stranger would be filed
        // under it, its meta and voice print overwritten (issue #26 item 12). Same transaction, so no
        // other writer takes the name in between.
        let name = `unknown_speaker_${prints.nextUnknown()}`;
        while (entities.find(name)) name = `unknown_speaker_${prints.nextUnknown()}`;
        const e = entities.ensure(name, 'person');
        if (!e.created_now) throw new HubError('internal', `${name} exists already; nothing was changed`);
        const meta = {
          provisional: true,
          status: 'unenrolled',
          first_seen: now,
          last_seen: now,
          detection_count: 1,
          ...(input.room && { first_seen_room: input.room }),
        };
        entities.setMeta(e.id, JSON.stringify(meta), now);
        prints.put(e.id, v, 1);
        audit.record(actor, 'voice.provisional', name, null, {
          entity_id: e.id,
          best_similarity: best ? round(best.similarity) : null,
          threshold,
        });
        return {
          result: `An unknown voice: noted as ${name}. Ask who is speaking, then enroll or merge it.`,
          entity_name: name,
          entity_id: e.id,
          provisional: true,
          created: true,
          similarity: best ? round(best.similarity) : null,
          threshold,
          candidates,
        };
      })();
    },

    unknown(input: UnknownInput) {
      const speakers = repo.unknownSpeakers(input.min_detections, input.limit).map((r) => {
        const meta = JSON.parse(r.meta) as Record<string, unknown>;
        return {
          entity_name: r.name,
          first_seen: meta.first_seen ?? r.created,
          last_seen: meta.last_seen ?? null,
          first_seen_room: meta.first_seen_room ?? null,
          detection_count: meta.detection_count ?? 0,
          samples: r.samples ?? 0,
          memory_count: r.memory_count,
        };
      });
      const result = speakers.length
        ? speakers
            .map((s) => `- ${s.entity_name}: heard ${s.detection_count} times, ${s.memory_count} memories`)
            .join('\n')
        : 'No unknown speakers.';
      return { result, speakers };
    },

    /** Renames a provisional speaker to the real person (everything stays attached), or enrolls a person from a sample. */
    async enroll(input: EnrollInput, actor: Actor = 'system') {
      if (input.new_name === undefined) {
        const out = db.transaction(() => {
          const e = entities.ensure(input.entity_name, 'person');
          const v = prints.accept(input.embedding!);
          const old = prints.get(e.id);
          const samples = (old?.samples ?? 0) + 1;
          prints.put(e.id, old ? blend(old.embedding, v, 1 / samples) : v, samples);
          audit.record(actor, 'voice.enroll', e.name, old ? { samples: old.samples } : null, { samples });
          return {
            result: `Enrolled ${e.name}'s voice (${samples} sample${samples === 1 ? '' : 's'})`,
            entity_name: e.name,
            entity_id: e.id,
            voiceprint_samples: samples,
          };
        })();
        return out;
      }
      const out = db.transaction(() => {
        const e = entities.get(input.entity_name);
        if (entities.find(input.new_name!)) {
          throw new HubError(
            'conflict',
            `new_name: "${input.new_name}" already exists; use POST /voices/merge to fold ${e.name} into it`,
          );
        }
        const before = countReferences(moves, e.id);
        const { provisional: _p, ...rest } = e.meta;
        const meta = {
          ...rest,
          status: 'enrolled',
          enrolled_from: e.name,
          ...(input.display_name && { display_name: input.display_name }),
        };
        // The keyword index and the vectors include the entity's name: re-index now, re-embed after commit.
        renameRows(moves, e.id, input.new_name!, clock.now(), JSON.stringify(meta));
        audit.record(actor, 'voice.enroll', e.id, { name: e.name, meta: e.meta }, { name: input.new_name, meta });
        return {
          result: `${e.name} is now ${input.new_name}; ${before['memories.entity_id']} memories and everything else stay attached`,
          entity_id: e.id,
          entity_name: input.new_name!,
          previous_name: e.name,
          memories_transferred: before['memories.entity_id'],
          readings_transferred: before.readings,
          attached: before,
        };
      })();
      await after(out.previous_name);
      return out;
    },

    /** Moves everything of `source_name` onto `target_name` in one transaction and deletes the source. */
    async merge(input: MergeInput, actor: Actor = 'system') {
      const out = db.transaction(() => {
        const src = entities.get(input.source_name, 'source_name');
        const dst = entities.get(input.target_name, 'target_name');
        // An alias of the target (a name kept by an earlier merge or rename) is the target itself.
        if (src.id === dst.id)
          throw new HubError(
            'conflict',
            `source_name: "${input.source_name}" is already ${dst.name} (${input.source_name === dst.name ? 'the same entity' : 'another name of it'}); nothing to merge`,
          );
        const before = { source: countReferences(moves, src.id), target: countReferences(moves, dst.id) };
        const now = clock.now();
        const r = moveEntity(moves, prints, src.id, dst.id, dst.name, now);
        const meta = {
          ...dst.meta,
          merged_from: [...((dst.meta.merged_from as string[] | undefined) ?? []), src.name],
          detection_count: Number(dst.meta.detection_count ?? 0) + Number(src.meta.detection_count ?? 0),
        };
        entities.setMeta(dst.id, JSON.stringify(meta), now);
        const after = countReferences(moves, dst.id);
        audit.record(
          actor,
          'voice.merge',
          dst.name,
          {
            source: src.name,
            source_meta: src.meta,
            counts: before,
            source_id: src.id,
            source_created: src.created,
            target_id: dst.id,
          },
          { target: dst.name, moved: r.moved, counts: after },
        );
        const lost = Object.keys(after).filter(
          (k) =>
            after[k] < before.source[k] + before.target[k] && k !== 'series.entity_id' && k !== 'voiceprints.entity_id',
        );
        if (lost.length)
          throw new HubError('internal', `merge would lose rows of ${lost.join(', ')}; nothing was changed`);
        return {
          result:
            `Merged ${src.name} into ${dst.name}: ${before.source['memories.entity_id']} memories, ${before.source.readings} readings, ` +
            `${before.source['sessions.entity_id'] ?? 0} sessions moved; ${src.name} is gone`,
          target_name: dst.name,
          source_deleted: src.name,
          memories_merged: before.source['memories.entity_id'],
          readings_merged: before.source.readings,
          relations_merged: before.source['relations.entity_a'] + before.source['relations.entity_b'],
          before,
          after,
          moved: r.moved,
          series_merged: r.series_merged,
          relations_ended: r.relations_ended,
        };
      })();
      await after(out.source_deleted);
      return out;
    },

    /** Moves a print toward a new sample (running average unless `weight` is given), re-normalised. */
    updatePrint(input: UpdatePrintInput, actor: Actor = 'system') {
      return db.transaction(() => {
        const e = entities.get(input.entity_name);
        const v = prints.accept(input.embedding);
        const old = prints.get(e.id);
        const samples = (old?.samples ?? 0) + 1;
        const next = old ? blend(old.embedding, v, input.weight ?? 1 / samples) : v;
        prints.put(e.id, next, samples);
        audit.record(actor, 'voice.update_print', e.name, old ? { samples: old.samples } : null, {
          samples,
          weight: old ? (input.weight ?? 1 / samples) : 1,
        });
        return {
          result: `Updated ${e.name}'s voice print (${samples} samples)`,
          entity_name: e.name,
          voiceprint_samples: samples,
          embedding_norm: round(Math.sqrt(dot(next, next))),
          similarity_to_sample: round(dot(next, v)),
        };
      })();
    },
  };
}
export type VoicesService = ReturnType<typeof createVoicesService>;
