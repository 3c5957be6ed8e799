/**
 * Creates the data dir, one path component at a time, each `mkdir` tried once. Node's
 * `mkdirSync(dir, { recursive: true })` retries forever where a parent refuses new entries with
 * ENOENT (`/proc/hearth-data`: 44,180 tries in 8 s, issue #35 item 13) and throws a bare ENOENT
 * through a dangling symlink. Here a dir that cannot be made is one `DataError` line with the fix;
 * permission, read-only and full-disk errors are left to `explainOpenError` (src/db/errors.ts),
 * which names them.
 *
 * A symbolic link whose target is missing (a data dir on a USB drive that is not mounted) is never
 * followed to create the target: the target's parent may be the empty mount point, and the
 * database would be written on the SD card instead, to vanish from view when the drive comes back.
 */
import { lstatSync, mkdirSync, readlinkSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DataError } from './errors.js';

const SETTING = 'set data_dir (or HEARTH_DATA_DIR) to another directory';

/** `path` exists as a name (a dangling link counts), without following a last link. */
function named(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function dangling(dir: string, link: string): DataError {
  let target = '';
  try {
    target = resolve(dirname(link), readlinkSync(link));
  } catch {}
  return new DataError(
    `data dir ${dir}: ${link} is a symbolic link to ${target || 'a missing path'}, which does not exist (a drive that is not mounted?); mount or create it, or ${SETTING}`,
  );
}

/** Makes `dir` (mode 0700) and any missing parents, or throws one line; a dir already there is left alone. */
export function makeDataDir(dir: string): void {
  dir = resolve(dir);
  const missing: string[] = [];
  let at = dir;
  while (!named(at) && dirname(at) !== at) {
    missing.unshift(at);
    at = dirname(at);
  }
  // `at` exists as a name: it must be a directory once links are followed.
  let isDir: boolean;
  try {
    isDir = statSync(at).isDirectory();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP') throw dangling(dir, at);
    throw e; // EACCES and the like: explainOpenError names them
  }
  if (!isDir) throw new DataError(`data dir ${dir}: ${at} is not a directory; ${SETTING}, or move ${at} away`);
  for (const step of missing) {
    try {
      mkdirSync(step, { mode: 0o700 });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code === 'EEXIST' && named(step)) {
        // Made by another process meanwhile, or a link that appeared: judged as above.
        try {
          if (statSync(step).isDirectory()) continue;
        } catch {
          throw dangling(dir, step);
        }
        throw new DataError(`data dir ${dir}: ${step} is not a directory; ${SETTING}, or move ${step} away`);
      }
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR' || err.code === 'EEXIST' || err.code === 'EINVAL')
        // The parent exists but takes no new directory (/proc, /sys, a FUSE mount).
        throw new DataError(
          `cannot create ${dir}: ${dirname(step)} does not allow new directories (${err.code}); ${SETTING} on a writable disk`,
        );
      throw e;
    }
  }
}
