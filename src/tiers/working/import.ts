/**
 * Working-memory tasks and slots from an importer (io/memory-mcp), already checked by the working
 * doors' schemas (WmOpenInput, WmSetInput): the tier's own writes, keeping status, TTL, closing time,
 * the memory a closed task was promoted to, and the slots' times.
 */
import type { EntitiesRepo } from '../entities/entities.repo.js';
import type { WorkingRepo } from './working.repo.js';
import { TASK_STATUSES, type TaskStatus, type WmOpenInput, type WmSetInput } from './working.schemas.js';

export interface TaskKept {
  status: string;
  created: number;
  ttl_ts: number | null;
  closed_at: number | null;
  promoted_memory_id: number | null;
}

/** `repo` is the tier service's own (services.ts), so the statements are prepared once. */
export function createWorkingImport(deps: { entities: EntitiesRepo; repo: WorkingRepo }) {
  const { entities, repo } = deps;
  return {
    /** A task (of `input.entity_name` when given, which must exist); an unknown status reads as closed. */
    task(input: WmOpenInput, kept: TaskKept): number {
      const entityId = input.entity_name === undefined ? null : entities.get(input.entity_name).id;
      const status: TaskStatus = (TASK_STATUSES as readonly string[]).includes(kept.status)
        ? (kept.status as TaskStatus)
        : 'closed';
      return repo.importTask(input.task_name, entityId, status, kept);
    },
    slot: (input: WmSetInput, kept: { created: number; updated: number }) =>
      repo.importSlot(input.task_id, input.key, JSON.stringify(input.value), kept),
  };
}
export type WorkingImport = ReturnType<typeof createWorkingImport>;
