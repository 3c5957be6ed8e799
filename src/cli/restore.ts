/**
 * `hearth backup <file>` and `hearth restore <file>`. Backup uses SQLite's online backup API, so it
 * is consistent while `hearth serve` writes (never a raw copy of the main file without its WAL).
 * Restore checks the backup (integrity, schema version), refuses while a hub is serving from the
 * data dir (its pid file names a live process), keeps the current database aside, and installs the
 * backup in its place.
 */
import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../db/migrations/index.js';
import { openDatabase } from '../db/open.js';
import { HubError, invalid } from '../lib/errors.js';
import type { CommandContext } from './commands.js';

const PID_FILE = 'hearth.pid';

/** Marks the data dir as served by this process; returns the remover. */
export function claimDataDir(dataDir: string): () => void {
  const file = join(dataDir, PID_FILE);
  writeFileSync(file, String(process.pid), { mode: 0o600 });
  return () => {
    try {
      if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
    } catch {
      /* already gone */
    }
  };
}

function servingPid(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(join(dataDir, PID_FILE), 'utf8'));
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

export async function backupCommand({ config, args }: CommandContext): Promise<number> {
  const target = args[0];
  if (!target) throw invalid('backup: give the target file, e.g. hearth backup /var/backups/hearth.db');
  const db = openDatabase({ dataDir: config.data_dir });
  try {
    await db.backup(target);
  } finally {
    db.close();
  }
  process.stdout.write(`backed up ${join(config.data_dir, 'hearth.db')} to ${target}\n`);
  return 0;
}

export async function restoreCommand({ config, args }: CommandContext): Promise<number> {
  const source = args[0];
  if (!source) throw invalid('restore: give the backup file, e.g. hearth restore /var/backups/hearth.db');
  if (!existsSync(source)) throw invalid(`restore: ${source} does not exist`);
  const pid = servingPid(config.data_dir);
  if (pid) throw new HubError('conflict', `restore: hearth (pid ${pid}) is serving ${config.data_dir}; stop it first`);
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
    if (version < 1 || version > MIGRATIONS.length) throw invalid(`restore: ${source} has schema version ${version}; this Hearth reads 1–${MIGRATIONS.length}`);
  } catch (e) {
    if (e instanceof HubError) throw e;
    throw invalid(`restore: ${source} is not a SQLite database (${(e as Error).message})`);
  } finally {
    check.close();
  }
  const current = join(config.data_dir, 'hearth.db');
  let keptAs = '';
  if (existsSync(current)) {
    // Fold the WAL into the main file first so the kept copy is complete on its own.
    const db = new Database(current);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    keptAs = `${current}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(current, keptAs);
    for (const ext of ['-wal', '-shm']) rmSync(current + ext, { force: true });
  }
  copyFileSync(source, current);
  openDatabase({ dataDir: config.data_dir }).close(); // applies permissions and any newer migrations
  process.stdout.write(`restored ${source} into ${current}${keptAs ? `; the previous database is kept as ${keptAs}` : ''}\n`);
  return 0;
}
