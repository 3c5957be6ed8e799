/** Directed relations between entities, ended by validity rather than deleted (SPEC §3). */
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { invalid, notFound } from '../../lib/errors.js';
import type { Actor, AuditRepo } from '../audit/audit.repo.js';
import type { EntitiesRepo } from '../entities/entities.repo.js';
import type { GetRelatedInput, RelateInput, UnrelateInput } from './memory.schemas.js';
import { createRelationsRepo } from './relations.repo.js';

export interface RelationView {
  id: number;
  entity_a: string;
  entity_b: string;
  rel_type: string;
  direction: 'out' | 'in';
  other: string;
  other_type: string;
  meta: Record<string, unknown>;
  valid_from: number;
  valid_until: number | null;
}

export function createRelationsService(deps: { db: Db; clock: Clock; entities: EntitiesRepo; audit: AuditRepo }) {
  const { db, clock, entities, audit } = deps;
  const repo = createRelationsRepo(db);

  function list(
    entityId: number,
    opts: { rel_type?: string; direction?: 'out' | 'in' | 'both'; include_history?: boolean } = {},
  ) {
    const rows = repo.related(entityId, !!opts.include_history);
    const out: RelationView[] = [];
    for (const r of rows) {
      const direction = r.entity_a === entityId ? 'out' : 'in';
      if (opts.direction && opts.direction !== 'both' && opts.direction !== direction) continue;
      if (opts.rel_type && opts.rel_type !== r.rel_type) continue;
      out.push({
        id: r.id,
        entity_a: r.a_name,
        entity_b: r.b_name,
        rel_type: r.rel_type,
        direction,
        other: direction === 'out' ? r.b_name : r.a_name,
        other_type: direction === 'out' ? r.b_type : r.a_type,
        meta: JSON.parse(r.meta),
        valid_from: r.valid_from,
        valid_until: r.valid_until,
      });
    }
    return out;
  }

  const sentence = (r: RelationView) =>
    `${r.entity_a} ${r.rel_type.replaceAll('_', ' ')} ${r.entity_b}${r.valid_until ? ' (ended)' : ''}`;

  return {
    list,
    sentence,
    /** An entity's current relations to others, in the order they were made (the Markdown export). */
    outgoing: repo.outgoing,
    /** A relation's ends as name keys, ended or not (the Markdown import's history). */
    endsById: repo.endsById,
    /** One relation with its ends' names, ended or not (ending a relation by its id). */
    byId: repo.byId,
    /**
     * Relates a to b (an existing current relation is kept). `kept` (only `hearth import`) gives the
     * relation the times it had in the store it is copied from; one that had ended there is stored
     * ended (history), beside any current one.
     */
    relate(
      input: RelateInput,
      actor: Actor = 'system',
      kept?: { created: number; valid_from: number; valid_until: number | null },
    ) {
      return db.transaction(() => {
        const a = entities.ensure(input.entity_a, input.entity_a_type);
        const b = entities.ensure(input.entity_b, input.entity_b_type);
        // Two names can be one entity (an alias): a relation still needs two.
        if (a.id === b.id)
          throw invalid(
            `entity_b: "${input.entity_b}" is another name of ${a.name}; a relation needs two different entities`,
          );
        const existing = kept?.valid_until != null ? undefined : repo.current(a.id, b.id, input.rel_type);
        if (existing)
          return { result: `Already known: ${a.name} ${input.rel_type} ${b.name}`, id: existing.id, created: false };
        const now = clock.now();
        const meta = JSON.stringify(input.meta ?? {});
        const id = kept
          ? repo.insertKept(a.id, b.id, input.rel_type, meta, kept)
          : repo.insert(a.id, b.id, input.rel_type, meta, now);
        audit.record(actor, 'relation.add', id, null, input);
        return { result: `Noted: ${a.name} ${input.rel_type.replaceAll('_', ' ')} ${b.name}`, id, created: true };
      })();
    },
    /** Ends relations from a to b (of one type, or all) by setting valid_until; history is kept. */
    unrelate(input: UnrelateInput, actor: Actor = 'system') {
      return db.transaction(() => {
        const a = entities.get(input.entity_a, 'entity_a');
        const b = entities.get(input.entity_b, 'entity_b');
        const now = clock.now();
        const ended = repo.end(now, a.id, b.id, input.rel_type ?? null);
        if (!ended.length) {
          throw notFound(
            `entity_b: no current relation from ${a.name} to ${b.name}${input.rel_type ? ` of type ${input.rel_type}` : ''}`,
          );
        }
        for (const r of ended) audit.record(actor, 'relation.end', r.id, { valid_until: null }, { valid_until: now });
        return {
          result: `Ended ${ended.map((r) => `${a.name} ${r.rel_type} ${b.name}`).join(', ')}`,
          ended: ended.map((r) => r.id),
        };
      })();
    },
    getRelated(input: GetRelatedInput) {
      const e = entities.get(input.entity_name);
      const relations = list(e.id, input);
      const result = relations.length
        ? relations.map((r) => `- ${sentence(r)}`).join('\n')
        : `${e.name} has no ${input.include_history ? '' : 'current '}relations.`;
      return { result, entity_name: e.name, relations };
    },
  };
}
export type RelationsService = ReturnType<typeof createRelationsService>;
