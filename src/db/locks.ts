/**
 * Who may use a data dir at once (docs/operations.md#locks):
 * - every process that opens the database holds a *shared* lock (serve, mcp, doctor, backup, …);
 * - `restore` (and any future `import`) takes the *exclusive* lock: it needs the dir to itself;
 * - `serve` also holds the *serve* lock: one serve per data dir.
 *
 * The locks are POSIX record locks taken through SQLite on two empty files (`lock/db.lock`,
 * `lock/serve.lock`): the kernel drops them when the process dies, SIGKILL and power cuts
 * included, so there are no stale locks and no pid-reuse guesswork. A `lock/<pid>.pid` file per
 * holder only serves to name the holder in the refusal; dead entries are ignored and removed.
 * Never open, read or close the .lock files with `fs`: closing any descriptor of a file drops
 * every POSIX lock the process holds on it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { DataError } from './errors.js';

export type LockKind = 'shared' | 'exclusive' | 'serve';
export type Release = () => void;

/** How long an opener waits for a running restore before giving up. */
const SHARED_WAIT_MS = 3000;

export const lockDir = (dataDir: string) => join(dataDir, 'lock');

function describeSelf(): string {
  const script = process.argv[1] ?? '';
  return /cli\.[jt]s$/.test(script) ? ['hearth', ...process.argv.slice(2)].join(' ') : `node ${basename(script)}`;
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Holder {
  pid: number;
  kind: LockKind;
  command: string;
}

/** Live holders named in lock/<pid>.<kind>.pid, other than this process; removes dead entries. */
export function lockHolders(dataDir: string, kinds: LockKind[] = ['shared', 'exclusive', 'serve']): Holder[] {
  const dir = lockDir(dataDir);
  if (!existsSync(dir)) return [];
  const out: Holder[] = [];
  for (const name of readdirSync(dir)) {
    const m = /^(\d+)\.(shared|exclusive|serve)\.pid$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid) continue;
    if (!alive(pid)) {
      rmSync(join(dir, name), { force: true });
      continue;
    }
    if (!kinds.includes(m[2] as LockKind)) continue;
    let command = 'hearth';
    try {
      command = readFileSync(join(dir, name), 'utf8').trim() || command;
    } catch {
      /* raced with its removal */
    }
    out.push({ pid, kind: m[2] as LockKind, command });
  }
  return out;
}

const named = (holders: Holder[]) =>
  holders.length
    ? [...new Map(holders.map((h) => [h.pid, `pid ${h.pid} (${h.command})`])).values()].join(', ')
    : 'another process';

/** Ensures dataDir/lock exists (0700 when created here). */
function ensureLockDir(dataDir: string): string {
  const dir = lockDir(dataDir);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Takes a lock or throws a one-line DataError naming the holder's pid. */
export function acquireLock(dataDir: string, kind: LockKind): Release {
  const dir = ensureLockDir(dataDir);
  const file = join(dir, kind === 'serve' ? 'serve.lock' : 'db.lock');
  const db = new Database(file, { timeout: kind === 'shared' ? SHARED_WAIT_MS : 0 });
  try {
    db.pragma('journal_mode = OFF');
    if (kind === 'shared') {
      db.exec('BEGIN');
      db.prepare('SELECT count(*) FROM sqlite_master').get(); // holds SHARED until COMMIT
    } else db.exec('BEGIN EXCLUSIVE');
  } catch (e) {
    db.close();
    if (!/^SQLITE_BUSY/.test(String((e as { code?: unknown }).code))) throw e;
    throw refusal(dataDir, kind);
  }
  const entry = join(dir, `${process.pid}.${kind}.pid`);
  writeFileSync(entry, describeSelf() + '\n', { mode: 0o600 });
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    try {
      db.close();
    } catch {
      /* closing again */
    }
    // Another lock of the same kind in this process (tests open several hubs) keeps the entry.
    if (--counts[`${dir}:${kind}`] === 0) rmSync(entry, { force: true });
  };
  counts[`${dir}:${kind}`] = (counts[`${dir}:${kind}`] ?? 0) + 1;
  return release;
}
const counts: Record<string, number> = {};

function refusal(dataDir: string, kind: LockKind): DataError {
  if (kind === 'serve') {
    return new DataError(
      `${dataDir} is already served by ${named(lockHolders(dataDir, ['serve']))}; one hearth serve per data dir — stop that one first (or give this one another data_dir)`,
    );
  }
  if (kind === 'shared') {
    return new DataError(
      `${dataDir} is being restored by ${named(lockHolders(dataDir, ['exclusive']))}; start again when it has finished`,
    );
  }
  return new DataError(
    `${dataDir} is in use by ${named(lockHolders(dataDir, ['serve', 'shared']))}; stop it first (hearth mcp is started by its MCP client: close the client)`,
  );
}
