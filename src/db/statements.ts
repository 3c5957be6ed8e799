/**
 * Prepared statements for SQL built at call time (filters, IN lists): compiled once per distinct
 * text and reused, instead of compiling SQL and allocating a native statement on every request.
 * Only for statements used with plain run/get/all (raw()/pluck() would change a shared statement).
 */
import type Database from 'better-sqlite3';
import type { Db } from './open.js';

type Statement = Database.Statement<unknown[], unknown>;

export function statementCache(db: Db, max = 256) {
  const cache = new Map<string, Statement>();
  return (sql: string): Statement => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql) as Statement;
      if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      cache.set(sql, stmt);
    }
    return stmt;
  };
}
