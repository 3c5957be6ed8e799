/**
 * The importers' ledger (`import_map`, migration 008): which source row became which Hearth row, so
 * a second run copies only what is new. Also the one way an importer holds a transaction: `atomic`
 * runs its writes as one (nested: a savepoint), so io/ never touches the database itself.
 */
import type { Db } from '../../db/open.js';

export function createImportMapRepo(db: Db) {
  const get = db.prepare('SELECT dst_id FROM import_map WHERE source = ? AND tbl = ? AND src_id = ?').pluck();
  const put = db.prepare('INSERT INTO import_map (source, tbl, src_id, dst_id) VALUES (?, ?, ?, ?)');
  const anyOf = db.prepare('SELECT 1 FROM import_map WHERE source = ? LIMIT 1');
  // Built once: better-sqlite3 prepares a transaction's statements when the wrapper is made.
  const tx = db.transaction((fn: () => unknown) => fn());
  return {
    /** The Hearth id a source row became under `source`, if an earlier run (or this one) copied it. */
    get: (source: string, table: string, srcId: unknown): number | undefined =>
      get.get(source, table, srcId) as number | undefined,
    put: (source: string, table: string, srcId: unknown, dstId: number) => void put.run(source, table, srcId, dstId),
    /** Whether anything was ever recorded under `source`. */
    has: (source: string) => !!anyOf.get(source),
    /** Runs `fn` as one transaction (a savepoint inside another): a throw undoes all it wrote. */
    atomic: <T>(fn: () => T): T => tx(fn) as T,
  };
}
export type ImportMap = ReturnType<typeof createImportMapRepo>;
