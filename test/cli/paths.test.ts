/**
 * The paths given to import, import-markdown, export-markdown and restore are checked before any
 * lock or database: one line naming the path and what to do — not a stack trace, and not "in use
 * by pid …" for a file that is not there while the hub runs.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock } from '../../src/db/locks.js';
import { tempDir } from '../helpers/hub.js';
import { cliEnv, oneLine, runCli, made } from '../helpers/cli.js';

const isRoot = process.getuid?.() === 0;
// Root bypasses permissions: as root the CLI runs as nobody (setpriv), as anyone else as itself.
const asUser = isRoot ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'] : undefined;

async function refused(argv: string[], env: Record<string, string>, line: string, prefix?: string[]) {
  const r = await runCli(argv, env, { prefix });
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
  expect(oneLine(r.stderr), r.stderr).toBe(true);
  expect(r.stderr, argv.join(' ')).toContain(line);
  return r;
}

describe('paths given to the CLI', () => {
  it('import-markdown and export-markdown: a missing directory, a file instead of one, an unreadable note', async () => {
    const root = tempDir();
    chmodSync(root, 0o755);
    const dir = made(join(root, 'data'));
    const env = cliEnv(dir);
    const file = join(root, 'some-existing-file');
    writeFileSync(file, 'x');
    await refused(
      ['import-markdown', join(root, 'nonexist-md')],
      env,
      `import-markdown: ${join(root, 'nonexist-md')} does not exist; give the directory the notes are in, e.g.`,
    );
    await refused(
      ['import-markdown', file],
      env,
      `import-markdown: ${file} is a file, not a directory; give the directory the notes are in`,
    );
    await refused(
      ['export-markdown', file],
      env,
      `export-markdown: ${file} is a file, not a directory; give a directory (created if missing)`,
    );
    await refused(['export-markdown', join(file, 'sub')], env, `export-markdown: ${file} is a file, not a directory`);
    const notes = join(root, 'notes');
    mkdirSync(join(notes, 'locked'), { recursive: true, mode: 0o700 });
    chmodSync(notes, 0o755);
    writeFileSync(join(notes, 'a.md'), '# a\n');
    await refused(
      ['import-markdown', notes],
      env,
      `import-markdown: cannot read ${join(notes, 'locked')}: permission denied for`,
      asUser,
    );
    expect(existsSync(join(dir, 'hearth.db'))).toBe(false); // refused before the database was opened
    // A directory that does not exist yet is created.
    const out = await runCli(['export-markdown', join(root, 'vault', 'Hearth')], env);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`Exported 0 entities to ${join(root, 'vault', 'Hearth')}`);
  }, 60_000);

  it('import memory-mcp and restore beside a running hub: a missing or bad file is named, not "in use by pid"', async () => {
    const root = tempDir();
    chmodSync(root, 0o755);
    const dir = made(join(root, 'data'));
    const env = cliEnv(dir);
    expect((await runCli(['doctor'], env)).code).toBe(0);
    const junk = join(root, 'junk.db');
    writeFileSync(junk, 'not a database at all');
    const secret = join(root, 'secret.db');
    writeFileSync(secret, 'x', { mode: 0o600 });
    const release = acquireLock(dir, 'shared'); // as a running `hearth serve` holds it
    try {
      await refused(
        ['import', 'memory-mcp', join(root, 'nonexist.db')],
        env,
        `import memory-mcp: ${join(root, 'nonexist.db')} does not exist; give the memory-mcp database file, e.g.`,
      );
      await refused(['import', 'memory-mcp', root], env, `import memory-mcp: ${root} is a directory`);
      await refused(['import', 'memory-mcp', junk], env, `import memory-mcp: ${junk} is not a SQLite database`);
      await refused(
        ['restore', join(root, 'nonexist.db')],
        env,
        `restore: ${join(root, 'nonexist.db')} does not exist; give the backup file, e.g.`,
      );
      await refused(['restore', root], env, `restore: ${root} is a directory`);
      await refused(['restore', junk], env, `restore: ${junk} is not a SQLite database`);
      await refused(['restore', secret], env, `restore: cannot read ${secret}: permission denied for`, asUser);
      await refused(
        ['import', 'memory-mcp', secret],
        env,
        `import memory-mcp: cannot read ${secret}: permission denied for`,
        asUser,
      );
    } finally {
      release();
    }
  }, 60_000);
});
