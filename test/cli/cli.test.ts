import { describe, expect, it } from 'vitest';
import { spawn, execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { freePort } from '../helpers/ports.js';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '../helpers/hub.js';
import { made } from '../helpers/cli.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/src/cli.js');
// The data dir exists, as after an install: only serve and mcp create one (test/cli/missing-data-dir.test.ts).
const baseEnv = (dir: string) => ({
  PATH: process.env.PATH ?? '',
  HEARTH_DATA_DIR: made(join(dir, 'data')),
  HEARTH_MQTT_MODE: 'off',
  MEMORY_AI_PROVIDER: 'local',
});

describe('hearth CLI', () => {
  it('serve: answers /health on loopback with no config file, and stops on SIGTERM', async () => {
    const dir = tempDir();
    const port = await freePort();
    // auto provider with nothing on the Ollama port: must fall back to the offline neural embedder.
    const child = spawn(process.execPath, [CLI, 'serve'], {
      cwd: dir,
      env: {
        ...baseEnv(dir),
        MEMORY_AI_PROVIDER: 'auto',
        MEMORY_AI_BASE_URL: `http://127.0.0.1:${await freePort()}`,
        HEARTH_HTTP_PORT: String(port),
      },
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => (stderr += d));
    try {
      let body: any;
      // Up to a minute: the 2 s Ollama probe, then the neural encoder loading, on a loaded 2-core machine
      // (10 s was not enough with two suites at once, load 13).
      for (let i = 0; i < 600 && !body; i++) {
        await new Promise((r) => setTimeout(r, 100));
        body = await fetch(`http://127.0.0.1:${port}/health`)
          .then((r) => r.json())
          .catch(() => undefined);
      }
      expect(body, stderr).toMatchObject({ ok: true, status: 'ok', embedder: { provider: 'use-lite' } });
      expect(statSync(join(dir, 'data')).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, 'data', 'hearth.db')).mode & 0o777).toBe(0o600);
    } finally {
      child.kill('SIGTERM');
    }
    const code = await new Promise((r) => child.on('exit', r));
    expect(code).toBe(0);
  }, 120_000);

  it('refuses to start on a bad config with one line naming the key', async () => {
    const dir = tempDir();
    const cfg = join(dir, 'config.toml');
    writeFileSync(cfg, '[http]\nport = "x"\n');
    const err = await run(process.execPath, [CLI, 'serve', '--config', cfg], { env: baseEnv(dir) }).catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.stderr.trim().split('\n')).toHaveLength(1);
    expect(err.stderr).toMatch(/http\.port/);
  });

  it('refuses a database from a newer Hearth', async () => {
    const dir = tempDir();
    await run(process.execPath, [CLI, 'doctor'], { env: baseEnv(dir) });
    const db = new Database(join(dir, 'data', 'hearth.db'));
    db.pragma('user_version = 999');
    db.close();
    const err = await run(process.execPath, [CLI, 'doctor'], { env: baseEnv(dir) }).catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.stdout + err.stderr).toMatch(/schema version 999 is newer/);
  });

  it('doctor reports checks and exits 0 on a healthy database; backup writes a usable copy', async () => {
    const dir = tempDir();
    const out = await run(process.execPath, [CLI, 'doctor', '--json'], { env: baseEnv(dir) });
    const report = JSON.parse(out.stdout);
    expect(report.ok).toBe(true);
    expect(report.checks.map((c: { name: string }) => c.name)).toEqual([
      'disk',
      'integrity',
      'foreign_keys',
      'schema',
      'counts',
      'embedder',
      'wordnet',
      'vectors',
    ]);
    expect(report.checks.find((c: { name: string }) => c.name === 'wordnet').detail).toMatch(
      /^WordNet 3\.1 .*opened in .* ms/,
    );
    expect(report.checks[0].detail).toContain(`free on ${join(dir, 'data')} (database`);
    const ext = await run(process.execPath, [CLI, 'doctor', '--json'], {
      env: { ...baseEnv(dir), HEARTH_MQTT_MODE: 'external', HEARTH_MQTT_URL: `mqtt://127.0.0.1:${await freePort()}` },
    }).catch((e) => e);
    expect(ext.code).toBe(1);
    expect(JSON.parse(ext.stdout).checks.find((c: { name: string }) => c.name === 'broker')).toMatchObject({
      ok: false,
    });
    const target = join(dir, 'backup.db');
    await run(process.execPath, [CLI, 'backup', target], { env: baseEnv(dir) });
    expect(existsSync(target)).toBe(true);
    const copy = new Database(target, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();
  });

  it('reembed --dry-run previews and reembed rebuilds after a model change', async () => {
    const dir = tempDir();
    const env = baseEnv(dir);
    // Write a memory with the local embedder, then claim a different model is configured.
    const { buildTestHub } = await import('../helpers/hub.js');
    const hub = await buildTestHub({ dir });
    await hub.services.memory.remember({
      entity_name: 'Brian',
      fact: 'Brian likes jazz',
      category: 'preference',
      confidence: 1,
      source: 'manual',
      entity_type: 'person',
    });
    await hub.stop();
    const db = new Database(join(dir, 'data', 'hearth.db'));
    db.prepare("UPDATE embed_meta SET model = 'old-model', dim = 384").run();
    db.close();
    const dry = await run(process.execPath, [CLI, 'reembed', '--dry-run'], { env });
    expect(dry.stdout).toMatch(/1 memories; index stale .*old-model/);
    const doctor = await run(process.execPath, [CLI, 'doctor'], { env }).catch((e) => e);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/FAIL vectors/);
    const real = await run(process.execPath, [CLI, 'reembed'], { env });
    expect(real.stdout).toMatch(/embedded 1 memories with hearth-local-v2:384/);
    expect((await run(process.execPath, [CLI, 'doctor'], { env })).stdout).toMatch(/ok {3}vectors/);
  });

  it('restore installs a checked backup, keeps the old database, and refuses while serving or for garbage', async () => {
    const dir = tempDir();
    const env = baseEnv(dir);
    const { buildTestHub } = await import('../helpers/hub.js');
    let hub = await buildTestHub({ dir });
    await hub.services.memory.remember({
      entity_name: 'Brian',
      fact: 'Brian likes jazz',
      category: 'preference',
      confidence: 1,
      source: 'manual',
      entity_type: 'person',
    });
    await hub.stop();
    const target = join(dir, 'b.db');
    await run(process.execPath, [CLI, 'backup', target], { env });
    hub = await buildTestHub({ dir });
    hub.services.memory.forget({ entity_name: 'Brian' });
    await hub.stop();
    const out = await run(process.execPath, [CLI, 'restore', target], { env });
    expect(out.stdout).toMatch(/restored .* previous database is kept as .*before-restore/);
    hub = await buildTestHub({ dir });
    expect(hub.services.entities.find('Brian')).toBeTruthy();
    await hub.stop();
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'not a database at all');
    const bad = await run(process.execPath, [CLI, 'restore', junk], { env }).catch((e) => e);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not a SQLite database|integrity/);
    // This test process opens the database (shared lock), as `hearth serve` or `hearth mcp` would.
    hub = await buildTestHub({ dir });
    const busy = await run(process.execPath, [CLI, 'restore', target], { env }).catch((e) => e);
    await hub.stop();
    expect(busy.stderr).toMatch(new RegExp(`is in use by pid ${process.pid} .*stop it first`));
  });

  it('doctor | head: a reader that goes away ends nothing badly (no EPIPE stack, the usual exit code)', async () => {
    const dir = tempDir();
    await run(process.execPath, [CLI, 'doctor'], { env: baseEnv(dir) });
    const child = spawn(process.execPath, [CLI, 'doctor'], { env: baseEnv(dir), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // the reader is gone before the first line, as after `| head -0`
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((r) => child.on('close', r));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('patterns and prune run as one-shot commands', async () => {
    const dir = tempDir();
    const p = await run(process.execPath, [CLI, 'patterns', 'run', '--json'], { env: baseEnv(dir) });
    expect(JSON.parse(p.stdout)).toMatchObject({ promoted: [], errors: [] });
    const l = await run(process.execPath, [CLI, 'patterns', 'list'], { env: baseEnv(dir) });
    expect(l.stdout).toMatch(/detector/);
    const pr = await run(process.execPath, [CLI, 'prune', '--dry-run'], { env: baseEnv(dir) });
    expect(pr.stdout).toMatch(/^Would delete 0 raw readings/);
    const one = await run(process.execPath, [CLI, 'prune', '--dry-run'], {
      env: { ...baseEnv(dir), RETENTION_DAYS: '1' },
    });
    expect(one.stdout).toBe('Would delete 0 raw readings older than 1 day; rollups kept\n');
  });
});
