/**
 * Issue #35 item 15: `doctor` probed the config's MQTT port and called another hub's broker there
 * "answers". The embedded broker is checked where the running `serve` of this data dir recorded it
 * listens (lock/serve.json, valid while that pid holds the serve lock); with no serve, nothing is probed.
 */
import { createServer, type Server } from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/hub.js';
import { cliEnv, made, runCli } from '../helpers/cli.js';
import { startServe } from '../helpers/process.js';
import { freePort } from '../helpers/ports.js';

const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

/** Something else answering on a port: another hub's broker. */
async function otherBroker(): Promise<number> {
  const port = await freePort();
  const server = createServer((socket) => socket.end());
  servers.push(server);
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return port;
}

async function brokerCheck(dir: string, mqttPort: number) {
  const env = cliEnv(dir, { HEARTH_MQTT_MODE: 'embedded', HEARTH_MQTT_PORT: String(mqttPort) });
  const r = await runCli(['doctor', '--json'], env, { timeoutMs: 150_000 });
  // An empty answer says why (exit code, signal, stderr) instead of "Unexpected end of JSON input".
  expect(r.stdout.trim(), `doctor exit ${r.code} ${r.signal ?? ''}: ${r.stderr}`).not.toBe('');
  return JSON.parse(r.stdout).checks.find((c: { name: string }) => c.name === 'broker');
}

describe("doctor asks the running hub for its broker's port", { timeout: 420_000 }, () => {
  it('no serve running: "not running", even with another broker on the configured port', async () => {
    const dir = made(join(tempDir(), 'data'));
    const port = await otherBroker();
    expect(await brokerCheck(dir, port)).toEqual({
      name: 'broker',
      ok: true,
      detail: 'embedded: not running (starts with hearth serve)',
    });
  });

  it('serve running: its own port answers, and a config naming another port is pointed out', async () => {
    const dir = made(join(tempDir(), 'data'));
    const other = await otherBroker();
    const serve = await startServe(dir);
    try {
      const own = Number(new URL(serve.mqtt).port);
      const pid = serve.child.pid;
      // Written once serve listens (just after /health first answers).
      for (let i = 0; i < 200 && !existsSync(join(dir, 'lock', 'serve.json')); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(existsSync(join(dir, 'lock', 'serve.json')), serve.output()).toBe(true);
      expect(await brokerCheck(dir, own)).toEqual({
        name: 'broker',
        ok: true,
        detail: `embedded 127.0.0.1:${own} (hearth serve pid ${pid}) answers`,
      });
      expect(await brokerCheck(dir, other)).toEqual({
        name: 'broker',
        ok: true,
        detail: `embedded 127.0.0.1:${own} (hearth serve pid ${pid}) answers (the configuration says 127.0.0.1:${other}; the running hub listens on 127.0.0.1:${own})`,
      });
    } finally {
      const exited = new Promise((r) => serve.child.once('exit', r));
      serve.child.kill('SIGTERM');
      await exited;
    }
    expect(existsSync(join(dir, 'lock', 'serve.json'))).toBe(false);
    expect((await brokerCheck(dir, other)).detail).toBe('embedded: not running (starts with hearth serve)');
  });
});
