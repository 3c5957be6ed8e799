/**
 * Read models across tiers for the admin UI and `/api/graph`: entity search, the entity graph, an
 * entity's sessions and the superseded/contested versions of its memories (the counts: status.service.ts).
 * Read-only; every write goes through the tier services.
 */
import { nameKey } from '../../lib/names.js';
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { effectiveConfidence, type DecayConfig } from '../memory/decay.js';
import type { MemoryRow } from '../memory/memory.repo.js';
import { createGraphModel } from './graph.js';
import { createTiersRead } from './tiers.read.js';

export type { GraphEdge, GraphNode, GraphQueryInput } from './graph.js';

/** `LIKE` pattern matching `q` anywhere, with the user's `%`, `_` and `\` taken literally. */
export const likeAnywhere = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createOverviewService(deps: { db: Db; clock: Clock; decay: DecayConfig }) {
  const { db, clock, decay } = deps;
  const WITH_COUNT = `SELECT e.id, e.name, e.type, e.updated,
      (SELECT count(*) FROM memories m WHERE m.entity_id = e.id AND m.status = 'active') AS memory_count FROM entities e`;
  const search = db.prepare(
    `${WITH_COUNT} WHERE (@q IS NULL OR e.name_key LIKE @q ESCAPE '\\'
        OR e.id IN (SELECT entity_id FROM entity_aliases WHERE name_key LIKE @q ESCAPE '\\')) AND (@type IS NULL OR e.type = @type)
      ORDER BY e.name_key LIMIT @limit OFFSET @offset`,
  );
  const types = db.prepare('SELECT type, count(*) AS n FROM entities GROUP BY type ORDER BY type');
  const graph = createGraphModel(db);
  const sessions = db.prepare(
    `SELECT s.id, s.started_at, s.ended_at, s.status, s.summary, (SELECT count(*) FROM session_turns t WHERE t.session_id = s.id) AS turn_count
       FROM sessions s WHERE s.entity_id = ? ORDER BY s.started_at DESC, s.id DESC LIMIT ?`,
  );
  const history = db.prepare(
    `SELECT m.*, e.name AS entity_name FROM memories m JOIN entities e ON e.id = m.entity_id
      WHERE m.entity_id = ? AND m.status != 'active' ORDER BY m.updated DESC, m.id DESC LIMIT ?`,
  );
  const active = db.prepare(
    `SELECT m.*, e.name AS entity_name FROM memories m JOIN entities e ON e.id = m.entity_id
      WHERE m.entity_id = ? AND m.status = 'active' ORDER BY m.category, m.id`,
  );

  const withEffective = (m: MemoryRow, now: number) => ({
    ...m,
    effective_confidence: Math.round(effectiveConfidence(m, now, decay) * 10_000) / 10_000,
  });

  return {
    ...createTiersRead(db),

    /** Entities whose name contains `q` (case-insensitive, literal), of one type, by name. */
    searchEntities(q: { q?: string; type?: string; limit?: number; offset?: number }) {
      return search.all({
        q: q.q ? likeAnywhere(nameKey(q.q)) : null,
        type: q.type ?? null,
        limit: q.limit ?? 200,
        offset: q.offset ?? 0,
      }) as {
        id: number;
        name: string;
        type: string;
        updated: number;
        memory_count: number;
      }[];
    },

    entityTypes: () => types.all() as { type: string; n: number }[],

    /** Entities (types inferred where the data says), current relations and located objects → their place: graph.ts. */
    graph: graph.graph,
    graphView: graph.view,
    /** The type an entity is shown as (stored, or inferred while `unknown`; never written): graph.ts. */
    shownType: graph.shownType,

    sessionsOf: (entityId: number, limit = 20) =>
      sessions.all(entityId, limit) as {
        id: number;
        started_at: number;
        ended_at: number | null;
        status: string;
        summary: string | null;
        turn_count: number;
      }[],

    /** Current memories of an entity with their decayed confidence. */
    memoriesOf(entityId: number) {
      const now = clock.now();
      return (active.all(entityId) as MemoryRow[]).map((m) => withEffective(m, now));
    },

    /** Superseded and contested versions, newest change first. */
    historyOf: (entityId: number, limit = 100) => history.all(entityId, limit) as MemoryRow[],
  };
}
export type OverviewService = ReturnType<typeof createOverviewService>;
