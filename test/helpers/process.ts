/** Runs `hearth serve` as a real child process (for crash tests) and waits for it to answer. */
import { spawn, type ChildProcess } from 'node:child_process';
import { type Listening, runningServe } from '../../src/tiers/ops/listening.js';
import { CLI } from './cli.js';

export interface ServeProcess {
  child: ChildProcess;
  http: string;
  mqtt: string;
  output: () => string;
}

/**
 * Starts `hearth serve` on ports it picks itself (0: no port is chosen here and then taken by another
 * process before serve binds it, as happened to a Node 22 run: "port … is already in use") and
 * returns once it answers /health, with the URLs it recorded in lock/serve.json (tiers/ops/listening.ts).
 */
export async function startServe(dataDir: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      HEARTH_DATA_DIR: dataDir,
      HEARTH_HTTP_PORT: '0',
      HEARTH_MQTT_PORT: '0',
      MEMORY_AI_PROVIDER: 'local',
      HEARTH_TZ: 'UTC',
      HEARTH_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = () => {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`hearth serve exited: ${out}`);
  };
  // Sized for a loaded 2-core machine: serve starts in ~1 s alone.
  const deadline = Date.now() + 120_000;
  const wait = async (what: string) => {
    exited();
    if (Date.now() > deadline) throw new Error(`hearth serve: ${what} after 120 s: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  };
  // What this child recorded once it listens (a record of an earlier serve of the same dir does not count).
  const recorded = (): Listening | undefined => {
    const serve = runningServe(dataDir);
    return serve && serve.pid === child.pid ? serve.ports : undefined;
  };
  let where = recorded();
  while (!where) {
    await wait('no lock/serve.json');
    where = recorded();
  }
  const http = where.http ?? '';
  while (
    http &&
    !(await fetch(`${http}/health`).then(
      (r) => r.ok,
      () => false,
    ))
  )
    await wait('/health never answered');
  return { child, http, mqtt: where.mqtt ?? '', output: () => out };
}
