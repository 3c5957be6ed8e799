/** What doors may ask about entities: lookups by name, id or type. Every write goes through a tier service. */
import type { EntitiesRepo, EntityRow } from './entities.repo.js';

export function createEntitiesReader(repo: EntitiesRepo) {
  return {
    /** The entity `name` names — its own name or one of its aliases — or undefined. */
    find: (name: string): EntityRow | undefined => repo.find(name),
    /** The entity, or a not_found error naming `field` (the request field that held the name). */
    get: (name: string, field?: string): EntityRow => repo.get(name, field),
    byId: (id: number): EntityRow | undefined => repo.byId(id),
    /** An entity's other names, oldest first. */
    aliases: (entityId: number) => repo.aliases(entityId),
    list: (opts?: { type?: string; limit?: number; offset?: number }) => repo.list(opts),
  };
}
export type EntitiesReader = ReturnType<typeof createEntitiesReader>;
