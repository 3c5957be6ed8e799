/** Changes to a current memory: confirm (it still holds), revise (a new version), edit (a person's correction). */
import { invalid, notFound } from '../../lib/errors.js';
import type { Actor } from '../audit/audit.repo.js';
import type { MemoryContext } from './memory.context.js';
import type { RememberInput } from './memory.schemas.js';
import { indexText, terms } from './text-match.js';

export function createRevisions(ctx: MemoryContext) {
  const { db, clock, audit, repo, vectors } = ctx;

  /**
   * A new version of a current memory (an edited Markdown line): the new row supersedes the old
   * one exactly as a same-`fact_key` remember does (valid_until, superseded_by, vector inactive),
   * keeping its entity and confidence, and its key unless `fact_key` is given (`null` drops it).
   * A key another active memory of the entity holds follows remember's rule: the new version
   * supersedes that one too when its trust is at least as high, else it is kept as contested.
   * A contested memory can be revised as well (its new version may then win the key).
   * Audited as `memory.supersede`.
   */
  async function revise(
    id: number,
    change: { fact: string; category: string; source_trust: number; source: string; fact_key?: string | null },
    actor: Actor = 'system',
  ) {
    const head = repo.get(id);
    if (!head || head.status === 'superseded') throw notFound(`memory_id: no current memory with id ${id}`);
    const warnings: string[] = [];
    const text = indexText(head.entity_name, change.fact);
    const vector = await ctx.tryEmbed(text, warnings);
    const now = clock.now();
    const out = db.transaction(() => {
      if (repo.get(id)?.status !== head.status) throw notFound(`memory_id: memory ${id} changed meanwhile; retry`);
      const fact_key = change.fact_key === undefined ? head.fact_key : change.fact_key;
      const holder = fact_key === null ? undefined : repo.activeByKey(head.entity_id, fact_key);
      const rival = holder && holder.id !== head.id ? holder : undefined;
      const status = rival && change.source_trust < rival.source_trust ? ('contested' as const) : ('active' as const);
      const fields = {
        entity_id: head.entity_id,
        fact: change.fact,
        category: change.category,
        confidence: head.confidence,
        source: change.source,
        source_trust: change.source_trust,
        fact_key,
        valid_from: now,
        status,
      };
      const created = repo.insert(fields, terms(text).join(' '), now);
      ctx.storeVector(created, head.entity_id, change.category, status === 'active', vector);
      const displaced = [head, ...(rival && status === 'active' ? [rival] : [])];
      for (const old of displaced) {
        repo.supersede(old.id, created, now, now);
        vectors.setActive(old.id, false);
        const { fact, category, source_trust, fact_key: key } = old;
        const before = { id: old.id, fact, category, source_trust, fact_key: key };
        audit.record(actor, 'memory.supersede', created, before, { ...fields, superseded: old.id });
      }
      return { id: created, status, rival: rival?.id ?? null };
    })();
    const action = out.status === 'active' ? 'superseded' : 'contested';
    ctx.onAdded?.({ id: out.id, entity_name: head.entity_name, fact: change.fact, category: change.category, action });
    return { id: out.id, superseded: head.id, status: out.status, rival: out.rival, warnings };
  }

  return {
    /**
     * A person says a fact still holds: `last_confirmed` = now, so its decay starts over; the
     * stored confidence is kept. Audited as `memory.confirm`.
     */
    confirm(input: { memory_id: number }, actor: Actor = 'system') {
      return db.transaction(() => {
        const m = repo.get(input.memory_id);
        if (!m) throw notFound(`memory_id: no memory with id ${input.memory_id}`);
        if (m.status !== 'active')
          throw invalid(`memory_id: memory ${m.id} is ${m.status}; only a current memory can be confirmed`);
        const now = clock.now();
        repo.reinforce(m.id, m.confidence, now);
        audit.record(actor, 'memory.confirm', m.id, { last_confirmed: m.last_confirmed }, { last_confirmed: now });
        return { result: `Confirmed for ${m.entity_name}: ${m.fact}`, id: m.id, last_confirmed: now };
      })();
    },

    /**
     * A person's correction of a current memory (admin UI): a new version through `revise`, same
     * entity, key and category unless given, with trust `user`.
     */
    async edit(
      input: { memory_id: number; fact: string; category?: RememberInput['category'] },
      actor: Actor = 'system',
    ) {
      const m = repo.get(input.memory_id);
      if (!m) throw notFound(`memory_id: no memory with id ${input.memory_id}`);
      if (m.status !== 'active') throw invalid(`memory_id: memory ${m.id} is ${m.status}; edit the current version`);
      const change = { fact: input.fact, category: input.category ?? m.category, source_trust: 5, source: actor };
      return revise(m.id, change, actor);
    },

    revise,
  };
}
