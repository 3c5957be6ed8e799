/** Forgetting: deleting a memory or an entity with all of it, and listing what is fading. */
import type { Actor } from '../audit/audit.repo.js';
import { notFound } from '../../lib/errors.js';
import { plural } from '../../lib/plural.js';
import { refuseAlias } from '../entities/destructive.js';
import { effectiveConfidence } from './decay.js';
import type { MemoryContext } from './memory.context.js';
import type { FadingInput, ForgetInput } from './memory.schemas.js';

export function createForgetting(ctx: MemoryContext) {
  const { db, clock, entities, audit, config, repo, vectors } = ctx;
  return {
    /** Deletes one memory, or an entity with everything that belongs to it, in one transaction. */
    forget(input: ForgetInput, actor: Actor = 'system') {
      return db.transaction(() => {
        if (input.memory_id !== undefined) {
          const m = repo.get(input.memory_id);
          if (!m) throw notFound(`memory_id: no memory with id ${input.memory_id}`);
          vectors.remove(m.id);
          repo.delete(m.id);
          audit.record(actor, 'memory.forget', m.id, m, null);
          const result = `Forgot memory ${m.id} about ${m.entity_name}: ${m.fact}`;
          return { result, deleted_memories: 1, entity_deleted: false };
        }
        const entity = entities.get(input.entity_name!);
        const ids = repo.idsOfEntity(entity.id);
        // "forget Bryan" after Bryan was merged into Brian must not silently forget Brian.
        refuseAlias(entity, input.entity_name!, 'entity_name', 'forgetting it would forget', {
          confirm: input.confirm,
          holds: `${plural(ids.length, 'memory', 'memories')} and everything else it holds`,
        });
        for (const id of ids) {
          vectors.remove(id);
          repo.delete(id);
        }
        entities.delete(entity.id);
        audit.record(actor, 'entity.forget', entity.name, { entity, memories: ids.length }, null);
        ctx.onEntityForgotten?.(entity.name);
        const result = `Forgot ${entity.name} and ${ids.length} memories`;
        return { result, deleted_memories: ids.length, entity_deleted: true };
      })();
    },

    /** Active memories whose decayed confidence is under the threshold, most faded first. */
    fading(input: FadingInput) {
      const now = clock.now();
      const entityId = input.entity_name === undefined ? undefined : entities.get(input.entity_name).id;
      const round = (x: number) => Math.round(x * 10_000) / 10_000;
      const memories = repo
        .active(entityId)
        .map((m) => ({ ...m, effective_confidence: round(effectiveConfidence(m, now, config)) }))
        .filter((m) => m.effective_confidence < input.threshold)
        .sort((a, b) => a.effective_confidence - b.effective_confidence)
        .slice(0, input.limit)
        .map(({ embed_state: _e, ...m }) => m);
      const result = memories.length
        ? memories
            .map((m) => `- ${m.entity_name}: ${m.fact} (confidence now ${m.effective_confidence.toFixed(2)})`)
            .join('\n')
        : `No memories below confidence ${input.threshold}.`;
      return { result, memories, threshold: input.threshold };
    },
  };
}
