/** What `hearth doctor` checks below the services: free disk, the database file itself, a broker's port. */
import { connect } from 'node:net';
import { existsSync, statfsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDatabase } from '../../db/open.js';
import { MIGRATIONS } from '../../db/migrations/index.js';
import { preMigrationBackups } from '../../db/premigration.js';
import { nearestExisting } from '../../db/errors.js';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

const MiB = 1024 * 1024;
/** Room for one more copy of the database (a pre-migration backup, a restore) plus 64 MiB. */
export function diskCheck(freeBytes: number, dbBytes: number, dir: string, floorMiB = 0): Check {
  const need = dbBytes + 64 * MiB;
  const mib = (n: number) => `${(n / MiB).toFixed(n < 10 * MiB ? 1 : 0)} MiB`;
  // Under the write floor the running hub refuses writes (db/disk-guard.ts): say so first.
  if (freeBytes < floorMiB * MiB)
    return {
      name: 'disk',
      ok: false,
      detail: `${mib(freeBytes)} free on ${dir} (database ${mib(dbBytes)}), under disk_min_free_mb = ${floorMiB}: the hub refuses writes (HTTP 507, MQTT not acknowledged) until space is freed`,
    };
  return {
    name: 'disk',
    ok: freeBytes >= need,
    detail: `${mib(freeBytes)} free on ${dir} (database ${mib(dbBytes)})${freeBytes >= need ? '' : `; needs at least ${mib(need)} for a backup or an upgrade: free some space`}`,
  };
}

/** Free space where the data dir's database lives (or will). */
export function diskOf(dataDir: string, floorMiB = 0): Check {
  try {
    const dbPath = join(dataDir, 'hearth.db');
    const dbBytes = ['', '-wal'].reduce(
      (n, ext) => n + (existsSync(dbPath + ext) ? statSync(dbPath + ext).size : 0),
      0,
    );
    // A data dir not made yet lands on the file system of its nearest existing ancestor.
    const at = nearestExisting(resolve(dataDir));
    const fs = statfsSync(at);
    return diskCheck(
      fs.bavail * fs.bsize,
      dbBytes,
      at === resolve(dataDir) ? dataDir : `${at} (where ${dataDir} will be created)`,
      floorMiB,
    );
  } catch (e) {
    return { name: 'disk', ok: false, detail: `cannot read free space of ${dataDir}: ${(e as Error).message}` };
  }
}

/** Integrity, foreign keys and schema version of the data dir's database (opened, migrated, closed). */
export function databaseChecks(dataDir: string): Check[] {
  const checks: Check[] = [];
  const db = openDatabase({ dataDir });
  try {
    const integrity = db.pragma('integrity_check', { simple: true }) as string;
    checks.push({ name: 'integrity', ok: integrity === 'ok', detail: integrity });
    const fk = db.pragma('foreign_key_check') as unknown[];
    checks.push({ name: 'foreign_keys', ok: fk.length === 0, detail: `${fk.length} violations` });
    const version = db.pragma('user_version', { simple: true }) as number;
    const last = preMigrationBackups(join(dataDir, 'hearth.db'))[0];
    const kept = last
      ? `; last pre-migration backup ${last.path} (version ${last.fromVersion}, ${new Date(last.at).toISOString()})`
      : '; no pre-migration backup';
    checks.push({
      name: 'schema',
      ok: version === MIGRATIONS.length,
      detail: `version ${version} of ${MIGRATIONS.length}${kept}`,
    });
  } finally {
    db.close();
  }
  return checks;
}

/** True when something accepts TCP connections at host:port within 2 s. */
export function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 }, () => (socket.end(), resolve(true)));
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => (socket.destroy(), resolve(false)));
  });
}
