/** Directed relations between entities, ended by validity rather than deleted (SPEC §3). */
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { invalid, notFound } from '../../lib/errors.js';
import type { Actor, AuditRepo } from '../audit/audit.repo.js';
import type { EntitiesRepo } from '../entities/entities.repo.js';
import type { GetRelatedInput, RelateInput, UnrelateInput } from './memory.schemas.js';

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
  const current = db.prepare(
    'SELECT * FROM relations WHERE entity_a = ? AND entity_b = ? AND rel_type = ? AND valid_until IS NULL',
  );
  const insert = db.prepare(
    'INSERT INTO relations (entity_a, entity_b, rel_type, meta, created, valid_from) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertKept = db.prepare(
    'INSERT INTO relations (entity_a, entity_b, rel_type, meta, created, valid_from, valid_until) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const related = db.prepare(
    `SELECT r.*, a.name AS a_name, b.name AS b_name, a.type AS a_type, b.type AS b_type
       FROM relations r JOIN entities a ON a.id = r.entity_a JOIN entities b ON b.id = r.entity_b
      WHERE (r.entity_a = @id OR r.entity_b = @id) AND (@history = 1 OR r.valid_until IS NULL)
      ORDER BY r.valid_from DESC, r.id DESC`,
  );

  const outgoing = db.prepare(
    'SELECT r.rel_type, b.id AS b_id, b.name AS b_name FROM relations r JOIN entities b ON b.id = r.entity_b WHERE r.entity_a = ? AND r.valid_until IS NULL ORDER BY r.id',
  );
  const endsById = db.prepare(
    'SELECT r.rel_type, a.name_key AS a, b.name_key AS b FROM relations r JOIN entities a ON a.id = r.entity_a JOIN entities b ON b.id = r.entity_b WHERE r.id = ?',
  );

  function list(
    entityId: number,
    opts: { rel_type?: string; direction?: 'out' | 'in' | 'both'; include_history?: boolean } = {},
  ) {
    const rows = related.all({ id: entityId, history: opts.include_history ? 1 : 0 }) as {
      id: number;
      entity_a: number;
      a_name: string;
      b_name: string;
      a_type: string;
      b_type: string;
      rel_type: string;
      meta: string;
      valid_from: number;
      valid_until: number | null;
    }[];
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
    outgoing: (entityId: number) => outgoing.all(entityId) as { rel_type: string; b_id: number; b_name: string }[],
    /** A relation's ends as name keys, ended or not (the Markdown import's history). */
    endsById: (id: number) => endsById.get(id) as { a: string; rel_type: string; b: string } | undefined,
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
        const existing =
          kept?.valid_until != null
            ? undefined
            : (current.get(a.id, b.id, input.rel_type) as { id: number } | undefined);
        if (existing)
          return { result: `Already known: ${a.name} ${input.rel_type} ${b.name}`, id: existing.id, created: false };
        const now = clock.now();
        const meta = JSON.stringify(input.meta ?? {});
        const id = kept
          ? Number(
              insertKept.run(a.id, b.id, input.rel_type, meta, kept.created, kept.valid_from, kept.valid_until)
                .lastInsertRowid,
            )
          : Number(insert.run(a.id, b.id, input.rel_type, meta, now, now).lastInsertRowid);
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
        const ended = db
          .prepare(
            `UPDATE relations SET valid_until = ? WHERE entity_a = ? AND entity_b = ? AND valid_until IS NULL
               AND (? IS NULL OR rel_type = ?) RETURNING id, rel_type`,
          )
          .all(now, a.id, b.id, input.rel_type ?? null, input.rel_type ?? null) as { id: number; rel_type: string }[];
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
