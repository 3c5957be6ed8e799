/**
 * `hearth serve --port/--host/--data-dir/--mqtt-port`: each is the same setting as its environment
 * variable and wins over it; `hearth help` lists them with the key and variable; a typo or a bad
 * value is one line naming the flag.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/hub.js';
import { freePort } from '../helpers/ports.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/src/cli.js');
const env = { PATH: process.env.PATH ?? '', MEMORY_AI_PROVIDER: 'local' };
const listens = (port: number) =>
  new Promise<boolean>((resolve) => {
    const c = connect(port, '127.0.0.1', () => (c.end(), resolve(true)));
    c.on('error', () => resolve(false));
  });

describe('hearth serve flags', () => {
  it('--port, --host, --data-dir and --mqtt-port set what their variables set, and win over them', async () => {
    const dir = tempDir();
    const [port, mqtt, envPort] = [await freePort(), await freePort(), await freePort()];
    const child = spawn(
      process.execPath,
      [CLI, 'serve', '--port', String(port), '--host', '127.0.0.1', '--data-dir', 'here', '--mqtt-port', String(mqtt)],
      {
        cwd: dir,
        env: { ...env, HEARTH_HTTP_PORT: String(envPort), HEARTH_DATA_DIR: join(dir, 'from-env') },
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    try {
      // "hearth serving" is logged once HTTP and MQTT both listen.
      for (let i = 0; i < 300 && !out.includes('hearth serving'); i++) await new Promise((r) => setTimeout(r, 100));
      const body = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.json() as Promise<{ ok?: boolean }>);
      expect(body.ok, out).toBe(true);
      expect(await listens(mqtt)).toBe(true);
      expect(await listens(envPort)).toBe(false);
      // A relative --data-dir is taken against the working directory, as HEARTH_DATA_DIR is.
      expect(existsSync(join(dir, 'here', 'hearth.db'))).toBe(true);
      expect(existsSync(join(dir, 'from-env'))).toBe(false);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 30_000);

  it('hearth help lists each with its config key and variable', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'help'], { env });
    expect(stdout).toMatch(/^ {2}--port N +serve: http\.port \(HEARTH_HTTP_PORT\)$/m);
    expect(stdout).toMatch(/^ {2}--host ADDR +serve: http\.host \(HEARTH_HTTP_HOST\)$/m);
    expect(stdout).toMatch(/^ {2}--data-dir DIR +serve: data_dir \(HEARTH_DATA_DIR\)$/m);
    expect(stdout).toMatch(/^ {2}--mqtt-port N +serve: mqtt\.port \(HEARTH_MQTT_PORT\)$/m);
  }, 30_000);

  it('a typo or a bad value is one line naming the flag', async () => {
    const typo = await run(process.execPath, [CLI, 'serve', '--prot', '9000'], { env }).catch((e) => e);
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim()).toBe('hearth serve: unknown option --prot (did you mean --port?)');
    const bad = await run(process.execPath, [CLI, 'serve', '--port', 'abc'], { env }).catch((e) => e);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe('hearth: --port: expected a number, got "abc"');
    const big = await run(process.execPath, [CLI, 'serve', '--mqtt-port', '70000'], { env }).catch((e) => e);
    expect(big.stderr.trim()).toMatch(/^hearth: --mqtt-port: .*65535 \(it sets mqtt\.port\)$/);
  }, 60_000);
});
