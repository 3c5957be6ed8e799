/**
 * #10.6 who may use a data dir at once, with real `hearth` child processes: `mcp` beside `serve`
 * works; a second `serve` and a `restore` beside either are refused in one line naming the pid;
 * SIGKILLed holders leave nothing that blocks the next start.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { acquireLock } from '../../src/db/locks.js';
import { tempDir } from '../helpers/hub.js';
import { FIXTURE } from '../io/fixture.js';
import { startServe, type ServeProcess } from '../helpers/process.js';
import { CLI, cliEnv, oneLine, runCli, made } from '../helpers/cli.js';

const kill = async (p: ChildProcess) => {
  if (p.exitCode !== null || p.signalCode !== null) return;
  const exited = new Promise<void>((r) => p.once('exit', r));
  p.kill('SIGKILL');
  await exited;
};

let serves: ServeProcess[] = [];
let clients: Client[] = [];
afterEach(async () => {
  for (const c of clients) await c.close().catch(() => {});
  for (const s of serves) await kill(s.child);
  serves = [];
  clients = [];
});

describe('data dir locks', () => {
  it('mcp writes beside serve; restore is refused naming both; a second serve is refused; SIGKILL leaves no stale lock', async () => {
    const dir = made(join(tempDir(), 'data'));
    const backup = join(tempDir(), 'b.db');
    expect((await runCli(['backup', backup], cliEnv(dir))).code).toBe(0);
    const serve = await startServe(dir, { HEARTH_MQTT_MODE: 'off' });
    serves.push(serve);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      env: cliEnv(dir),
      stderr: 'pipe',
    });
    const mcp = new Client({ name: 'locks-test', version: '1.0.0' });
    await mcp.connect(transport);
    clients.push(mcp);
    const added = await mcp.callTool({
      name: 'remember',
      arguments: { entity_name: 'Brian', fact: 'Brian likes jazz' },
    });
    expect(added.isError).toBeFalsy();
    const recall = await fetch(`${serve.http}/recall`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'jazz' }),
    }).then((r) => r.json());
    expect(JSON.stringify(recall)).toContain('Brian likes jazz');

    const refused = await runCli(['restore', backup], cliEnv(dir));
    expect(refused.code).toBe(1);
    expect(oneLine(refused.stderr), refused.stderr).toBe(true);
    expect(refused.stderr).toContain(`pid ${serve.child.pid} (hearth serve)`);
    expect(refused.stderr).toContain(`pid ${transport.pid} (hearth mcp)`);
    expect(refused.stderr).toMatch(/stop it first/);

    const second = await runCli(['serve'], cliEnv(dir, { HEARTH_HTTP_PORT: '0' }), { timeoutMs: 20_000 });
    expect(second.signal, 'a second serve must not keep running').toBeNull();
    expect(second.code).toBe(1);
    expect(oneLine(second.stderr), second.stderr).toBe(true);
    expect(second.stderr).toContain(`${dir} is already served by pid ${serve.child.pid} (hearth serve)`);

    // SIGKILL the serve: its locks go with it. The mcp still holds the database, so restore waits for it.
    await kill(serve.child);
    const stillBusy = await runCli(['restore', backup], cliEnv(dir));
    expect(stillBusy.stderr).toContain(`is in use by pid ${transport.pid} (hearth mcp)`);
    expect(stillBusy.stderr).not.toContain(`pid ${serve.child.pid}`);
    const mcpPid = transport.pid!;
    process.kill(mcpPid, 'SIGKILL');
    for (let i = 0; i < 100; i++) {
      try {
        process.kill(mcpPid, 0);
        await new Promise((r) => setTimeout(r, 50));
      } catch {
        break;
      }
    }
    const restored = await runCli(['restore', backup], cliEnv(dir));
    expect(restored.code, restored.stderr).toBe(0);
    // The restore threw away what the mcp wrote, and nobody was left acknowledging writes into it.
    const db = new Database(join(dir, 'hearth.db'), { readonly: true });
    expect(db.prepare("SELECT count(*) AS n FROM memories WHERE fact = 'Brian likes jazz'").get()).toEqual({ n: 0 });
    db.close();
    const again = await startServe(dir, { HEARTH_MQTT_MODE: 'off' });
    serves.push(again);
    expect((await fetch(`${again.http}/health`)).status).toBe(200);
  }, 120_000);

  it('a process that opens the database while a restore holds the data dir waits, then gives up in one line naming it', async () => {
    const dir = made(join(tempDir(), 'data'));
    expect((await runCli(['doctor'], cliEnv(dir))).code).toBe(0);
    const release = acquireLock(dir, 'exclusive'); // as `hearth restore` does, from this (test) process
    try {
      const r = await runCli(['backup', join(tempDir(), 'x.db')], cliEnv(dir));
      expect(r.code).toBe(1);
      expect(oneLine(r.stderr), r.stderr).toBe(true);
      expect(r.stderr).toContain(`${dir} is being restored by pid ${process.pid}`);
    } finally {
      release();
    }
    expect((await runCli(['backup', join(tempDir(), 'x.db')], cliEnv(dir))).code).toBe(0);
  }, 60_000);

  it('hearth import needs the data dir to itself: refused beside a running serve, naming its pid', async () => {
    const dir = made(join(tempDir(), 'data'));
    const fixture = join(tempDir(), 'household.db');
    copyFileSync(FIXTURE, fixture); // a copy: opening it writes -wal/-shm files beside it
    const serve = await startServe(dir, { HEARTH_MQTT_MODE: 'off' });
    serves.push(serve);
    const refused = await runCli(['import', 'memory-mcp', fixture], cliEnv(dir));
    expect(refused.code).toBe(1);
    expect(oneLine(refused.stderr), refused.stderr).toBe(true);
    expect(refused.stderr).toContain(`pid ${serve.child.pid} (hearth serve)`);
    await kill(serve.child);
    const done = await runCli(['import', 'memory-mcp', fixture, '--dry-run'], cliEnv(dir));
    expect(done.code, done.stderr).toBe(0);
  }, 60_000);
});
