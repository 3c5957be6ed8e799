/** `hearth backup <file>` refuses what cannot be a backup, in one line, and leaves the database alone. */
import { describe, expect, it } from 'vitest';
import { linkSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '../helpers/hub.js';
import { cliEnv, oneLine, runCli } from '../helpers/cli.js';

describe('hearth backup', () => {
  it('refuses the live database under any name: itself, relative, through a symlink, a hard link, its -wal', async () => {
    const root = tempDir();
    const dir = join(root, 'data');
    const env = cliEnv(dir);
    // Before the database exists too: backing up onto where it will be is as wrong.
    const early = await runCli(['backup', join(dir, 'hearth.db')], env);
    expect(early.code).toBe(2);
    expect((await runCli(['doctor'], env)).code).toBe(0);
    const db = new Database(join(dir, 'hearth.db'));
    db.exec("INSERT INTO entities (name, name_key, type, meta, created, updated) VALUES ('Alice', 'alice', 'person', '{}', 0, 0)");
    db.close();
    symlinkSync(join(dir, 'hearth.db'), join(root, 'link.db'));
    symlinkSync(dir, join(root, 'dir-link'));
    linkSync(join(dir, 'hearth.db'), join(root, 'hard.db'));
    mkdirSync(join(root, 'sub'));
    const targets = [join(dir, 'hearth.db'), relative(root, join(dir, 'hearth.db')), join(root, 'sub', '..', 'data', 'hearth.db'), join(root, 'link.db'), join(root, 'dir-link', 'hearth.db'), join(root, 'hard.db'), join(dir, 'hearth.db-wal')];
    for (const target of targets) {
      const r = await runCli(['backup', target], env, { cwd: root });
      expect(r.code, `${target}: ${r.stdout}`).toBe(2);
      expect(oneLine(r.stderr), r.stderr).toBe(true);
      expect(r.stderr).toBe(`hearth: backup: ${target} is the live database of ${dir} itself; back up to another file, e.g. hearth backup /var/backups/hearth.db\n`);
    }
    const check = new Database(join(dir, 'hearth.db'), { readonly: true });
    expect(check.prepare('SELECT name FROM entities').pluck().all()).toEqual(['Alice']);
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
    expect((await runCli(['backup', join(root, 'b.db')], env)).code).toBe(0);
  }, 60_000);
});
