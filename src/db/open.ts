/**
 * Opens the one SQLite authority (SPEC §2): WAL, foreign keys, busy timeout, sqlite-vec loaded,
 * migrations by `PRAGMA user_version`. A data dir or database Hearth creates is 0700 / 0600; an
 * existing one's mode and owner are left alone. Every opener holds the data dir's shared lock
 * (src/db/locks.ts) until `close()`. Problems a person can fix are one-line `DataError`s.
 */
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { MIGRATIONS } from './migrations/index.js';
import { DataError, damagedMessage, explainOpenError, isDamaged } from './errors.js';
import { makeDataDir } from './make-dir.js';
import { acquireLock, type Release } from './locks.js';
import { backupBeforeMigration } from './premigration.js';

export type Db = Database.Database;

export class SchemaError extends Error {
  override name = 'SchemaError';
}

export interface OpenOptions {
  /** Directory for the database; created 0700. Use ':memory:' only in unit tests. */
  dataDir: string;
  fileName?: string;
  /** 'exclusive': the data dir to itself (import); 'none' only for a caller that already holds the exclusive lock (restore). */
  lock?: 'shared' | 'exclusive' | 'none';
  /** Refuse an empty database with a `.before-restore-*` copy beside it (default true; restore: false). */
  keptCheck?: boolean;
  /** Where notices go (the pre-migration backup line); default stderr. */
  log?: (line: string) => void;
}

const stderrLine = (line: string) => void process.stderr.write(`hearth: ${line}\n`);

export function openDatabase({
  dataDir,
  fileName = 'hearth.db',
  lock = 'shared',
  log = stderrLine,
  keptCheck = true,
}: OpenOptions): Db {
  if (dataDir === ':memory:') return configure(new Database(':memory:'), { log });
  const path = join(dataDir, fileName);
  let release: Release = () => {};
  let db: Db | undefined;
  try {
    makeDataDir(dataDir);
    if (lock !== 'none') release = acquireLock(dataDir, lock);
    if (keptCheck) refuseInterruptedRestore(dataDir, fileName, path);
    assertWhole(path);
    if (!existsSync(path)) closeSync(openSync(path, 'wx', 0o600)); // SQLite gives -wal/-shm the same mode
    db = new Database(path, { fileMustExist: true });
    configure(db, { path, log });
    if (keptCheck) refuseEmptyBesideKept(db, dataDir, fileName, path);
  } catch (e) {
    db?.close();
    release();
    throw e instanceof SchemaError ? e : (explainOpenError(e, dataDir, path) ?? e);
  }
  const close = db.close.bind(db);
  db.close = () => {
    try {
      return close();
    } finally {
      release();
    }
  };
  return db;
}

function configure(db: Db, { path, log }: { path?: string; log: (line: string) => void }): Db {
  db.pragma('journal_mode = WAL');
  // FULL in WAL mode fsyncs the WAL at each commit: an acknowledged write survives a power cut.
  // Writers batch rows per transaction, so the fsync is paid per batch, not per row.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('temp_store = MEMORY');
  sqliteVec.load(db);
  immediateByDefault(db);
  migrate(db, path ? { path, log } : undefined);
  return db;
}

/**
 * A file shorter than its header says (cut off by a failed copy) is refused before SQLite opens
 * it. Skipped while a WAL is present: a checkpoint interrupted by a crash can leave the same
 * picture, and SQLite finishes it from the WAL.
 */
const SQLITE_MAGIC = 'SQLite format 3\0';

/** Whether `path` starts with SQLite's file header (a database, whole or not). */
export function isSqliteFile(path: string): boolean {
  const head = Buffer.alloc(SQLITE_MAGIC.length);
  const fd = openSync(path, 'r');
  try {
    return readSync(fd, head, 0, head.length, 0) === head.length && head.toString('latin1') === SQLITE_MAGIC;
  } finally {
    closeSync(fd);
  }
}

function assertWhole(path: string): void {
  if (!existsSync(path) || (existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 0)) return;
  const size = statSync(path).size;
  if (size === 0) return;
  const header = Buffer.alloc(100);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  if (size < 100 || header.toString('latin1', 0, SQLITE_MAGIC.length) !== SQLITE_MAGIC) {
    throw new DataError(damagedMessage(path, 'file is not a database'));
  }
  const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16);
  const pages = header.readUInt32BE(28);
  const valid = header.readUInt32BE(92) === header.readUInt32BE(24);
  if (valid && pages * pageSize > size) {
    throw new DataError(
      damagedMessage(path, `truncated: the header counts ${pages * pageSize} bytes, the file has ${size}`),
    );
  }
}

