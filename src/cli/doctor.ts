/** `hearth doctor`: integrity, foreign keys, schema version, counts, embedder; exit 1 on failure. */
import { openDatabase } from '../db/open.js';
import { MIGRATIONS } from '../db/migrations/index.js';
import { createHub } from '../main.js';
import type { CommandContext } from './context.js';
import { connect } from 'node:net';
import { existsSync, statfsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { preMigrationBackups } from '../db/premigration.js';
import { restoreLeftovers } from './restore.js';
import { nearestExisting } from '../db/errors.js';
import { describeWordNet } from '../ai/wordnet.js';
import { prepareQuery } from '../ai/wordnet-coverage.js';

const MiB = 1024 * 1024;
/** Room for one more copy of the database (a pre-migration backup, a restore) plus 64 MiB. */
export function diskCheck(freeBytes: number, dbBytes: number, dir: string): Check {
  const need = dbBytes + 64 * MiB;
  const mib = (n: number) => `${(n / MiB).toFixed(n < 10 * MiB ? 1 : 0)} MiB`;
  return {
    name: 'disk',
    ok: freeBytes >= need,
    detail: `${mib(freeBytes)} free on ${dir} (database ${mib(dbBytes)})${freeBytes >= need ? '' : `; needs at least ${mib(need)} for a backup or an upgrade: free some space`}`,
  };
}

function diskOf(dataDir: string): Check {
  const dbPath = join(dataDir, 'hearth.db');
  const dbBytes = ['', '-wal'].reduce((n, ext) => n + (existsSync(dbPath + ext) ? statSync(dbPath + ext).size : 0), 0);
  // A data dir not made yet lands on the file system of its nearest existing ancestor.
  const at = nearestExisting(resolve(dataDir));
  const fs = statfsSync(at);
  return diskCheck(fs.bavail * fs.bsize, dbBytes, at === resolve(dataDir) ? dataDir : `${at} (where ${dataDir} will be created)`);
}

/** True when something accepts TCP connections at host:port within 2 s. */
function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 }, () => (socket.end(), resolve(true)));
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => (socket.destroy(), resolve(false)));
  });
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export async function runDoctor({ config, flags }: CommandContext): Promise<number> {
  const checks: Check[] = [];
  try {
    checks.push(diskOf(config.data_dir));
  } catch (e) {
    checks.push({ name: 'disk', ok: false, detail: `cannot read free space of ${config.data_dir}: ${(e as Error).message}` });
  }
  for (const left of restoreLeftovers(config.data_dir)) {
    checks.push({ name: 'restore', ok: true, detail: `${left} is left from an interrupted restore (the database was not touched); it is removed by the next restore` });
  }
  let hub: Awaited<ReturnType<typeof createHub>> | undefined;
  try {
    const db = openDatabase({ dataDir: config.data_dir });
    const integrity = db.pragma('integrity_check', { simple: true }) as string;
    checks.push({ name: 'integrity', ok: integrity === 'ok', detail: integrity });
    const fk = db.pragma('foreign_key_check') as unknown[];
    checks.push({ name: 'foreign_keys', ok: fk.length === 0, detail: `${fk.length} violations` });
    const version = db.pragma('user_version', { simple: true }) as number;
    const last = preMigrationBackups(join(config.data_dir, 'hearth.db'))[0];
    const kept = last ? `; last pre-migration backup ${last.path} (version ${last.fromVersion}, ${new Date(last.at).toISOString()})` : '; no pre-migration backup';
    checks.push({ name: 'schema', ok: version === MIGRATIONS.length, detail: `version ${version} of ${MIGRATIONS.length}${kept}` });
    db.close();
    hub = await createHub({ config: { ...config, http: { ...config.http, enabled: false } } });
    const s = hub.services;
    const count = (t: string) => (s.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
    checks.push({ name: 'counts', ok: true, detail: `${count('entities')} entities, ${count('memories')} memories, ${count('relations')} relations` });
    const answers = await s.embedder.ping();
    checks.push({
      name: 'embedder',
      ok: answers,
      detail: `${s.embedder.provider}/${s.embedder.model} (${s.embedder.dim} dims) ${answers ? 'answers' : 'does not answer'}${s.embedder.note ? ` — ${s.embedder.note}` : ''}`,
    });
    // Opened here (not on the first query) so the check shows its load cost or why it is missing.
    const wordnetOk = s.wordnet.available();
    // Two sample questions: the first opens the caches, the second shows the cost of a new question.
    prepareQuery(s.wordnet, 'where are my keys');
    prepareQuery(s.wordnet, 'who looks after the boiler');
    checks.push({ name: 'wordnet', ok: true, detail: `${wordnetOk ? '' : 'not available: '}${describeWordNet(s.wordnet.stats())}` });
    const pending = s.memory.repo.pendingCount();
    checks.push({
      name: 'vectors',
      ok: s.vectors.state === 'ready',
      detail: s.vectors.state === 'ready' ? `current; ${pending} memories waiting for a vector` : s.vectors.staleReason(),
    });
    if (config.mqtt.mode === 'external') {
      const u = new URL(config.mqtt.url || 'mqtt://invalid:1');
      const up = await reachable(u.hostname, Number(u.port || 1883));
      checks.push({ name: 'broker', ok: up, detail: `external ${config.mqtt.url} ${up ? 'answers' : 'does not answer'}` });
    } else if (config.mqtt.mode === 'embedded') {
      // The embedded broker runs inside `hearth serve`: not answering is fine when the hub is stopped.
      const up = await reachable(config.mqtt.host, config.mqtt.port);
      checks.push({ name: 'broker', ok: true, detail: `embedded ${config.mqtt.host}:${config.mqtt.port} ${up ? 'answers' : 'not running (starts with hearth serve)'}` });
    }
  } catch (e) {
    checks.push({ name: 'open', ok: false, detail: (e as Error).message });
  } finally {
    await hub?.stop();
  }
  const ok = checks.every((c) => c.ok);
  if (flags.json) process.stdout.write(JSON.stringify({ ok, checks }, null, 2) + '\n');
  else for (const c of checks) process.stdout.write(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name.padEnd(13)} ${c.detail}\n`);
  return ok ? 0 : 1;
}
