/**
 * Files holding household data (backups, pre-migration copies, a restore's copy) are `0600`
 * whatever the umask (issue #26 item 14). SQLite creates a new file with `0644 & ~umask` — under
 * the usual umask 022 anyone on the host could read a backup — so the file is made here first,
 * empty and `0600`, and SQLite writes into it (its journal and WAL files take the same mode).
 * An existing file (an older backup being replaced) is narrowed to `0600` too.
 */
import { closeSync, constants, fchmodSync, openSync } from 'node:fs';

export const PRIVATE_MODE = 0o600;

/** Creates `path` empty with mode 0600, or narrows an existing file to 0600. Never follows a symbolic link. */
export function preparePrivateFile(path: string): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, PRIVATE_MODE);
  try {
    fchmodSync(fd, PRIVATE_MODE); // the umask cannot widen it, but an existing file keeps its old mode otherwise
  } finally {
    closeSync(fd);
  }
}
