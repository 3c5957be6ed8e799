/**
 * The entity graph's rows (graph.ts shapes them): entities with their memory counts, current
 * relations, located objects → their place, and what the data says about entities of no known type
 * (voiceprints, containers, series metrics, active memories, relations), for every one or for one.
 * Read-only.
 */
import type { Db } from '../../db/open.js';
import { UNKNOWN_TYPE } from '../entities/entity-types.js';

/** An edge as stored: a relation (`label` its type) or a located object → its place (no label). */
export interface EdgeRow {
  id: number;
  from: number;
  to: number;
  label: string;
}

export function createGraphReader(db: Db) {
  const entities = db.prepare(
    `SELECT e.id, e.name, e.type, (SELECT count(*) FROM memories m WHERE m.entity_id = e.id AND m.status = 'active') AS memory_count
       FROM entities e ORDER BY e.id`,
  );
  const relations = db.prepare(
    'SELECT id, entity_a AS "from", entity_b AS "to", rel_type AS label FROM relations WHERE valid_until IS NULL ORDER BY id',
  );
  const located = db.prepare(
    'SELECT id, entity_id AS "from", container_id AS "to" FROM locations WHERE active = 1 AND container_id IS NOT NULL ORDER BY id',
  );
  // Evidence about every `unknown` entity at once.
  const containers = db.prepare('SELECT DISTINCT container_id FROM locations WHERE container_id IS NOT NULL').pluck();
  const voices = db.prepare('SELECT entity_id FROM voiceprints').pluck();
  const metrics = db.prepare(
    `SELECT s.entity_id, s.metric FROM series s JOIN entities e ON e.id = s.entity_id WHERE e.type = '${UNKNOWN_TYPE}'`,
  );
  const facts = db.prepare(
    `SELECT m.entity_id, m.category, m.fact FROM memories m JOIN entities e ON e.id = m.entity_id WHERE e.type = '${UNKNOWN_TYPE}' AND m.status = 'active'`,
  );
  // Evidence about one entity.
  const one = {
    voice: db.prepare('SELECT 1 FROM voiceprints WHERE entity_id = ?').pluck(),
    container: db.prepare('SELECT 1 FROM locations WHERE container_id = ? LIMIT 1').pluck(),
    metrics: db.prepare('SELECT metric FROM series WHERE entity_id = ?').pluck(),
    facts: db.prepare("SELECT category, fact FROM memories WHERE entity_id = ? AND status = 'active'"),
    relations: db.prepare(
      'SELECT rel_type, entity_a = @id AS first FROM relations WHERE (entity_a = @id OR entity_b = @id) AND valid_until IS NULL',
    ),
  };

  return {
    entities: () => entities.all() as { id: number; name: string; type: string; memory_count: number }[],
    relations: () => relations.all() as EdgeRow[],
    located: () => located.all() as Omit<EdgeRow, 'label'>[],
    /** Entities with a voiceprint. */
    voices: () => voices.all() as number[],
    /** Entities something is located in. */
    containers: () => containers.all() as number[],
    /** Series metrics of `unknown` entities. */
    unknownMetrics: () => metrics.all() as { entity_id: number; metric: string }[],
    /** Active memories of `unknown` entities. */
    unknownFacts: () => facts.all() as { entity_id: number; category: string; fact: string }[],
    /** One entity's evidence, as entity-types.ts `inferType` reads it. */
    evidenceOf: (id: number) => ({
      voice: one.voice.get(id) !== undefined,
      container: one.container.get(id) !== undefined,
      metrics: one.metrics.all(id) as string[],
      memories: one.facts.all(id) as { category: string; fact: string }[],
      relations: (one.relations.all({ id }) as { rel_type: string; first: number }[]).map((r) => ({
        rel_type: r.rel_type,
        first: r.first === 1,
      })),
    }),
  };
}
export type GraphReader = ReturnType<typeof createGraphReader>;
