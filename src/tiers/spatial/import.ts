/**
 * Sightings from an importer (io/memory-mcp), already checked by `LocateInput`: the spatial tier's
 * rule that an object has one active location — an imported active one is archived when Hearth
 * already holds an active one (newer, Hearth's own) — and its write, keeping the original times.
 */
import type { EntitiesRepo } from '../entities/entities.repo.js';
import type { SpatialRepo } from './spatial.repo.js';
import type { LocateInput } from './spatial.schemas.js';

/** `repo` is the tier service's own (services.ts), so the statements are prepared once. */
export function createSpatialImport(deps: { entities: EntitiesRepo; repo: SpatialRepo }) {
  const { entities, repo } = deps;
  return {
    /** A sighting of `input.entity_name` (which must exist) seen at `ts`; `container_id` is the container's Hearth entity, if any. */
    location(
      input: LocateInput & { ts: number },
      kept: { active: boolean; created: number; container_id: number | null },
    ): number {
      const e = entities.get(input.entity_name);
      const on = kept.active && !repo.hasActive(e.id);
      return repo.insertImported(
        {
          entity_id: e.id,
          container_id: kept.container_id,
          container_name: input.container_name,
          confidence: input.confidence,
          last_confirmed_ts: input.ts,
          source: input.source ?? null,
          note: input.note ?? null,
          created: kept.created,
        },
        on,
      );
    },
  };
}
export type SpatialImport = ReturnType<typeof createSpatialImport>;
