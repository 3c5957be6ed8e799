/**
 * Start-up problems with the data dir or the database file, as one line naming the path and the
 * fix (docs/operations.md). The CLI prints a `DataError` without a stack trace.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname } from 'node:path';

export class DataError extends Error {
  override name = 'DataError';
}

/** The user this process runs as, for a permission message. */
export function whoAmI(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? '?'}`;
  }
}

/** Whether this process may access `path` with `mode` (fs.constants.R_OK, W_OK…). */
export const can = (path: string, mode: number) => {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
};

const DAMAGED = /^SQLITE_(CORRUPT|NOTADB)/;

/** True for SQLite's "the file is damaged / not a database" errors. */
export const isDamaged = (e: unknown) => DAMAGED.test(String((e as { code?: unknown })?.code ?? ''));

export const damagedMessage = (file: string, why: string) =>
  `database ${file} is damaged (${why}): check it with \`hearth doctor\`, then install a backup with \`hearth restore <backup file>\``;

/** The path that is in the way of opening `file` in `dir`. */
/** `path` itself when it exists, else its nearest existing ancestor (where it would be created). */
export function nearestExisting(path: string): string {
  let d = path;
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  return d;
}

function blocker(dir: string, file: string): string {
  const d = nearestExisting(dir);
  if (d !== dir || !statSync(d).isDirectory()) return d; // cannot create dir inside d, or d is a file
  if (!can(dir, constants.R_OK | constants.W_OK | constants.X_OK)) return dir;
  if (existsSync(file) && !can(file, constants.R_OK | constants.W_OK)) return file;
  return dir;
}

/**
 * Maps an error from creating the data dir or opening the database into one line with the fix,
 * or returns undefined when it is not a start-up problem a person can fix.
 */
export function explainOpenError(e: unknown, dir: string, file: string): DataError | undefined {
  if (e instanceof DataError) return e;
  const code = String((e as { code?: unknown })?.code ?? '');
  const message = (e as Error)?.message ?? String(e);
  if (isDamaged(e)) return new DataError(damagedMessage(file, message));
  const path = blocker(dir, file);
  const user = whoAmI();
  if (path !== file && existsSync(path) && !statSync(path).isDirectory()) {
    return new DataError(
      `data dir ${dir}: ${path} is not a directory; set data_dir (or HEARTH_DATA_DIR) to a directory, or move ${path} away`,
    );
  }
  if (
    code === 'EROFS' ||
    code === 'SQLITE_READONLY_DIRECTORY' ||
    (code.startsWith('SQLITE_READONLY') && can(path, constants.W_OK))
  ) {
    return new DataError(
      `${path} is on a read-only file system: set data_dir (or HEARTH_DATA_DIR) to a writable directory (under systemd, list it in ReadWritePaths=)`,
    );
  }
  if (
    code === 'EACCES' ||
    code === 'EPERM' ||
    code.startsWith('SQLITE_CANTOPEN') ||
    code.startsWith('SQLITE_READONLY') ||
    code === 'SQLITE_PERM'
  ) {
    const elsewhere = 'or set data_dir (or HEARTH_DATA_DIR) to a directory it owns';
    if (path !== file && path !== dir) {
      // The dir does not exist and `path`, its nearest existing parent, is not ours to write in:
      // create the dir for the user (chown of the parent would hand over more than Hearth needs).
      return new DataError(
        `cannot create ${dir}: permission denied for ${user} in ${path}; create it for that user (\`sudo install -d -o ${user} -m 700 ${dir}\`) ${elsewhere}`,
      );
    }
    return new DataError(
      `cannot ${path === file ? 'open' : 'write'} ${path}: permission denied for ${user}; give it to that user (\`sudo chown -R ${user} ${path}\`) ${elsewhere}`,
    );
  }
  if (code === 'ENOSPC' || code === 'SQLITE_FULL')
    return new DataError(`no space left for ${file}: free some space on its file system, then start again`);
  return undefined;
}
