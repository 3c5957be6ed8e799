/**
 * Operations on the data dir that run without a hub, or before one: backup, restore, the serve lock,
 * the checks of `hearth doctor`, the paths a command is given. The CLI parses its arguments, calls
 * these and prints; it never opens the database itself. The error types the CLI turns into one-line
 * messages are re-exported here.
 */
import { backupDatabase, claimDataDir, restoreDatabase, restoreLeftovers } from './backup.js';
import { databaseChecks, diskOf, reachable } from './checks.js';
import { recordListening, runningServe } from './listening.js';

export const ops = {
  backup: backupDatabase,
  restore: restoreDatabase,
  /** Holds the serve lock for this process's life (one `hearth serve` per data dir); returns the release. */
  claimDataDir,
  /** Files an interrupted restore left behind (the live database untouched). */
  restoreLeftovers,
  disk: diskOf,
  databaseChecks,
  reachable,
  /** What the running serve listens on (written by serve, read by doctor). */
  recordListening,
  runningServe,
};

export type { Check } from './checks.js';
export { diskCheck } from './checks.js';
export { DataError, damagedMessage, isDamaged } from '../../db/errors.js';
export { SchemaError } from '../../db/open.js';
