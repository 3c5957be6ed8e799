/**
 * Sightings from an importer (io/memory-mcp), already checked by `LocateInput`: the spatial tier's
 * rule that an object has one active location — an imported active one is archived when Hearth
 * already holds an active one (newer, Hearth's own) — and its write, keeping the original times.
 */
import type { Db } from '../../db/open.js';
import type { EntitiesRepo } from '../entities/entities.repo.js';
import type { LocateInput } from './spatial.schemas.js';

export function createSpatialImport(deps: { db: Db; entities: EntitiesRepo }) {
  const { db, entities } = deps;
  const active = db.prepare('SELECT 1 FROM locations WHERE entity_id = ? AND active = 1');
  const insert = db.prepare(
    `INSERT INTO locations (entity_id, container_id, container_name, confidence, last_confirmed_ts, active, source, note, created)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return {
    /** A sighting of `input.entity_name` (which must exist) seen at `ts`; `container_id` is the container's Hearth entity, if any. */
    location(
      input: LocateInput & { ts: number },
      kept: { active: boolean; created: number; container_id: number | null },
    ): number {
      const e = entities.get(input.entity_name);
      const on = kept.active && !active.get(e.id) ? 1 : 0;
      return Number(
        insert.run(
          e.id,
          kept.container_id,
          input.container_name,
          input.confidence,
          input.ts,
          on,
          input.source ?? null,
          input.note ?? null,
          kept.created,
        ).lastInsertRowid,
      );
    },
  };
}
export type SpatialImport = ReturnType<typeof createSpatialImport>;
