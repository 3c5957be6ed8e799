/**
 * The storage behind the services — the database, the vector index, the repositories, the rollups —
 * for the wiring (main.ts, scheduler.ts), scripts and tests. Doors never import this file (house rule
 * `door-imports-internals`): what they need is a service method.
 */
import type { Db } from './db/open.js';
import type { VectorStore } from './db/vectors.js';
import type { AuditRepo } from './tiers/audit/audit.repo.js';
import type { EntitiesRepo } from './tiers/entities/entities.repo.js';
import type { MemoryRepo } from './tiers/memory/memory.repo.js';
import type { Retention } from './tiers/timeseries/retention.js';
import type { Rollups } from './tiers/timeseries/rollup.js';
import type { TimeseriesService } from './tiers/timeseries/timeseries.service.js';

export interface Internals {
  db: Db;
  vectors: VectorStore;
  entities: EntitiesRepo;
  audit: AuditRepo;
  rollups: Rollups;
  retention: Retention;
  memoryRepo: MemoryRepo;
  seriesRepo: TimeseriesService['repo'];
}

const table = new WeakMap<object, Internals>();

/** Called once by createServices. */
export function attachInternals(services: object, internals: Internals): void {
  table.set(services, internals);
}

/** The storage behind `services` (made by createServices). */
export function internals(services: object): Internals {
  const found = table.get(services);
  if (!found) throw new Error('internals: not a services object made by createServices');
  return found;
}

/** `obj` without its `key` property; getters stay getters (a spread would read them once). */
export function without<T extends object, K extends keyof T>(obj: T, key: K): Omit<T, K> {
  const descriptors = Object.getOwnPropertyDescriptors(obj) as Record<PropertyKey, PropertyDescriptor>;
  delete descriptors[key as PropertyKey];
  return Object.defineProperties({}, descriptors) as Omit<T, K>;
}
