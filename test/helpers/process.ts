/** Runs `hearth serve` as a real child process (for crash tests) and waits for it to answer. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './mosquitto.js';

export interface ServeProcess {
  child: ChildProcess;
  http: string;
  mqtt: string;
  output: () => string;
}

export async function startServe(dataDir: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const httpPort = await freePort();
  const mqttPort = await freePort();
  const child = spawn(process.execPath, [join(process.cwd(), 'dist/src/cli.js'), 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      HEARTH_DATA_DIR: dataDir,
      HEARTH_HTTP_PORT: String(httpPort),
      HEARTH_MQTT_PORT: String(mqttPort),
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
  const http = `http://127.0.0.1:${httpPort}`;
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`${http}/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (child.exitCode !== null) throw new Error(`hearth serve exited: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, http, mqtt: `mqtt://127.0.0.1:${mqttPort}`, output: () => out };
}
