/**
 * The disk guard (issue #35 item 8): a runaway writer (a Node-RED loop posting readings) grew the
 * database at ~20 GB a day, and SQLite only says "disk full" once it is — with the WAL, backups and
 * the rest of the system sharing that disk. Here every statement that adds data (not a DELETE, not a
 * read) is refused while the data dir's file system has less than `disk_min_free_mb` free: a
 * `HubError('insufficient_storage')`, which HTTP answers 507, MCP as a tool error, and MQTT by
 * sending no PUBACK (the client keeps the message and sends it again), so nothing is acknowledged
 * and then lost. Free space is read with statfs at most once a second (a write costs a clock read).
 * Installed on the database handle (`guardWrites`), so every door and tier is covered at once.
 */
import { statfsSync } from 'node:fs';
import { HubError } from '../lib/errors.js';
import type { Db } from './open.js';

const MiB = 1024 * 1024;
/** How long one statfs answer is trusted. */
export const DISK_CHECK_MS = 1000;

export interface DiskState {
  /** Bytes free to this process (statfs bavail), or null where it cannot be read (':memory:'). */
  free: number | null;
  /** The floor in bytes (0: off). */
  floor: number;
  /** Whether writes are refused now. */
  low: boolean;
}

export interface DiskGuard {
  state(): DiskState;
  /** Throws `insufficient_storage` when free space is under the floor. */
  assertRoom(): void;
  /** Fields merged into /health: `disk` always (when readable); `degraded` and why while writes are refused. */
  health(): Record<string, unknown>;
}

const mib = (n: number) => `${Math.floor(n / MiB)} MiB`;

/** The guard of `dir` (a data dir; ':memory:' is never low). `freeOf` is statfs, replaceable in tests. */
export function createDiskGuard(
  dir: string,
  floorMiB: number,
  freeOf: (dir: string) => number = (d) => {
    const s = statfsSync(d);
    return s.bavail * s.bsize;
  },
  now: () => number = Date.now,
): DiskGuard {
  const floor = floorMiB * MiB;
  let cached: { at: number; free: number | null } | undefined;
  const read = (): number | null => {
    const t = now();
    if (!cached || t - cached.at >= DISK_CHECK_MS) {
      let free: number | null = null;
      try {
        free = dir === ':memory:' ? null : freeOf(dir);
      } catch {
        free = null; // unreadable: let SQLite's own disk-full error speak
      }
      cached = { at: t, free };
    }
    return cached.free;
  };
  const state = (): DiskState => {
    const free = floor > 0 ? read() : null;
    return { free, floor, low: free !== null && free < floor };
  };
  return {
    state,
    health() {
      const s = state();
      if (s.free === null) return {};
      const disk = { free_mb: Math.floor(s.free / MiB), min_free_mb: floorMiB, writes: s.low ? 'refused' : 'ok' };
      if (!s.low) return { disk };
      return {
        status: 'degraded',
        result: `Hearth is up but its disk is nearly full (${mib(s.free)} free, under disk_min_free_mb = ${floorMiB}): writes are refused with 507 until space is freed.`,
        disk,
      };
    },
    // Called before every write statement (the ingest writer's too): a clock read and a compare, no allocation.
    assertRoom() {
      const free = floor > 0 ? read() : null;
      if (free === null || free >= floor) return;
      throw new HubError(
        'insufficient_storage',
        `storage: only ${mib(free)} free on the data dir's disk, under disk_min_free_mb (${mib(floor)}); nothing was stored. Free some space (or lower timeseries.retention_days); writes resume by themselves`,
      );
    },
  };
}

/** Deletions free space; they are always let through. */
const FREES = /^\s*DELETE\b/i;

/**
 * Makes every statement of `db` that writes (better-sqlite3's `readonly` is false) and is not a DELETE
 * call `guard.assertRoom()` before it runs. Statements prepared after this call only. (A chained
 * `.pluck()`/`.raw()` returns the same statement, so it keeps the guard.)
 */
export function guardWrites(db: Db, guard: DiskGuard): { arm(): void } {
  // Start-up's own bookkeeping (a few rows) is let through; the guard is armed once the hub is built.
  let armed = false;
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    const stmt = prepare(source);
    if (stmt.readonly || FREES.test(source)) return stmt;
    // run, and get/all/iterate for INSERT … RETURNING.
    for (const name of ['run', 'get', 'all', 'iterate'] as const) {
      const f = (stmt[name] as (...a: unknown[]) => unknown).bind(stmt);
      (stmt as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
        if (armed) guard.assertRoom();
        return f(...args);
      };
    }
    return stmt;
  }) as typeof db.prepare;
  return { arm: () => void (armed = true) };
}
