/**
 * What the hub did after a Markdown note was exported, read from the audit log: what the import
 * needs to tell a stale note from an edited one (docs/markdown-sync.md "Conflicts", SECURITY.md
 * "Markdown sync"). A note names its hub's entity by id and creation time and says how far the
 * hub's history had got (`as_of`, an audit id); ids are never reused (migration 008), so a forget
 * in this log is something the note cannot know about.
 */
import { createHash } from 'node:crypto';
import { nameKey } from '../../lib/names.js';
import type { AuditRepo } from '../../tiers/audit/audit.repo.js';
import type { NoteOrigin } from './format.js';

/** The version of an entity's front matter: a hash of the type and meta it was exported with. */
export const entityVersion = (type: string, meta: unknown) =>
  createHash('sha256')
    .update(JSON.stringify([type, meta]))
    .digest('hex')
    .slice(0, 12);

/** A relation by id, its ends as name keys (ended rows are kept, so an ended relation still has one). */
export type RelationById = (id: number) => { a: string; rel_type: string; b: string } | undefined;

/** Ops that move one entity into another (the source is deleted): manage, HA names (before issue 35), voices. */
const MERGE_OPS = ['entity.merge', 'entity.alias_merge', 'voice.merge'];
/** One merge from the audit log: the ids when it recorded them (issue 35), the names always. */
export interface Merge {
  at: number;
  source: string;
  source_id?: number;
  source_created?: number;
  target: string;
  target_id?: number;
}

const relKey = (a: string, rel: string, b: string) => `${nameKey(a)}\u0000${rel}\u0000${nameKey(b)}`;

export function loadHistory(audit: AuditRepo, relationById: RelationById) {
  const entities = new Map<number, number>(); // forgotten entity id → its created
  const names = new Map<string, number>(); // name key → audit id of its latest forget
  const memories = new Map<number, { entity_id: number; valid_from: number }>(); // forgotten memory id → what it was
  const ended = new Map<string, number>(); // relation key → audit id of its latest end
  const unaliased = new Map<string, number>(); // alias name key → audit id of its latest removal
  const merges: Merge[] = [];
  for (const r of audit.ofOps(['entity.forget', 'memory.forget', 'relation.end', 'entity.unalias', ...MERGE_OPS])) {
    if (MERGE_OPS.includes(r.op)) {
      const b = r.before ?? {};
      merges.push({
        at: r.id,
        source: String(b.source ?? b.folded ?? ''),
        source_id: typeof b.source_id === 'number' ? b.source_id : undefined,
        source_created: typeof b.source_created === 'number' ? b.source_created : undefined,
        target: String(r.target ?? ''),
        target_id: typeof b.target_id === 'number' ? b.target_id : undefined,
      });
    } else if (r.op === 'entity.forget' && r.before?.entity) {
      entities.set(r.before.entity.id, r.before.entity.created);
      names.set(nameKey(String(r.before.entity.name)), r.id);
    } else if (r.op === 'memory.forget' && r.before) {
      memories.set(r.before.id, { entity_id: r.before.entity_id, valid_from: r.before.valid_from });
    } else if (r.op === 'entity.unalias' && r.before?.alias) {
      unaliased.set(nameKey(String(r.before.alias)), r.id);
    } else if (r.op === 'relation.end') {
      const rel = relationById(Number(r.target));
      if (rel) ended.set(`${rel.a}\u0000${rel.rel_type}\u0000${rel.b}`, r.id);
    }
  }
  return {
    /**
     * The merge that took the note's entity into another after the export (so the note's entity is
     * gone and its name now means the target), or undefined. Merges audited before ids were recorded
     * are matched by the note's name.
     */
    mergedAway(o: NoteOrigin, name: string): Merge | undefined {
      return merges.findLast((m) =>
        m.source_id !== undefined
          ? m.source_id === o.entity_id && m.source_created === o.created
          : m.at > o.as_of && nameKey(m.source) === nameKey(name),
      );
    },
    /** Another entity was merged into this one (`id`, named `name` now) after audit id `asOf`. */
    mergedIntoSince: (id: number, name: string, asOf: number) =>
      merges.some(
        (m) => m.at > asOf && (m.target_id !== undefined ? m.target_id === id : nameKey(m.target) === nameKey(name)),
      ),
    /** The note's entity was forgotten in this hub (after the export, since the export had it). */
    entityForgotten: (o: NoteOrigin) => entities.get(o.entity_id) === o.created,
    /** Memory `id` of this hub's entity `entityId` (with `since`, when the line gives one) was forgotten. */
    memoryForgotten(id: number, entityId: number, since: number | undefined) {
      const m = memories.get(id);
      return !!m && m.entity_id === entityId && (since === undefined || Math.round(m.valid_from) === since);
    },
    /** An entity of this name was forgotten after audit id `asOf`. */
    nameForgottenSince: (name: string, asOf: number) => (names.get(nameKey(name)) ?? 0) > asOf,
    /** The alias was removed (from whichever entity had it) after audit id `asOf`. */
    aliasRemovedSince: (alias: string, asOf: number) => (unaliased.get(nameKey(alias)) ?? 0) > asOf,
    /** The relation a → b was ended after audit id `asOf`. */
    relationEndedSince: (a: string, rel: string, b: string, asOf: number) => (ended.get(relKey(a, rel, b)) ?? 0) > asOf,
  };
}
export type History = ReturnType<typeof loadHistory>;
