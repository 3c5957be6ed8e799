/**
 * What the audit log's entries name, read now (changes.ts puts it in words): the newest entries, the
 * row that created or forgot a target, and each tier's row by id with the names it joins. Read-only.
 */
import type { Db } from '../../db/open.js';
import type { AuditRow } from '../audit/audit.repo.js';

export function createChangesReader(db: Db) {
  // audit
  const recent = db.prepare('SELECT * FROM audit ORDER BY ts DESC, id DESC LIMIT ?');
  const lastOf = db.prepare('SELECT before, after FROM audit WHERE op = ? AND target = ? ORDER BY id DESC LIMIT 1');
  // An entity since forgotten: its name as the forget recorded it.
  const forgottenName = db
    .prepare(
      "SELECT json_extract(before, '$.entity.name') FROM audit WHERE op = 'entity.forget' AND json_extract(before, '$.entity.id') = ? ORDER BY id DESC LIMIT 1",
    )
    .pluck();
  // entities and their aliases
  const entityName = db
    .prepare(
      'SELECT e.name FROM entities e WHERE e.name_key = @key UNION ALL SELECT e.name FROM entity_aliases a JOIN entities e ON e.id = a.entity_id WHERE a.name_key = @key LIMIT 1',
    )
    .pluck();
  const entityById = db.prepare('SELECT name FROM entities WHERE id = ?').pluck();
  // each tier's rows, with their entities' names
  const memory = db.prepare(
    'SELECT m.fact, e.name FROM memories m JOIN entities e ON e.id = m.entity_id WHERE m.id = ?',
  );
  const relation = db.prepare(
    'SELECT r.rel_type, a.name AS a, b.name AS b FROM relations r JOIN entities a ON a.id = r.entity_a JOIN entities b ON b.id = r.entity_b WHERE r.id = ?',
  );
  const location = db.prepare(
    'SELECT e.name, l.container_name FROM locations l JOIN entities e ON e.id = l.entity_id WHERE l.id = ?',
  );
  const intention = db.prepare(
    'SELECT e.name, i.trigger_text, i.action_text FROM intentions i JOIN entities e ON e.id = i.entity_id WHERE i.id = ?',
  );
  const session = db
    .prepare('SELECT e.name FROM sessions s JOIN entities e ON e.id = s.entity_id WHERE s.id = ?')
    .pluck();
  const task = db.prepare(
    'SELECT t.name, e.name AS entity FROM working_memory_tasks t LEFT JOIN entities e ON e.id = t.entity_id WHERE t.id = ?',
  );
  const schedule = db.prepare(
    'SELECT e.name, s.title FROM schedule_events s JOIN entities e ON e.id = s.entity_id WHERE s.id = ?',
  );
  type Target = string | number | null;

  return {
    /** The newest `limit` entries, newest first. */
    recent: (limit: number) => recent.all(limit) as AuditRow[],
    /** The newest entry of `op` about `target`: its before and after as stored (JSON text). */
    lastOf: (op: string, target: Target) =>
      lastOf.get(op, target) as { before: string | null; after: string | null } | undefined,
    /** The name a forgotten entity had, as its `entity.forget` recorded it. */
    forgottenName: (entityId: unknown) => forgottenName.get(entityId) as string | undefined,
    /** The current name of the entity a name key is the name or an alias of. */
    entityName: (key: string) => entityName.get({ key }) as string | undefined,
    entityById: (id: unknown) => entityById.get(id) as string | undefined,
    memory: (id: Target) => memory.get(id) as { fact: string; name: string } | undefined,
    relation: (id: Target) => relation.get(id) as { rel_type: string; a: string; b: string } | undefined,
    location: (id: Target) => location.get(id) as { name: string; container_name: string } | undefined,
    intention: (id: Target) =>
      intention.get(id) as { name: string; trigger_text: string; action_text: string } | undefined,
    /** The name of the entity a session is with. */
    session: (id: Target) => session.get(id) as string | undefined,
    task: (id: Target) => task.get(id) as { name: string; entity: string | null } | undefined,
    schedule: (id: Target) => schedule.get(id) as { name: string; title: string } | undefined,
  };
}
export type ChangesReader = ReturnType<typeof createChangesReader>;
