/**
 * Upgrades that cannot eat data: before a schema migration of an existing database, a consistent
 * copy (`VACUUM INTO`) is written beside it as `<db>.pre-migration-v<from>-<stamp>`, fsynced, and
 * logged; the newest KEEP_PRE_MIGRATION copies are kept. Each migration runs in its own
 * transaction, so a failed one leaves the file at the last version that succeeded.
 */
import { preparePrivateFile } from '../lib/private-file.js';
import { closeSync, fsyncSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type Database from 'better-sqlite3';

export const KEEP_PRE_MIGRATION = 3;

export interface PreMigrationBackup {
  path: string;
  fromVersion: number;
  /** ms since epoch (file mtime). */
  at: number;
}

const PATTERN = (file: string) => new RegExp(`^${file.replace(/\./g, '\\.')}\\.pre-migration-v(\\d+)-[0-9TZ-]+$`);

/** Pre-migration copies beside `dbPath`, newest first. */
export function preMigrationBackups(dbPath: string): PreMigrationBackup[] {
  const dir = dirname(dbPath);
  const re = PATTERN(basename(dbPath));
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map((name) => ({ name, m: re.exec(name) }))
    .filter((x) => x.m)
    .map(({ name, m }) => ({
      path: join(dir, name),
      fromVersion: Number(m![1]),
      at: statSync(join(dir, name)).mtimeMs,
    }))
    .sort((a, b) => b.at - a.at || b.path.localeCompare(a.path));
}

export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes the copy, keeps the newest KEEP_PRE_MIGRATION, returns the copy's path. */
export function backupBeforeMigration(db: Database.Database, dbPath: string, from: number): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = `${dbPath}.pre-migration-v${from}-${stamp}`;
  preparePrivateFile(target); // VACUUM INTO accepts an empty file; SQLite alone would make it 0644 & ~umask
  db.prepare('VACUUM INTO ?').run(target);
  fsyncPath(target);
  fsyncPath(dirname(dbPath));
  for (const old of preMigrationBackups(dbPath).slice(KEEP_PRE_MIGRATION)) rmSync(old.path, { force: true });
  return target;
}
