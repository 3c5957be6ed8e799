/**
 * #10.7 restore is atomic: never from the live file itself, never removing the live file first,
 * and a SIGKILL at any moment (real child processes) leaves either the old or the new database.
 * An empty or missing database beside a kept `before-restore` copy is reported and refused.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase } from '../../src/db/open.js';
import { tempDir } from '../helpers/hub.js';
import { CLI, cliEnv, oneLine, runCli, made } from '../helpers/cli.js';

/** A database in dir holding one entity named `name`, padded with `mb` MiB of blobs. */
function makeDb(dir: string, name: string, mb = 0): string {
  const db = openDatabase({ dataDir: dir });
  db.prepare(
    "INSERT INTO entities (name, name_key, type, meta, created, updated) VALUES (?, lower(?), 'person', '{}', 0, 0)",
  ).run(name, name);
  if (mb) {
    db.exec('CREATE TABLE filler (b BLOB)');
    const put = db.prepare('INSERT INTO filler VALUES (randomblob(65536))');
    db.transaction(() => {
      for (let i = 0; i < mb * 16; i++) put.run();
    })();
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return join(dir, 'hearth.db');
}

/** The entity names in the database at path, after an integrity check. */
function namesIn(path: string): string[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    return (db.prepare('SELECT name FROM entities').all() as { name: string }[]).map((r) => r.name);
  } finally {
    db.close();
  }
}

describe('restore', () => {
  it('refuses to restore the live database onto itself and leaves it in place', async () => {
    const dir = made(join(tempDir(), 'data'));
    const live = makeDb(dir, 'Alice');
    for (const source of [live, join(dir, '.', 'hearth.db')]) {
      const r = await runCli(['restore', source], cliEnv(dir));
      expect(r.code).toBe(2);
      expect(oneLine(r.stderr), r.stderr).toBe(true);
      expect(r.stderr).toContain('is the live database');
    }
    expect(namesIn(live)).toEqual(['Alice']);
    expect(readdirSync(dir).filter((n) => n.includes('before-restore'))).toEqual([]);
    const doctor = await runCli(['doctor'], cliEnv(dir));
    expect(doctor.code, doctor.stdout).toBe(0);
  });

  it('SIGKILL at any moment of a restore leaves either the old or the new database at hearth.db', async () => {
    const dir = made(join(tempDir(), 'data'));
    const backup = makeDb(join(tempDir(), 'backup'), 'New', 24);
    makeDb(dir, 'Old');
    const full = await runCli(['restore', backup], cliEnv(dir));
    expect(full.code, full.stderr).toBe(0);
    expect(namesIn(join(dir, 'hearth.db'))).toEqual(['New']);
    expect(statSync(join(dir, 'hearth.db')).mode & 0o777, 'the live file keeps its mode').toBe(0o600);
    const seen = new Set<string>();
    let midCopy = 0;
    for (let i = 0; i < 8; i++) {
      // Start each round from the old database.
      rmSync(dir, { recursive: true, force: true });
      makeDb(dir, 'Old');
      const child = spawn(process.execPath, [CLI, 'restore', backup], { env: cliEnv(dir), stdio: 'ignore' });
      const closed = new Promise((r) => child.on('close', r));
      // Kill once the restore starts writing files (a copy beside the live one, or a moved-aside
      // one as the old restore did), a little later each round.
      const started = () => readdirSync(dir).some((n) => n === 'hearth.db.restoring' || n.includes('before-restore'));
      while (!started() && child.exitCode === null) await new Promise((r) => setTimeout(r, 2));
      await new Promise((r) => setTimeout(r, i * 40));
      child.kill('SIGKILL');
      await closed;
      const where = `killed ${i * 40} ms into the copy`;
      if (child.signalCode === 'SIGKILL') midCopy++;
      expect(existsSync(join(dir, 'hearth.db')), where).toBe(true);
      const names = namesIn(join(dir, 'hearth.db'));
      expect([['Old'], ['New']], where).toContainEqual(names);
      seen.add(names[0]);
      // Whatever was left, the next command opens it.
      const doctor = await runCli(['doctor', '--json'], cliEnv(dir));
      const checks = JSON.parse(doctor.stdout).checks as { name: string; ok: boolean; detail: string }[];
      expect(checks.find((c) => c.name === 'integrity')).toMatchObject({ ok: true });
      if (existsSync(join(dir, 'hearth.db.restoring'))) {
        expect(checks.find((c) => c.name === 'restore')?.detail).toContain('left from an interrupted restore');
      }
    }
    expect(midCopy, 'at least one kill landed before the restore finished').toBeGreaterThan(0);
    // Which of the two survived depends on where each kill landed; both are whole databases.
    expect(seen.size).toBeGreaterThan(0);
  }, 240_000);

  it('a missing or empty database beside a kept copy: doctor reports it, serve and mcp refuse in one line', async () => {
    const dir = made(join(tempDir(), 'data'));
    const live = makeDb(dir, 'Alice');
    const kept = `${live}.before-restore-2026-01-01T00-00-00-000Z`;
    renameSync(live, kept); // what the old restore left when it failed after moving the live file aside
    for (const cmd of ['serve', 'mcp']) {
      const r = await runCli([cmd], cliEnv(dir, { HEARTH_HTTP_PORT: '0' }));
      expect(r.code, r.stderr).toBe(1);
      expect(oneLine(r.stderr), r.stderr).toBe(true);
      expect(r.stderr).toContain(`${live} is missing but ${kept} lies beside it`);
      expect(r.stderr).toContain(`hearth restore ${kept}`);
    }
    expect(existsSync(live), 'nothing was created in its place').toBe(false);
    // An empty database in its place (as `doctor` used to create): reported, refused.
    const fresh = join(tempDir(), 'fresh');
    openDatabase({ dataDir: fresh }).close();
    renameSync(join(fresh, 'hearth.db'), live);
    const doctor = await runCli(['doctor'], cliEnv(dir));
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(`FAIL open          ${live} holds no data but ${kept} lies beside it`);
    const serve = await runCli(['serve'], cliEnv(dir, { HEARTH_HTTP_PORT: '0' }));
    expect(serve.code).toBe(1);
    expect(serve.stderr).toContain('holds no data');
    // The fix the message names works.
    const fix = await runCli(['restore', kept], cliEnv(dir));
    expect(fix.code, fix.stderr).toBe(0);
    expect(namesIn(live)).toEqual(['Alice']);
  }, 120_000);

  it('restoring an empty backup on purpose does not block the next start', async () => {
    const dir = made(join(tempDir(), 'data'));
    makeDb(dir, 'Alice');
    const empty = join(tempDir(), 'empty');
    openDatabase({ dataDir: empty }).close();
    expect((await runCli(['restore', join(empty, 'hearth.db')], cliEnv(dir))).code).toBe(0);
    const doctor = await runCli(['doctor'], cliEnv(dir));
    expect(doctor.code, doctor.stdout).toBe(0);
  }, 60_000);
});
