/**
 * Issue #26 item 14: what the hub writes of the household's data to a file — a backup (new or
 * replacing an older one), a pre-migration copy — is 0600 under a
 * normal umask (022), where SQLite alone makes 0644. The CLI runs as a real child whose umask is set
 * by the shell that starts it.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { tempDir } from '../helpers/hub.js';
import { cliEnv, runCli } from '../helpers/cli.js';

/** Runs the CLI under `umask 022`, as a login shell or a systemd timer would. */
const umask022 = { prefix: ['sh', '-c', 'umask 022; exec "$0" "$@"'] };
const mode = (path: string) => statSync(path).mode & 0o777;

function dataDir(): { root: string; dir: string; env: Record<string, string> } {
  const root = tempDir();
  const dir = join(root, 'data');
  mkdirSync(dir);
  return { root, dir, env: cliEnv(dir) };
}

describe('files holding household data are 0600 whatever the umask', { timeout: 120_000 }, () => {
  it('the umask of the child is 022 (so SQLite alone would make 0644)', async () => {
    const probe = join(tempDir(), 'probe.db');
    const sh = await runCli(
      [],
      {},
      {
        prefix: [
          'sh',
          '-c',
          `umask 022; exec "$0" -e "new (require('better-sqlite3'))('${probe}').exec('CREATE TABLE t(x)')"`,
        ],
        cwd: process.cwd(),
      },
    );
    expect(sh.code, sh.stderr).toBe(0);
    expect(mode(probe)).toBe(0o644);
  });

  it('hearth backup writes a new backup 0600 and narrows an older one it replaces', async () => {
    const { root, env } = dataDir();
    expect((await runCli(['doctor'], env)).code).toBe(0);
    const fresh = join(root, 'fresh.db');
    const r = await runCli(['backup', fresh], env, umask022);
    expect(r.code, r.stderr).toBe(0);
    expect(mode(fresh).toString(8)).toBe('600');
    const older = join(root, 'older.db');
    copyFileSync(fresh, older);
    chmodSync(older, 0o644);
    expect((await runCli(['backup', older], env, umask022)).code).toBe(0);
    expect(mode(older).toString(8)).toBe('600');
  });

  it('the copy made before a schema upgrade is 0600', async () => {
    const { dir, env } = dataDir();
    const db = new Database(join(dir, 'hearth.db'));
    db.exec(MIGRATIONS[0]);
    db.pragma('user_version = 1');
    db.close();
    chmodSync(join(dir, 'hearth.db'), 0o600);
    expect((await runCli(['doctor'], env, umask022)).code).toBe(0);
    const copies = readdirSync(dir).filter((n) => n.includes('.pre-migration-v1-'));
    expect(copies).toHaveLength(1);
    expect(mode(join(dir, copies[0])).toString(8)).toBe('600');
  });
});
