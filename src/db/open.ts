/**
 * Opens the one SQLite authority (SPEC §2): WAL, foreign keys, busy timeout, sqlite-vec loaded,
 * migrations by `PRAGMA user_version`. Data dir 0700, database 0600.
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { MIGRATIONS } from './migrations/index.js';

export type Db = Database.Database;

export class SchemaError extends Error {
  override name = 'SchemaError';
}

export interface OpenOptions {
  /** Directory for the database; created 0700. Use ':memory:' only in unit tests. */
  dataDir: string;
  fileName?: string;
}

export function openDatabase({ dataDir, fileName = 'hearth.db' }: OpenOptions): Db {
  let path = ':memory:';
  if (dataDir !== ':memory:') {
    if (!existsSync(dataDir)) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700);
    path = join(dataDir, fileName);
  }
  const db = new Database(path);
  if (path !== ':memory:') chmodSync(path, 0o600);
  db.pragma('journal_mode = WAL');
  // FULL in WAL mode fsyncs the WAL at each commit: an acknowledged write survives a power cut.
  // Writers batch rows per transaction, so the fsync is paid per batch, not per row.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  sqliteVec.load(db);
  immediateByDefault(db);
  migrate(db);
  return db;
}

/**
 * `db.transaction(fn)()` runs BEGIN IMMEDIATE: every transaction here writes, and a deferred one
 * that reads first fails with SQLITE_BUSY_SNAPSHOT (no busy wait helps) when another process — a
 * `hearth mcp` beside `serve` — commits between its first read and its first write. IMMEDIATE takes
 * the write lock up front and waits `busy_timeout` for it instead. `.deferred` stays available.
 * Nested calls are savepoints as before (better-sqlite3 decides that by `db.inTransaction`).
 */
function immediateByDefault(db: Db): void {
  const make = db.transaction.bind(db);
  db.transaction = ((fn: (...args: never[]) => unknown) => {
    const t = make(fn);
    return Object.assign((...args: never[]) => t.immediate(...args), { default: t.immediate, deferred: t.deferred, immediate: t.immediate, exclusive: t.exclusive });
  }) as Db['transaction'];
}

/**
 * Applies pending migrations in one transaction each; refuses a database from a newer Hearth.
 * Foreign keys are off meanwhile (a table rebuild's DROP must not cascade — SQLite's documented
 * procedure) and `foreign_key_check` must come back empty before each commits. IMMEDIATE and a
 * second look at `user_version` inside: two processes starting together apply each step once.
 */
export function migrate(db: Db): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new SchemaError(
      `database schema version ${current} is newer than this Hearth understands (${MIGRATIONS.length}); upgrade Hearth or restore a backup`,
    );
  }
  if (current === MIGRATIONS.length) return current;
  const fk = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  db.pragma('legacy_alter_table = ON'); // a rebuilt table's rename leaves other tables' triggers and REFERENCES as written
  try {
    for (let v = current; v < MIGRATIONS.length; v++) {
      db.transaction(() => {
        if ((db.pragma('user_version', { simple: true }) as number) > v) return; // another process applied it
        const m = MIGRATIONS[v];
        if (typeof m === 'string') db.exec(m);
        else m(db);
        const broken = db.pragma('foreign_key_check') as { table: string }[];
        if (broken.length) throw new SchemaError(`migration ${v + 1} left ${broken.length} rows without their parent (first in ${broken[0].table}); nothing was changed`);
        db.pragma(`user_version = ${v + 1}`);
      }).immediate();
    }
  } finally {
    db.pragma('legacy_alter_table = OFF');
    db.pragma(`foreign_keys = ${fk ? 'ON' : 'OFF'}`);
  }
  return MIGRATIONS.length;
}
