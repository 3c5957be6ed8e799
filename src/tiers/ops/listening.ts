/**
 * What the running `hearth serve` listens on, recorded beside its serve lock so `hearth doctor`
 * checks the hub's own ports rather than the config file's (issue #35 item 15: doctor probed the
 * configured MQTT port and called another hub's broker on it "answers"). The record counts only
 * while the pid that wrote it holds the serve lock; a crashed serve's record is ignored.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockDir, lockHolders } from '../../db/locks.js';

export interface Listening {
  pid: number;
  /** e.g. http://127.0.0.1:8900, or null when HTTP is off. */
  http: string | null;
  /** e.g. mqtt://127.0.0.1:1883, or null when MQTT is off. */
  mqtt: string | null;
}

const file = (dataDir: string) => join(lockDir(dataDir), 'serve.json');

/** Written by `serve` once it listens; returns the removal for its exit. */
export function recordListening(dataDir: string, where: Omit<Listening, 'pid'>): () => void {
  if (dataDir === ':memory:') return () => {};
  const path = file(dataDir);
  writeFileSync(path, JSON.stringify({ pid: process.pid, ...where }), { mode: 0o600 });
  return () => rmSync(path, { force: true });
}

/** The running serve of this data dir and what it listens on; `ports` undefined when it recorded none. */
export function runningServe(dataDir: string): { pid: number; ports?: Listening } | undefined {
  if (dataDir === ':memory:') return undefined;
  const serve = lockHolders(dataDir, ['serve'])[0];
  if (!serve) return undefined;
  try {
    const ports = JSON.parse(readFileSync(file(dataDir), 'utf8')) as Listening;
    return ports.pid === serve.pid ? { pid: serve.pid, ports } : { pid: serve.pid };
  } catch {
    return { pid: serve.pid };
  }
}
