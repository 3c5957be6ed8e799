/**
 * The admin pages' reads across tiers: entities by name with their memory counts, the types in use,
 * an entity's sessions and memories (current, or superseded and contested), and conversations across
 * every entity (/admin/sessions). Read-only; writes go through the tier services.
 */
import type { Db } from '../../db/open.js';
import type { MemoryRow } from '../memory/memory.repo.js';

export interface EntityListRow {
  id: number;
  name: string;
  type: string;
  updated: number;
  memory_count: number;
}

export interface SessionListRow {
  id: number;
  entity_name: string;
  started_at: number;
  ended_at: number | null;
  status: 'open' | 'closed';
  summary: string | null;
  turn_count: number;
}

const TURN_COUNT = '(SELECT count(*) FROM session_turns t WHERE t.session_id = s.id) AS turn_count';
const MEMORY = 'SELECT m.*, e.name AS entity_name FROM memories m JOIN entities e ON e.id = m.entity_id';

export function createOverviewReader(db: Db) {
  // entities
  const WITH_COUNT = `SELECT e.id, e.name, e.type, e.updated,
      (SELECT count(*) FROM memories m WHERE m.entity_id = e.id AND m.status = 'active') AS memory_count FROM entities e`;
  const search = db.prepare(
    `${WITH_COUNT} WHERE (@q IS NULL OR e.name_key LIKE @q ESCAPE '\\'
        OR e.id IN (SELECT entity_id FROM entity_aliases WHERE name_key LIKE @q ESCAPE '\\')) AND (@type IS NULL OR e.type = @type)
      ORDER BY e.name_key LIMIT @limit OFFSET @offset`,
  );
  const types = db.prepare('SELECT type, count(*) AS n FROM entities GROUP BY type ORDER BY type');
  // sessions
  const sessionsOf = db.prepare(
    `SELECT s.id, s.started_at, s.ended_at, s.status, s.summary, ${TURN_COUNT}
       FROM sessions s WHERE s.entity_id = ? ORDER BY s.started_at DESC, s.id DESC LIMIT ?`,
  );
  const sessions = db.prepare(
    `SELECT s.id, e.name AS entity_name, s.started_at, s.ended_at, s.status, s.summary,
            ${TURN_COUNT}
       FROM sessions s JOIN entities e ON e.id = s.entity_id
      WHERE (@status IS NULL OR s.status = @status)
      ORDER BY s.started_at DESC, s.id DESC LIMIT @limit OFFSET @offset`,
  );
  // memories
  const history = db.prepare(
    `${MEMORY}
      WHERE m.entity_id = ? AND m.status != 'active' ORDER BY m.updated DESC, m.id DESC LIMIT ?`,
  );
  const active = db.prepare(
    `${MEMORY}
      WHERE m.entity_id = ? AND m.status = 'active' ORDER BY m.category, m.id`,
  );

  return {
    /** Entities whose name or an alias matches the LIKE pattern `q` (null: any), of one type (null: any), by name. */
    searchEntities: (q: { q: string | null; type: string | null; limit: number; offset: number }) =>
      search.all(q) as EntityListRow[],
    entityTypes: () => types.all() as { type: string; n: number }[],
    /** An entity's sessions, newest first. */
    sessionsOf: (entityId: number, limit: number) =>
      sessionsOf.all(entityId, limit) as Omit<SessionListRow, 'entity_name'>[],
    /** Conversations with anyone, newest first; `status` null keeps both open and closed ones. */
    sessions: (q: { status: 'open' | 'closed' | null; limit: number; offset: number }) =>
      sessions.all(q) as SessionListRow[],
    /** An entity's current memories, by category. */
    activeMemories: (entityId: number) => active.all(entityId) as MemoryRow[],
    /** An entity's superseded and contested memories, newest change first. */
    memoryHistory: (entityId: number, limit: number) => history.all(entityId, limit) as MemoryRow[],
  };
}
export type OverviewReader = ReturnType<typeof createOverviewReader>;
