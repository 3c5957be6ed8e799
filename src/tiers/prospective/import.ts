/**
 * Intentions from an importer (io/memory-mcp), already checked by `IntendInput`: the prospective
 * tier's own rule (a trigger needs words to match on) and writes (the row and its keyword index),
 * keeping whether it is active, its firings and times. The trigger's vector is made later, as for an
 * intention stored before the embedder changed (prospective.service re-makes missing ones).
 */
import type { EntitiesRepo } from '../entities/entities.repo.js';
import type { ProspectiveRepo } from './prospective.repo.js';
import type { IntendInput } from './prospective.schemas.js';
import { triggerTerms } from './trigger-match.js';

export interface IntentionKept {
  active: boolean;
  created: number;
  fired_count: number;
  last_fired: number | null;
  expires_at: number | null;
}

/** `repo` is the tier service's own (services.ts), so the statements are prepared once. */
export function createProspectiveImport(deps: { entities: EntitiesRepo; repo: ProspectiveRepo }) {
  const { entities, repo } = deps;
  return {
    /** The new intention's id, or why it is refused (before anything is written). */
    intention(input: IntendInput, kept: IntentionKept): number | string {
      const terms = triggerTerms(input.trigger_text);
      if (!terms.length) return 'trigger_text: has no words to match on';
      const e = entities.get(input.entity_name);
      const id = repo.insertImported(
        {
          entity_id: e.id,
          trigger_text: input.trigger_text,
          action_text: input.action_text,
          once: !!input.once,
          expires_at: kept.expires_at,
          created: kept.created,
        },
        kept,
      );
      repo.indexTerms(id, terms);
      return id;
    },
  };
}
export type ProspectiveImport = ReturnType<typeof createProspectiveImport>;
