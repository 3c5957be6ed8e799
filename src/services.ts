/**
 * Builds the domain layer: every tier's service over one database. Doors (HTTP, MCP, MQTT, CLI)
 * receive this object and nothing else.
 */
import type { Embedder, Llm } from './ai/types.js';
import type { Config } from './config/schema.js';
import type { Db } from './db/open.js';
import { createVectorStore } from './db/vectors.js';
import type { Clock } from './lib/clock.js';
import { createAuditRepo } from './tiers/audit/audit.repo.js';
import { createContextService } from './tiers/context/context.service.js';
import { createEntitiesRepo } from './tiers/entities/entities.repo.js';
import { createMemoryService } from './tiers/memory/memory.service.js';
import { createRelationsService } from './tiers/memory/relations.service.js';
import { createEvents, type Events } from './lib/events.js';

export interface ServiceDeps {
  db: Db;
  clock: Clock;
  config: Config;
  embedder: Embedder;
  llm: Llm | null;
  events?: Events;
}

export function createServices(deps: ServiceDeps) {
  const { db, clock, config, embedder, llm } = deps;
  const events = deps.events ?? createEvents();
  const entities = createEntitiesRepo(db, clock);
  const audit = createAuditRepo(db, clock);
  const vectors = createVectorStore(db, embedder);
  const memory = createMemoryService({
    db, clock, embedder, vectors, entities, audit, config: config.memory,
    onAdded: (m) => events.emit('memory_added', m),
  });
  const relations = createRelationsService({ db, clock, entities, audit });
  const context = createContextService({ clock, entities, memory, relations, decay: config.memory });

  return { db, clock, config, embedder, llm, events, entities, audit, vectors, memory, relations, context };
}
export type Services = ReturnType<typeof createServices>;
