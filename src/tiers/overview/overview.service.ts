/**
 * Read models across tiers for the admin UI and `/api/graph`: entity search, the entity graph, an
 * entity's sessions and the superseded/contested versions of its memories (the counts: status.service.ts).
 * Read-only (the rows: overview.reader.ts); every write goes through the tier services.
 */
import { nameKey } from '../../lib/names.js';
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { effectiveConfidence, type DecayConfig } from '../memory/decay.js';
import type { MemoryRow } from '../memory/memory.repo.js';
import { createGraphModel } from './graph.js';
import { createOverviewReader, type SessionListRow } from './overview.reader.js';

export type { GraphEdge, GraphNode, GraphQueryInput } from './graph.js';

/** `LIKE` pattern matching `q` anywhere, with the user's `%`, `_` and `\` taken literally. */
export const likeAnywhere = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createOverviewService(deps: { db: Db; clock: Clock; decay: DecayConfig }) {
  const { db, clock, decay } = deps;
  const read = createOverviewReader(db);
  const graph = createGraphModel(db);

  const withEffective = (m: MemoryRow, now: number) => ({
    ...m,
    effective_confidence: Math.round(effectiveConfidence(m, now, decay) * 10_000) / 10_000,
  });

  return {
    /** Conversations with anyone, newest first; `status` keeps open or closed ones. */
    listSessions(q: { status?: 'open' | 'closed'; limit?: number; offset?: number } = {}): SessionListRow[] {
      return read.sessions({ status: q.status ?? null, limit: q.limit ?? 50, offset: q.offset ?? 0 });
    },

    /** Entities whose name contains `q` (case-insensitive, literal), of one type, by name. */
    searchEntities(q: { q?: string; type?: string; limit?: number; offset?: number }) {
      return read.searchEntities({
        q: q.q ? likeAnywhere(nameKey(q.q)) : null,
        type: q.type ?? null,
        limit: q.limit ?? 200,
        offset: q.offset ?? 0,
      });
    },

    entityTypes: read.entityTypes,

    /** Entities (types inferred where the data says), current relations and located objects → their place: graph.ts. */
    graph: graph.graph,
    graphView: graph.view,
    /** The type an entity is shown as (stored, or inferred while `unknown`; never written): graph.ts. */
    shownType: graph.shownType,

    sessionsOf: (entityId: number, limit = 20) => read.sessionsOf(entityId, limit),

    /** Current memories of an entity with their decayed confidence. */
    memoriesOf(entityId: number) {
      const now = clock.now();
      return read.activeMemories(entityId).map((m) => withEffective(m, now));
    },

    /** Superseded and contested versions, newest change first. */
    historyOf: (entityId: number, limit = 100) => read.memoryHistory(entityId, limit),
  };
}
export type OverviewService = ReturnType<typeof createOverviewService>;
