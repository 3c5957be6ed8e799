/**
 * `hearth backup <file>` refuses what cannot be a backup, in one line naming the path and what to
 * do, before it opens the database, and leaves the database (and whatever is at the path) alone.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '../helpers/hub.js';
import { cliEnv, oneLine, runCli, made } from '../helpers/cli.js';

describe('hearth backup', () => {
  it('refuses the live database under any name: itself, relative, through a symlink, a hard link, its -wal', async () => {
    const root = tempDir();
    const dir = made(join(root, 'data'));
    const env = cliEnv(dir);
    // Before the database exists too: backing up onto where it will be is as wrong.
    const early = await runCli(['backup', join(dir, 'hearth.db')], env);
    expect(early.code).toBe(2);
    expect((await runCli(['doctor'], env)).code).toBe(0);
    const db = new Database(join(dir, 'hearth.db'));
    db.exec(
      "INSERT INTO entities (name, name_key, type, meta, created, updated) VALUES ('Alice', 'alice', 'person', '{}', 0, 0)",
    );
    db.close();
    symlinkSync(join(dir, 'hearth.db'), join(root, 'link.db'));
    symlinkSync(dir, join(root, 'dir-link'));
    linkSync(join(dir, 'hearth.db'), join(root, 'hard.db'));
    mkdirSync(join(root, 'sub'));
    const targets = [
      join(dir, 'hearth.db'),
      relative(root, join(dir, 'hearth.db')),
      join(root, 'sub', '..', 'data', 'hearth.db'),
      join(root, 'link.db'),
      join(root, 'dir-link', 'hearth.db'),
      join(root, 'hard.db'),
      join(dir, 'hearth.db-wal'),
    ];
    for (const target of targets) {
      const r = await runCli(['backup', target], env, { cwd: root });
      expect(r.code, `${target}: ${r.stdout}`).toBe(2);
      expect(oneLine(r.stderr), r.stderr).toBe(true);
      expect(r.stderr).toBe(
        `hearth: backup: ${target} is the live database of ${dir} itself; back up to another file, e.g. hearth backup /var/backups/hearth.db\n`,
      );
    }
    const check = new Database(join(dir, 'hearth.db'), { readonly: true });
    expect(check.prepare('SELECT name FROM entities').pluck().all()).toEqual(['Alice']);
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
    expect((await runCli(['backup', join(root, 'b.db')], env)).code).toBe(0);
  }, 120_000); // eleven CLI runs: 60 s was not enough beside stress-ng --cpu 4 and another suite on 2 cores

  it('a missing directory, a directory, a file in the way, a file that is not a database, an unwritable directory', async () => {
    const root = tempDir();
    chmodSync(root, 0o755);
    const env = cliEnv(made(join(root, 'data')));
    writeFileSync(join(root, 'notes.txt'), 'my notes\n');
    const cases: [string, string][] = [
      [
        join(root, 'nonexist-dir', 'x.db'),
        `hearth: backup: directory ${join(root, 'nonexist-dir')} does not exist; create it first (mkdir -p ${join(root, 'nonexist-dir')}) or give another path, e.g. hearth backup /var/backups/hearth.db`,
      ],
      [root, `hearth: backup: ${root} is a directory; give a file name, e.g. hearth backup ${join(root, 'hearth.db')}`],
      [
        join(root, 'notes.txt', 'x.db'),
        `hearth: backup: ${join(root, 'notes.txt')} is a file, not a directory; give another path`,
      ],
      [
        join(root, 'notes.txt'),
        `hearth: backup: ${join(root, 'notes.txt')} exists and is not a SQLite database; it is not overwritten: give a new file name`,
      ],
    ];
    for (const [target, line] of cases) {
      const r = await runCli(['backup', target], env);
      expect(r.code, `${target}: ${r.stderr}`).toBe(2);
      expect(oneLine(r.stderr), r.stderr).toBe(true);
      expect(r.stderr.startsWith(line), r.stderr).toBe(true);
    }
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('my notes\n');
    // Root bypasses permissions: as root the CLI runs as nobody (setpriv), as anyone else as itself.
    const isRoot = process.getuid?.() === 0;
    const ro = join(root, 'ro');
    mkdirSync(ro, { mode: 0o555 });
    const r = await runCli(['backup', join(ro, 'x.db')], env, {
      prefix: isRoot ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'] : undefined,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^hearth: backup: cannot write in ${ro}: permission denied for \\S+; give a path that user can write\n$`,
      ),
    );
    // A backup over an older backup is fine.
    expect((await runCli(['backup', join(root, 'b.db')], env)).code).toBe(0);
    const again = await runCli(['backup', join(root, 'b.db')], env);
    expect(again.code, again.stderr).toBe(0);
  }, 60_000);
});
