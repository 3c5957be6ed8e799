/**
 * Read models for the admin UI's tier pages (/admin/sessions): conversations across every entity,
 * newest first, with their turn counts. Read-only; writes go through the tier services.
 */
import type { Db } from '../../db/open.js';

export interface SessionListRow {
  id: number;
  entity_name: string;
  started_at: number;
  ended_at: number | null;
  status: 'open' | 'closed';
  summary: string | null;
  turn_count: number;
}

export function createTiersRead(db: Db) {
  const sessions = db.prepare(
    `SELECT s.id, e.name AS entity_name, s.started_at, s.ended_at, s.status, s.summary,
            (SELECT count(*) FROM session_turns t WHERE t.session_id = s.id) AS turn_count
       FROM sessions s JOIN entities e ON e.id = s.entity_id
      WHERE (@status IS NULL OR s.status = @status)
      ORDER BY s.started_at DESC, s.id DESC LIMIT @limit OFFSET @offset`,
  );
  return {
    /** Conversations with anyone, newest first; `status` keeps open or closed ones. */
    listSessions(q: { status?: 'open' | 'closed'; limit?: number; offset?: number } = {}): SessionListRow[] {
      return sessions.all({
        status: q.status ?? null,
        limit: q.limit ?? 50,
        offset: q.offset ?? 0,
      }) as SessionListRow[];
    },
  };
}
