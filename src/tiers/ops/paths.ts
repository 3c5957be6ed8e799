/**
 * The paths a command is given, checked before it takes a lock or opens the database: a wrong
 * one is one line naming it and what to do, never a stack trace, nor "in use by pid …" for a file
 * that does not exist. `example` finishes each line with the command as it should have been typed.
 */
import { constants, statSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { can, whoAmI } from '../../db/errors.js';
import { isSqliteFile } from '../../db/open.js';
import { HubError, invalid } from '../../lib/errors.js';

type Found = Stats | 'missing' | 'denied';

function look(path: string): Found {
  try {
    return statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    if (code === 'EACCES' || code === 'EPERM') return 'denied';
    throw e;
  }
}

const unreadable = (cmd: string, path: string) =>
  invalid(
    `${cmd}: cannot read ${path}: permission denied for ${whoAmI()}; let that user read it (chmod, chown) or give another path`,
  );
const unwritable = (cmd: string, what: string, path: string) =>
  invalid(`${cmd}: cannot ${what} ${path}: permission denied for ${whoAmI()}; give a path that user can write`);

/** An existing regular file this process may read (a backup, a memory-mcp database). */
export function readableFile(cmd: string, path: string, example: string): void {
  const found = look(path);
  if (found === 'missing') throw invalid(`${cmd}: ${path} does not exist; ${example}`);
  if (found === 'denied' || (found.isFile() && !can(path, constants.R_OK))) throw unreadable(cmd, path);
  if (!found.isFile())
    throw invalid(`${cmd}: ${path} is ${found.isDirectory() ? 'a directory' : 'not a regular file'}; ${example}`);
}

/** An existing directory this process may list (notes to import). */
export function readableDir(cmd: string, path: string, example: string): void {
  const found = look(path);
  if (found === 'missing') throw invalid(`${cmd}: ${path} does not exist; ${example}`);
  if (found === 'denied' || (found.isDirectory() && !can(path, constants.R_OK | constants.X_OK)))
    throw unreadable(cmd, path);
  if (!found.isDirectory()) throw invalid(`${cmd}: ${path} is a file, not a directory; ${example}`);
}

/** A directory that exists and is writable, or that can be created (its nearest existing parent is). */
export function writableDir(cmd: string, path: string, example: string): void {
  let dir = resolve(path);
  let found = look(dir);
  while (found === 'missing' && dirname(dir) !== dir) found = look((dir = dirname(dir)));
  const what = dir === resolve(path) ? 'write in' : 'create a directory in';
  if (found === 'denied' || (found !== 'missing' && found.isDirectory() && !can(dir, constants.W_OK | constants.X_OK)))
    throw unwritable(cmd, what, dir);
  if (found === 'missing' || !found.isDirectory())
    throw invalid(`${cmd}: ${dir} is a file, not a directory; ${example}`);
}

/** An existing, readable SQLite database file (a memory-mcp database to import). */
export function sqliteFile(cmd: string, path: string, example: string): void {
  readableFile(cmd, path, example);
  if (!isSqliteFile(path)) throw invalid(`${cmd}: ${path} is not a SQLite database; ${example}`);
}

/**
 * A file to write a database into: a new file in an existing, writable directory, or an existing
 * SQLite file (an older backup) to replace. Anything else there is not overwritten.
 */
export function databaseTarget(cmd: string, path: string, example: string): void {
  const found = look(path);
  if (found === 'denied') throw unwritable(cmd, 'write', path);
  if (found !== 'missing') {
    if (found.isDirectory())
      throw invalid(`${cmd}: ${path} is a directory; give a file name, e.g. hearth ${cmd} ${join(path, 'hearth.db')}`);
    if (!can(path, constants.R_OK | constants.W_OK)) throw unwritable(cmd, 'write', path);
    if (found.size > 0 && !isSqliteFile(path))
      throw invalid(`${cmd}: ${path} exists and is not a SQLite database; it is not overwritten: give a new file name`);
    return;
  }
  const parent = dirname(resolve(path));
  const dir = look(parent);
  if (dir === 'missing')
    throw invalid(`${cmd}: directory ${parent} does not exist; create it first (mkdir -p ${parent}) or ${example}`);
  if (dir === 'denied' || (dir.isDirectory() && !can(parent, constants.W_OK | constants.X_OK)))
    throw unwritable(cmd, 'write in', parent);
  if (!dir.isDirectory()) throw invalid(`${cmd}: ${parent} is a file, not a directory; ${example}`);
}

/**
 * Runs file work past the checks above; what still fails on the way (one unreadable note, a full
 * disk) is one line naming the file, not a stack trace.
 */
export function fileStep<T>(cmd: string, what: 'read' | 'write', fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (!err.syscall || !err.code) throw e;
    const path = err.path ?? 'a file';
    if (err.code === 'EACCES' || err.code === 'EPERM')
      throw what === 'read' ? unreadable(cmd, path) : unwritable(cmd, 'write', path);
    // node's "ENOSPC: no space left on device, write" → "no space left on device"
    throw new HubError(
      'unavailable',
      `${cmd}: cannot ${what} ${path}: ${/^\w+: ([^,]+)/.exec(err.message)?.[1] ?? err.code}`,
    );
  }
}
