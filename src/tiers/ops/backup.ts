/**
 * Backup and restore of the data dir's database (`hearth backup`/`hearth restore`,
 * docs/operations.md#restore), and the serve lock. Backup uses
 * SQLite's online backup API, so it is consistent while `hearth serve` writes. Restore takes the
 * data dir's exclusive lock (refused, naming the pid, while serve, mcp or anything else has the
 * database open), checks the backup, copies it *beside* the live file, fsyncs it, hard-links the
 * live file to a kept name and renames the copy over it: a crash at any moment leaves either the
 * old or the new database at `hearth.db`, never none.
 */
import { chmodSync, chownSync, existsSync, linkSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../db/migrations/index.js';
import { holdsData, openDatabase } from '../../db/open.js';
import { acquireLock, type Release } from '../../db/locks.js';
import { fsyncPath } from '../../db/premigration.js';
import { DataError, explainOpenError, isDamaged } from '../../db/errors.js';
import { makeDataDir } from '../../db/make-dir.js';
import { databaseTarget, readableFile } from './paths.js';
import { HubError, invalid } from '../../lib/errors.js';
import { preparePrivateFile } from '../../lib/private-file.js';

export type { Release };

const DB_FILE = 'hearth.db';

/** Holds the serve lock for this process's life (one `hearth serve` per data dir); returns the release. */
export function claimDataDir(dataDir: string): Release {
  try {
    makeDataDir(dataDir);
    return acquireLock(dataDir, 'serve');
  } catch (e) {
    throw explainOpenError(e, dataDir, join(dataDir, DB_FILE)) ?? e;
  }
}

/** Copies the live database of `dataDir` to `target` (online: consistent while serve writes); returns the live file. */
export async function backupDatabase(
  dataDir: string,
  target: string | undefined,
): Promise<{ from: string; to: string }> {
  if (!target) throw invalid('backup: give the target file, e.g. hearth backup /var/backups/hearth.db');
  if (isLiveFile(target, join(dataDir, DB_FILE))) {
    throw invalid(
      `backup: ${target} is the live database of ${dataDir} itself; back up to another file, e.g. hearth backup /var/backups/hearth.db`,
    );
  }
  databaseTarget('backup', target, 'give another path, e.g. hearth backup /var/backups/hearth.db');
  const db = openDatabase({ dataDir: dataDir });
  try {
    preparePrivateFile(target); // 0600 before SQLite writes a byte of the household into it
    await db.backup(target);
  } catch (e) {
    if (isDamaged(e)) throw e; // the live database's own damage, named as such by the CLI
    throw new DataError(`backup: could not write ${target}: ${(e as Error).message}`);
  } finally {
    db.close();
  }
  return { from: join(dataDir, DB_FILE), to: target };
}

/** The path with symbolic links and `..` resolved, as far as it exists (a new file's directory). */
function canonical(path: string): string {
  const abs = resolve(path);
  if (existsSync(abs)) return realpathSync(abs);
  return dirname(abs) === abs ? abs : join(canonical(dirname(abs)), basename(abs));
}

/**
 * The live database itself under any name (a relative path, a symbolic or hard link), or one of
 * its -wal/-shm/-journal companions: what neither backup nor restore may take as the other file.
 */
function isLiveFile(path: string, current: string): boolean {
  if (existsSync(path) && existsSync(current)) {
    const p = statSync(path);
    const c = statSync(current);
    if (p.dev === c.dev && p.ino === c.ino) return true;
  }
  const live = canonical(current);
  return [live, `${live}-wal`, `${live}-shm`, `${live}-journal`].includes(canonical(path));
}

function checkBackup(source: string): void {
  let check: Database.Database;
  try {
    check = new Database(source, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw invalid(`restore: ${source} is not a SQLite database (${(e as Error).message})`);
  }
  try {
    const integrity = check.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw invalid(`restore: ${source} fails its integrity check: ${integrity}`);
    const version = check.pragma('user_version', { simple: true }) as number;
    if (version < 1 || version > MIGRATIONS.length)
      throw invalid(`restore: ${source} has schema version ${version}; this Hearth reads 1–${MIGRATIONS.length}`);
  } catch (e) {
    if (e instanceof HubError) throw e;
    throw invalid(`restore: ${source} is not a SQLite database (${(e as Error).message})`);
  } finally {
    check.close();
  }
}

/**
 * Installs the backup `source` as the database of `dir` (the hub stopped); returns where it went and
 * the name the previous database is kept under ('' when there was none).
 */
export async function restoreDatabase(
  dir: string,
  source: string | undefined,
): Promise<{ current: string; keptAs: string }> {
  if (!source) throw invalid('restore: give the backup file, e.g. hearth restore /var/backups/hearth.db');
  readableFile('restore', source, 'give the backup file, e.g. hearth restore /var/backups/hearth.db');
  const current = join(dir, DB_FILE);
  if (isLiveFile(source, current)) {
    throw invalid(
      `restore: ${source} is the live database of ${dir}, not a backup; make one with \`hearth backup <file>\` and restore that`,
    );
  }
  checkBackup(source); // before the lock: a bad file is named as such even while the hub runs
  let release: Release;
  try {
    release = acquireLock(dir, 'exclusive'); // the dir exists: only serve and mcp create one (cli.ts)
  } catch (e) {
    throw explainOpenError(e, dir, current) ?? e;
  }
  try {
    const temp = `${current}.restoring`;
    rmSync(temp, { force: true });
    preparePrivateFile(temp); // never readable by others, even before the chmod below
    // The backup API copies the source's WAL content too and never tears a page.
    const src = new Database(source, { readonly: true, fileMustExist: true });
    try {
      await src.backup(temp);
    } finally {
      src.close();
    }
    // The installed file keeps the live one's owner and mode (a `sudo hearth restore` must not
    // leave a root-owned database the service user cannot write); a new one is 0600.
    const like = existsSync(current) ? statSync(current) : null;
    chmodSync(temp, like ? like.mode & 0o777 : 0o600);
    if (like && process.getuid?.() === 0) chownSync(temp, like.uid, like.gid);
    fsyncPath(temp);
    let keptAs = '';
    if (existsSync(current)) {
      // Fold the WAL into the main file; with the exclusive lock nobody else has it open, so
      // closing removes -wal/-shm and the main file is complete on its own.
      const live = new Database(current, { fileMustExist: true });
      live.pragma('wal_checkpoint(TRUNCATE)');
      live.close();
      for (const ext of ['-wal', '-shm'])
        if (existsSync(current + ext) && statSync(current + ext).size === 0) rmSync(current + ext);
      if (existsSync(`${current}-wal`))
        throw new HubError(
          'conflict',
          `restore: ${current}-wal is still there after a checkpoint; is another program using ${dir}?`,
        );
      keptAs = `${current}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      linkSync(current, keptAs); // the live file stays in place until the rename below
    }
    fsyncPath(dir);
    renameSync(temp, current); // atomic: hearth.db is the old or the new database, never missing
    fsyncPath(dir);
    openDatabase({ dataDir: dir, lock: 'none', keptCheck: false }).close(); // applies any newer migrations
    if (keptAs && !holdsData(current)) {
      // An empty backup installed on purpose: the kept copy must not make serve refuse it later.
      renameSync(keptAs, (keptAs = `${keptAs}.replaced-by-empty`));
    }
    return { current, keptAs };
  } finally {
    release();
  }
}

/** Leftovers of a restore that was killed before its rename (the live database was untouched). */
export const restoreLeftovers = (dir: string) =>
  existsSync(`${join(dir, DB_FILE)}.restoring`) ? [`${join(dir, DB_FILE)}.restoring`] : [];
