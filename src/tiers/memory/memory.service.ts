/**
 * Tier 1 — semantic memory: remember (trust tiers, fact_key supersession, near-duplicate
 * reinforcement, contested facts), recall, forget, fading, re-embedding. SPEC §5.
 *
 * This file assembles the service from its parts: memory.context.ts (deps, repo, embedding a write),
 * remember.ts (with duplicates.ts), revise.ts (confirm, edit, revise), forget.ts (forget, fading),
 * touches.ts (recall's access bumps), recall.ts (the recall engine).
 */
import { createForgetting } from './forget.js';
import { createMemoryContext, type MemoryDeps } from './memory.context.js';
import type { MemoryRow } from './memory.repo.js';
import type { RecallInput } from './memory.schemas.js';
import { recall, type RecallOutcome } from './recall.js';
import { recallText } from './recall-text.js';
import { isRoleWord, resolveRoles, rolePhrases } from '../prospective/roles.js';
import { createRemember } from './remember.js';
import { createRevisions } from './revise.js';
import { indexText } from './text-match.js';
import { createTouches } from './touches.js';

export type { MemoryDeps, RememberAction, RememberResult } from './memory.context.js';
export { TOUCH_FLUSH_MS } from './touches.js';

export function createMemoryService(deps: MemoryDeps) {
  const ctx = createMemoryContext(deps);
  const { db, clock, embedder, vectors, entities, config, repo } = ctx;
  const touches = createTouches(ctx);
  const revisions = createRevisions(ctx);
  const forgetting = createForgetting(ctx);

  return {
    repo,
    /** Writes pending access bumps now (the hub calls it before closing the database). */
    flushTouches: touches.flush,

    remember: createRemember(ctx),

    /** `touch: false` (the admin UI's search): a person looking is not an access, so no access bump. */
    async recall(input: RecallInput, opts: { touch?: boolean } = {}): Promise<RecallOutcome & { result: string }> {
      const entityId = (n: string) => entities.find(n)?.id;
      const entityNamed = (n: string) => {
        const e = entities.find(n);
        return e && { id: e.id, name: e.name, type: e.type };
      };
      const { tuning, wordnet, relations } = deps;
      const roles = relations
        ? (text: string, speaker: string | undefined) => {
            const found = resolveRoles(text, speaker, { entities, relations });
            // A role the relations name nobody by still says whom it is not: "my wife" is not "me".
            const none = rolePhrases(text).filter((p) => !found.some((r) => r.start === p.start));
            return [...found, ...none.map((p) => ({ ...p, names: [] }))];
          }
        : undefined;
      const out = await recall(
        {
          repo,
          vectors,
          embedder,
          clock,
          decay: config,
          entityId,
          entityNamed,
          tuning,
          wordnet,
          roles,
          roleWord: isRoleWord,
        },
        input,
      );
      if (opts.touch !== false) touches.touch(out.results.map((r) => r.id));
      return { result: recallText(out.results, out.possible), ...out };
    },

    confirm: revisions.confirm,
    edit: revisions.edit,
    forget: forgetting.forget,
    fading: forgetting.fading,
    revise: revisions.revise,

    /** Embeds up to `limit` pending memories (after an outage or a model change). */
    async embedPending(limit = 256): Promise<{ embedded: number; remaining: number }> {
      if (vectors.state !== 'ready') return { embedded: 0, remaining: repo.pendingCount() };
      const batch = repo.pending(limit);
      if (!batch.length) return { embedded: 0, remaining: 0 };
      const vecs = await embedder.embed(
        batch.map((m) => indexText(m.entity_name, m.fact)),
        { write: true },
      );
      db.transaction(() =>
        batch.forEach((m, i) => ctx.storeVector(m.id, m.entity_id, m.category, m.status === 'active', vecs[i])),
      )();
      return { embedded: batch.length, remaining: repo.pendingCount() };
    },

    /** One memory by id (any status), or undefined. */
    get: (id: number): MemoryRow | undefined => repo.get(id),
    /** Memories waiting for a vector. */
    pendingCount: (): number => repo.pendingCount(),
    /** Whether `entity_name` (a name or an alias) holds exactly this fact, active (a replayed MQTT remember). */
    knows(entityName: string, fact: string): boolean {
      const e = entities.find(entityName);
      return Boolean(e && repo.hasActiveFact(e.id, fact));
    },
  };
}
export type MemoryService = ReturnType<typeof createMemoryService>;
