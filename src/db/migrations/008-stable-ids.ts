/**
 * Ids are never reused, and entity identity is one Unicode-aware key (issue #10 items 1 and 3).
 *
 * 1. Every table whose ids leave the database or are cached in a process (entities, series,
 *    sources, memories, sessions and turns, tasks and slots, locations, relations, schedule events,
 *    promoted patterns) is rebuilt with `INTEGER PRIMARY KEY AUTOINCREMENT`, ids kept. Without it
 *    SQLite hands the highest freed id to the next row, so a process still holding the id of an
 *    entity another process forgot would file into whatever took the id next.
 * 2. `entities.name_key` (UNIQUE) = `nameKey(name)` from `lib/names.ts` replaces `name UNIQUE COLLATE
 *    NOCASE` (ASCII-only folding); names are stored normalised (format characters removed, NFC).
 *    Names that now share a key are merged into the OLDEST entity (earliest `created`, then lowest
 *    id), which keeps its name, type and meta: the others' memories, relations, sessions, events,
 *    tasks, patterns and locations move to it; their series move to it, or — when it already has
 *    that metric — their readings join its series and its rollups are rebuilt by the next pass.
 *    Where a unique rule forbids the move (a second active location) the younger row is dropped.
 *
 * Runs with foreign keys off (SQLite's table-rebuild procedure, lang_altertable.html §7); the
 * runner checks `PRAGMA foreign_key_check` before committing.
 */
import type { Db } from '../open.js';
import { nameKey, normaliseName } from '../../lib/names.js';

const STABLE = [
  'entities',
  'series',
  'sources',
  'memories',
  'sessions',
  'session_turns',
  'working_memory_tasks',
  'working_memory_slots',
  'locations',
  'relations',
  'schedule_events',
  'promoted_patterns',
];

/** Recreates `table` with AUTOINCREMENT (and `edit` applied to its CREATE), keeping rows, ids, indexes and triggers. */
function rebuild(db: Db, table: string, edit: (sql: string) => string = (s) => s) {
  const sql = db
    .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?")
    .pluck()
    .get(table) as string;
  const extras = db
    .prepare("SELECT sql FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL")
    .pluck()
    .all(table) as string[];
  const tmp = `${table}_rebuild`;
  const create = edit(sql)
    .replace(/^CREATE TABLE\s+"?\w+"?/i, `CREATE TABLE ${tmp}`)
    .replace(/\bid(\s+)INTEGER PRIMARY KEY\b(?!\s+AUTOINCREMENT)/i, 'id$1INTEGER PRIMARY KEY AUTOINCREMENT');
  if (create === sql.replace(/^CREATE TABLE\s+"?\w+"?/i, `CREATE TABLE ${tmp}`)) return; // already AUTOINCREMENT
  const cols = (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => `"${c.name}"`).join(', ');
  db.exec(create);
  db.exec(`INSERT INTO ${tmp} (${cols}) SELECT ${cols} FROM ${table} ORDER BY id`);
  db.exec(`DROP TABLE ${table}`);
  db.exec(`ALTER TABLE ${tmp} RENAME TO ${table}`);
  for (const x of extras) db.exec(x);
}

/** (table, column) pairs that reference entities(id), from the schema itself. */
function entityRefs(db: Db): { table: string; column: string; notNull: boolean }[] {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%REFERENCES entities%'")
    .pluck()
    .all() as string[];
  return tables.flatMap((table) => {
    const info = db.pragma(`table_info(${table})`) as { name: string; notnull: number }[];
    return (db.pragma(`foreign_key_list(${table})`) as { table: string; from: string }[])
      .filter((fk) => fk.table === 'entities')
      .map((fk) => ({ table, column: fk.from, notNull: info.find((c) => c.name === fk.from)!.notnull === 1 }));
  });
}

/** Moves everything of entity `from` to entity `to` (the older one), then deletes `from`. */
function merge(db: Db, from: number, to: number) {
  const seriesOf = db.prepare('SELECT id, metric FROM series WHERE entity_id = ?');
  const theirs = new Map((seriesOf.all(to) as { id: number; metric: string }[]).map((s) => [s.metric, s.id]));
  for (const s of seriesOf.all(from) as { id: number; metric: string }[]) {
    const into = theirs.get(s.metric);
    if (into === undefined) {
      db.prepare('UPDATE series SET entity_id = ? WHERE id = ?').run(to, s.id);
      continue;
    }
    db.prepare('UPDATE readings SET series_id = ? WHERE series_id = ?').run(into, s.id);
    for (const t of ['reading_rollups', 'rollup_watermarks'])
      db.prepare(`DELETE FROM ${t} WHERE series_id IN (?, ?)`).run(s.id, into);
    db.prepare('DELETE FROM series WHERE id = ?').run(s.id);
  }
  for (const { table, column, notNull } of entityRefs(db)) {
    if (table === 'series') continue;
    db.prepare(`UPDATE OR IGNORE ${table} SET ${column} = ? WHERE ${column} = ?`).run(to, from);
    db.prepare(
      notNull ? `DELETE FROM ${table} WHERE ${column} = ?` : `UPDATE ${table} SET ${column} = NULL WHERE ${column} = ?`,
    ).run(from);
  }
  db.prepare('DELETE FROM entities WHERE id = ?').run(from);
}

export default function stableIds(db: Db): void {
  const rows = db.prepare('SELECT id, name FROM entities ORDER BY created, id').all() as { id: number; name: string }[];
  const keep = new Map<string, number>();
  const renamed: { id: number; name: string; key: string }[] = [];
  for (const r of rows) {
    // A name of format characters only has no normalised form; it keeps its text as name and key.
    const name = normaliseName(r.name) || r.name;
    const key = nameKey(name) || r.name;
    const older = keep.get(key);
    if (older === undefined) {
      keep.set(key, r.id);
      renamed.push({ id: r.id, name, key });
    } else merge(db, r.id, older);
  }
  db.exec('ALTER TABLE entities ADD COLUMN name_key TEXT');
  // Names first moved aside: a normalised name may equal (NOCASE) another row's old spelling until all are updated.
  db.exec('UPDATE entities SET name = char(1) || id'); // control characters never reach a stored name
  const set = db.prepare('UPDATE entities SET name = ?, name_key = ? WHERE id = ?');
  for (const r of renamed) set.run(r.name, r.key, r.id);
  for (const table of STABLE) {
    rebuild(db, table, (sql) =>
      table === 'entities'
        ? sql
            .replace(/\bname(\s+)TEXT NOT NULL UNIQUE COLLATE NOCASE/i, 'name$1TEXT NOT NULL')
            .replace(/\bname_key TEXT\b/, 'name_key TEXT NOT NULL UNIQUE')
        : sql,
    );
  }
}
