/**
 * remember (SPEC §5): trust tiers, fact_key supersession, near-duplicate reinforcement, contested
 * facts. Concurrent calls share one commit (db/group-commit.ts); each is its own savepoint.
 */
import type { Actor } from '../audit/audit.repo.js';
import { toEpoch, trustLabel, trustLevel } from '../../lib/schema.js';
import { findDuplicate } from './duplicates.js';
import type { MemoryContext, RememberAction, RememberResult } from './memory.context.js';
import type { MemoryRow } from './memory.repo.js';
import type { RememberInput } from './memory.schemas.js';
import { indexText, terms } from './text-match.js';

const sameFact = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function createRemember(ctx: MemoryContext) {
  const { clock, entities, audit, config, repo, commits, vectors } = ctx;

  return async function remember(input: RememberInput, actor: Actor = 'system'): Promise<RememberResult> {
    const warnings: string[] = [];
    const now = clock.now();
    const trust = input.source_trust === undefined ? config.trust_default_remember : trustLevel(input.source_trust);
    const validFrom = toEpoch(input.valid_from) ?? now;
    const text = indexText(input.entity_name, input.fact);
    const factTerms = terms(text);
    const vector = await ctx.tryEmbed(text, warnings);

    const outcome = await commits.run(() => {
      const entity = entities.ensure(input.entity_name, input.entity_type);
      const fields = {
        entity_id: entity.id,
        fact: input.fact,
        category: input.category,
        confidence: input.confidence,
        source: input.source,
        source_trust: trust,
        fact_key: input.fact_key ?? null,
        valid_from: validFrom,
      };
      const reinforce = (m: MemoryRow, key?: string) => {
        repo.reinforce(m.id, input.confidence, now);
        if (key) repo.adoptKey(m.id, key, now);
        audit.record(
          actor,
          'memory.reinforce',
          m.id,
          { confidence: m.confidence, last_confirmed: m.last_confirmed, ...(key && { fact_key: null }) },
          { confirmed: now, ...(key && { fact_key: key }) },
        );
        return { id: m.id, entity_id: entity.id, action: 'reinforced' as const, superseded: null };
      };
      const add = (status: MemoryRow['status']) => {
        const id = repo.insert({ ...fields, status }, factTerms.join(' '), now);
        ctx.storeVector(id, entity.id, input.category, status === 'active', vector);
        return id;
      };

      let result: Omit<RememberResult, 'result' | 'warnings'>;
      const current = input.fact_key ? repo.activeByKey(entity.id, input.fact_key) : undefined;
      if (input.fact_key && current) {
        if (sameFact(current.fact, input.fact)) return reinforce(current);
        if (trust >= current.source_trust) {
          const id = add('active');
          repo.supersede(current.id, id, validFrom, now);
          vectors.setActive(current.id, false);
          result = { id, entity_id: entity.id, action: 'superseded', superseded: current.id };
        } else {
          const same = repo.contestedByKey(entity.id, input.fact_key).find((m) => sameFact(m.fact, input.fact));
          if (same) return { ...reinforce(same), action: 'contested' as const, superseded: current.id };
          result = { id: add('contested'), entity_id: entity.id, action: 'contested', superseded: current.id };
        }
      } else {
        // A key nobody holds yet: the same fact stored without a key (README's remember, then the
        // same one with a fact_key) is that fact, and takes the key; one under another key is not.
        const dup = findDuplicate(ctx, entity.id, input.category, input.fact, factTerms, vector);
        if (dup && (!input.fact_key || dup.fact_key === null)) return reinforce(dup, input.fact_key);
        result = { id: add('active'), entity_id: entity.id, action: 'added', superseded: null };
      }
      const verb = result.action === 'added' ? 'add' : result.action === 'superseded' ? 'supersede' : 'contest';
      audit.record(actor, `memory.${verb}`, result.id, null, { ...fields, superseded: result.superseded });
      return result;
    });

    const sentence: Record<RememberAction, string> = {
      added: `Remembered for ${input.entity_name}: ${input.fact}`,
      reinforced: `Already known about ${input.entity_name}; confirmed: ${input.fact}`,
      superseded: `Updated ${input.entity_name}: ${input.fact} (replaces memory ${outcome.superseded})`,
      contested:
        `Kept as contested: ${input.fact} — memory ${outcome.superseded} comes from a more trusted source ` +
        `(trust ${trustLabel(trust)} is lower)`,
    };
    if (outcome.action !== 'reinforced') {
      const { entity_name, fact, category } = input;
      ctx.onAdded?.({ id: outcome.id, entity_name, fact, category, action: outcome.action });
    }
    return { result: sentence[outcome.action], ...outcome, warnings };
  };
}
