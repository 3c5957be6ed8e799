/**
 * Read models across tiers for the admin UI and `/api/graph`: counts per tier, entity search, the
 * entity graph, an entity's sessions and the superseded/contested versions of its memories.
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

/** Below this many raw readings the dashboard counts them exactly. */
export const EXACT_UP_TO = 200_000;

/** `LIKE` pattern matching `q` anywhere, with the user's `%`, `_` and `\` taken literally. */
export const likeAnywhere = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createOverviewService(deps: { db: Db; clock: Clock; decay: DecayConfig; exactUpTo?: number }) {
  const { db, clock, decay } = deps;
  const exactUpTo = deps.exactUpTo ?? EXACT_UP_TO;
  const one = (sql: string) => db.prepare(sql).pluck();
  const counts = {
    entities: one('SELECT count(*) FROM entities'),
    memories: db.prepare('SELECT status, count(*) AS n FROM memories GROUP BY status'),
    relations: one('SELECT count(*) FROM relations WHERE valid_until IS NULL'),
    series: one('SELECT count(*) FROM series'),
    readings: one('SELECT count(*) FROM readings'),
    readingsSeq: one("SELECT seq FROM sqlite_sequence WHERE name = 'readings'"),
    readingsDeleted: one("SELECT n FROM counters WHERE name = 'readings_deleted'"),
    sessions: one('SELECT count(*) FROM sessions'),
    turns: one('SELECT count(*) FROM session_turns'),
    tasks: one("SELECT count(*) FROM working_memory_tasks WHERE status = 'open'"),
    intentions: one('SELECT count(*) FROM intentions WHERE active = 1'),
    locations: one('SELECT count(*) FROM locations WHERE active = 1'),
    schedule: one('SELECT count(*) FROM schedule_events'),
    patterns: one('SELECT count(*) FROM promoted_patterns'),
  };
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

  /**
   * Raw readings stored. count(*) walks an index (~50 ms per million rows on a desktop, several times
   * that on a Pi), so past `exactUpTo` the count is ids handed out (AUTOINCREMENT) minus rows deleted
   * (the trigger counter of migration 007) — exact unless rows were deleted before that migration.
   */
  function readingsStored(): { n: number; exact: boolean } {
    const est = Math.max(0, ((counts.readingsSeq.get() as number | undefined) ?? 0) - ((counts.readingsDeleted.get() as number | undefined) ?? 0));
    return est <= exactUpTo ? { n: counts.readings.get() as number, exact: true } : { n: est, exact: false };
  }

  const withEffective = (m: MemoryRow, now: number) => ({ ...m, effective_confidence: Math.round(effectiveConfidence(m, now, decay) * 10_000) / 10_000 });

  return {
    ...createTiersRead(db),

    /** Rows per tier (current relations, open tasks, live intentions, active locations). */
    counts() {
      const byStatus = Object.fromEntries((counts.memories.all() as { status: string; n: number }[]).map((r) => [r.status, r.n]));
      const n = (k: Exclude<keyof typeof counts, 'memories'>) => counts[k].get() as number;
      const readings = readingsStored();
      return {
        entities: n('entities'),
        memories: { active: byStatus.active ?? 0, superseded: byStatus.superseded ?? 0, contested: byStatus.contested ?? 0 },
        relations: n('relations'), series: n('series'), readings: readings.n, readings_exact: readings.exact, sessions: n('sessions'), turns: n('turns'),
        open_tasks: n('tasks'), active_intentions: n('intentions'), located_objects: n('locations'), schedule_events: n('schedule'),
        promoted_patterns: n('patterns'),
      };
    },

    /** Entities whose name contains `q` (case-insensitive, literal), of one type, by name. */
    searchEntities(q: { q?: string; type?: string; limit?: number; offset?: number }) {
      return search.all({ q: q.q ? likeAnywhere(nameKey(q.q)) : null, type: q.type ?? null, limit: q.limit ?? 200, offset: q.offset ?? 0 }) as {
        id: number; name: string; type: string; updated: number; memory_count: number;
      }[];
    },

    entityTypes: () => types.all() as { type: string; n: number }[],

    /** Entities (types inferred where the data says), current relations and located objects → their place: graph.ts. */
    graph: graph.graph,
    graphView: graph.view,
    /** The type an entity is shown as (stored, or inferred while `unknown`; never written): graph.ts. */
    shownType: graph.shownType,

    sessionsOf: (entityId: number, limit = 20) =>
      sessions.all(entityId, limit) as { id: number; started_at: number; ended_at: number | null; status: string; summary: string | null; turn_count: number }[],

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
