/** A real Mosquitto broker (Debian's package) on a free loopback port, for external-broker tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './hub.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface Mosquitto {
  port: number;
  url: string;
  stop(): Promise<void>;
}

export async function startMosquitto(port?: number): Promise<Mosquitto> {
  const p = port ?? (await freePort());
  const dir = tempDir('hearth-mosquitto-');
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(conf, `listener ${p} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
  const child: ChildProcess = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = createConnection({ port: p, host: '127.0.0.1' }, () => (s.end(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port: p,
    url: `mqtt://127.0.0.1:${p}`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
