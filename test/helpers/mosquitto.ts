/**
 * A real broker and a real third-party client for the external-broker tests. Debian's `mosquitto` and
 * `mosquitto_pub` when they are on PATH (CI installs them: .ci/run); otherwise a broker and a client in
 * their own child processes (`mqtt5-broker.mjs`, `mqtt-pub.mjs`), so `npm test` passes on a machine with
 * Node alone. Each test file says which it used, in one line.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tempDir } from './hub.js';
import { freePort } from './ports.js';

const here = dirname(fileURLToPath(import.meta.url));
const found = new Map<string, boolean>();
const onPath = (cmd: string) => {
  if (!found.has(cmd)) found.set(cmd, spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0);
  return found.get(cmd)!;
};
const said = new Set<string>();
const sayOnce = (line: string) => {
  if (said.has(line)) return;
  said.add(line);
  process.stdout.write(`${line}\n`);
};

export interface Mosquitto {
  port: number;
  url: string;
  /** `mosquitto` (Debian's) or `node-mqtt5-broker` (the stand-in). */
  kind: string;
  stop(): Promise<void>;
}

/** `standIn: true` starts the stand-in even where Mosquitto is installed (so CI covers it too). */
export async function startMosquitto(port?: number, { standIn = false } = {}): Promise<Mosquitto> {
  const p = port ?? (await freePort());
  let child: ChildProcess;
  let kind: string;
  if (!standIn && onPath('mosquitto')) {
    const dir = tempDir('hearth-mosquitto-');
    const conf = join(dir, 'mosquitto.conf');
    writeFileSync(conf, `listener ${p} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
    child = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
    kind = 'mosquitto';
    sayOnce('external broker: Debian mosquitto');
  } else {
    child = spawn(process.execPath, [join(here, 'mqtt5-broker.mjs'), String(p)], { stdio: 'ignore' });
    kind = 'node-mqtt5-broker';
    if (!standIn)
      sayOnce(
        'external broker: mosquitto not on PATH, using test/helpers/mqtt5-broker.mjs in a child process (apt-get install mosquitto for the real one)',
      );
  }
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = createConnection({ port: p, host: '127.0.0.1' }, () => (s.end(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (up) break;
    if (child.exitCode !== null) throw new Error(`${kind} exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port: p,
    url: `mqtt://127.0.0.1:${p}`,
    kind,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const run = promisify(execFile);

/**
 * Runs `mosquitto_pub` with `args` (asynchronously: never block the event loop an embedded broker
 * shares), or the stand-in with the same options when mosquitto-clients is absent.
 */
export function mosquittoPub(args: string[], { standIn = false } = {}): Promise<{ stdout: string; stderr: string }> {
  if (!standIn && onPath('mosquitto_pub')) {
    sayOnce('third-party client: Debian mosquitto_pub');
    return run('mosquitto_pub', args);
  }
  if (!standIn)
    sayOnce(
      'third-party client: mosquitto_pub not on PATH, using test/helpers/mqtt-pub.mjs in a child process (apt-get install mosquitto-clients for the real one)',
    );
  return run(process.execPath, [join(here, 'mqtt-pub.mjs'), ...args]);
}
