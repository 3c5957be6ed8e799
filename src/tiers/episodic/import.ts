/**
 * Sessions and turns from an importer (io/memory-mcp), already checked by the episodic doors' schemas
 * (OpenSessionInput, LogTurnInput): the episodic tier's own writes, with the original times kept.
 * A session arrives open so its turns can be appended (a trigger refuses turns of closed ones), then
 * `close` ends it as it ended in the source.
 */
import type { EntitiesRepo } from '../entities/entities.repo.js';
import type { EpisodicRepo } from './episodic.repo.js';
import type { LogTurnInput, OpenSessionInput } from './episodic.schemas.js';

export function createEpisodicImport(deps: { entities: EntitiesRepo; repo: EpisodicRepo }) {
  const { entities, repo } = deps;
  return {
    /** An open session of `input.entity_name` (which must exist), started at `kept.started_at`. */
    session(input: OpenSessionInput, kept: { started_at: number; summary: string | null }): number {
      const e = entities.get(input.entity_name);
      return repo.insertImported(e.id, kept.started_at, kept.summary, input.meta ?? {});
    },
    turn: (input: LogTurnInput & { ts: number }) =>
      repo.insertTurn(input.session_id, input.role, input.content, input.ts),
    /** Ends an imported session at its original time, keeping its summary. */
    close: (id: number, endedAt: number) => repo.closeImported(id, endedAt),
  };
}
export type EpisodicImport = ReturnType<typeof createEpisodicImport>;