/** `<file>.before-restore-<stamp>` copies an old or interrupted restore left beside the database. */
export function keptBeside(dataDir: string, fileName = 'hearth.db'): string[] {
  const re = new RegExp(`^${fileName.replace(/\./g, '\\.')}\\.before-restore-[0-9TZ-]+$`);
  return readdirSync(dataDir)
    .filter((n) => re.test(n) && statSync(join(dataDir, n)).size > 0)
    .sort()
    .reverse()
    .map((n) => join(dataDir, n));
}

/** True unless the file opens and has no entities (a copy that cannot be read counts as data). */
export function holdsData(path: string): boolean {
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return Boolean(db.prepare('SELECT 1 FROM entities LIMIT 1').get());
    } finally {
      db.close();
    }
  } catch {
    return true;
  }
}

const keptMessage = (path: string, kept: string, what: string) =>
  `${path} ${what} but ${kept} lies beside it (an interrupted restore?): install it with \`hearth restore ${kept}\`, or move it out of the data dir to start with an empty database`;

function refuseInterruptedRestore(dataDir: string, fileName: string, path: string): void {
  if (existsSync(path) && statSync(path).size > 0) return;
  const kept = keptBeside(dataDir, fileName).find(holdsData);
  if (kept) throw new DataError(keptMessage(path, kept, existsSync(path) ? 'is empty' : 'is missing'));
}

function refuseEmptyBesideKept(db: Db, dataDir: string, fileName: string, path: string): void {
  const candidates = keptBeside(dataDir, fileName);
  if (!candidates.length || db.prepare('SELECT 1 FROM entities LIMIT 1').get()) return;
  const kept = candidates.find(holdsData);
  if (kept) throw new DataError(keptMessage(path, kept, 'holds no data'));
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
    return Object.assign((...args: never[]) => t.immediate(...args), {
      default: t.immediate,
      deferred: t.deferred,
      immediate: t.immediate,
      exclusive: t.exclusive,
    });
  }) as Db['transaction'];
}

/**
 * Applies pending migrations in one IMMEDIATE transaction (a second process starting at the same
 * moment waits, then finds the work done; a failure anywhere leaves the old version whole); refuses
 * a database from a newer Hearth. An existing file-backed database is copied beside itself first
 * (src/db/premigration.ts). Foreign keys are off meanwhile (a table rebuild's DROP must not cascade
 * — SQLite's documented procedure) and `foreign_key_check` must come back empty before the commit.
 */
export function migrate(db: Db, file?: { path: string; log: (line: string) => void }): number {
  const version = () => db.pragma('user_version', { simple: true }) as number;
  const current = version();
  if (current > MIGRATIONS.length) {
    throw new SchemaError(
      `database schema version ${current} is newer than this Hearth understands (${MIGRATIONS.length}); upgrade Hearth or restore a backup`,
    );
  }
  if (current === MIGRATIONS.length) return current;
  let backup = '';
  if (file && current > 0) {
    backup = backupBeforeMigration(db, file.path, current);
    file.log(
      `upgrading ${file.path} from schema version ${current} to ${MIGRATIONS.length}; a copy of the old database is kept as ${backup}`,
    );
  }
  let failed = 0;
  const fk = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  db.pragma('legacy_alter_table = ON'); // a rebuilt table's rename leaves other tables' triggers and REFERENCES as written
  try {
    db.transaction(() => {
      for (let v = version(); v < MIGRATIONS.length; v++) {
        failed = v + 1;
        const m = MIGRATIONS[v];
        if (typeof m === 'string') db.exec(m);
        else m(db);
        const broken = db.pragma('foreign_key_check') as { table: string }[];
        if (broken.length)
          throw new Error(`it left ${broken.length} rows without their parent (first in ${broken[0].table})`);
        db.pragma(`user_version = ${v + 1}`);
      }
    }).immediate();
  } catch (e) {
    if (isDamaged(e) || /^SQLITE_(BUSY|FULL|IOERR)/.test(String((e as { code?: unknown }).code))) throw e;
    const where = file ? ` ${file.path}` : '';
    throw new SchemaError(
      `schema migration ${failed} of ${MIGRATIONS.length} failed (${(e as Error).message}); the database${where} is unchanged at version ${current}` +
        (backup ? `, and a copy is kept as ${backup}` : '') +
        '; report this, and run the previous Hearth meanwhile',
    );
  } finally {
    db.pragma('legacy_alter_table = OFF');
    db.pragma(`foreign_keys = ${fk ? 'ON' : 'OFF'}`);
  }
  return MIGRATIONS.length;
}
