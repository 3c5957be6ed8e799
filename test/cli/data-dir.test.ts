/**
 * #13.2 one data directory for every command, #10.19 unwritable / foreign-owned data dirs.
 * Permission denials are real: root bypasses them, so those cases run the CLI as `nobody` through
 * setpriv (util-linux); the path-is-a-file case is one root hits too.
 */
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { userInfo } from 'node:os';
import { dataDirProblem, resolveDataDir, packageRoot, INSTALLED_DATA_DIR } from '../../src/config/data-dir.js';
import { loadConfig } from '../../src/config/load.js';
import { diskCheck } from '../../src/tiers/ops/ops.service.js';
import { explainOpenError } from '../../src/db/errors.js';
import { tempDir } from '../helpers/hub.js';
import { CLI, cliEnv, oneLine, runCli } from '../helpers/cli.js';

// Root bypasses permission checks: as root the CLI runs as `nobody` (setpriv), otherwise as ourselves.
const isRoot = process.getuid?.() === 0;
const user = isRoot ? 'nobody' : userInfo().username;
const prefix = isRoot ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'] : undefined;

describe('data dir resolution (one for every command)', () => {
  it('HEARTH_DATA_DIR, then the config file (relative to the file), then a default independent of cwd', () => {
    expect(resolveDataDir({ env: 'rel', cwd: '/a', file: { value: '/x', path: '/etc/h/c.toml' } })).toBe('/a/rel');
    expect(resolveDataDir({ file: { value: 'data', path: '/etc/h/config.toml' }, cwd: '/somewhere' })).toBe(
      '/etc/h/data',
    );
    expect(resolveDataDir({ file: { value: '/srv/h', path: 'c.toml' } })).toBe('/srv/h');
    expect(resolveDataDir({ installed: true, cwd: '/' })).toBe(INSTALLED_DATA_DIR);
    expect(existsSync(join(packageRoot(), 'package.json'))).toBe(true);
    // loadConfig applies it: a config file's relative data_dir does not follow the caller's cwd.
    const conf = join(tempDir(), 'etc');
    mkdirSync(conf);
    writeFileSync(join(conf, 'config.toml'), 'data_dir = "state"\n');
    expect(loadConfig({ env: { HEARTH_CONFIG: join(conf, 'config.toml') } }).config.data_dir).toBe(join(conf, 'state'));
    expect(loadConfig({ env: { HEARTH_DATA_DIR: '/srv/x' } }).config.data_dir).toBe('/srv/x');
  });

  // Issue #35 item 1: a release installed with npm lives in node_modules, which npm replaces on upgrade.
  it('the default is ./data in a source checkout only; an installed package defaults to the XDG data dir', () => {
    const checkout = tempDir();
    writeFileSync(join(checkout, 'tsconfig.json'), '{}');
    const at = (root: string, xdg = '', home = '/home/pi') =>
      resolveDataDir({ installed: false, cwd: '/', root, xdgDataHome: xdg, home });
    expect(at(checkout)).toBe(join(checkout, 'data')); // `npm start` in a checkout (SPEC §1)
    expect(at(packageRoot())).toBe(join(packageRoot(), 'data'));
    // The release (no tsconfig.json), in a folder's node_modules, globally, or unpacked: never inside it.
    expect(at('/home/pi/hub/node_modules/hearth')).toBe('/home/pi/.local/share/hearth');
    expect(at('/usr/lib/node_modules/hearth', '/srv/xdg')).toBe('/srv/xdg/hearth');
    expect(at('/opt/hearth', 'relative/ignored')).toBe('/home/pi/.local/share/hearth');
    // A checkout copied into node_modules is still an installed package.
    const nested = join(tempDir(), 'node_modules', 'hearth');
    mkdirSync(nested, { recursive: true });
    writeFileSync(join(nested, 'tsconfig.json'), '{}');
    expect(at(nested)).toBe('/home/pi/.local/share/hearth');
    // loadConfig takes XDG_DATA_HOME and HOME from the environment it is given.
    expect(resolveDataDir({ installed: false, root: '/opt/hearth', xdgDataHome: '/x', home: '/h' })).toBe('/x/hearth');
  });

  it('serve and mcp refuse a data dir inside node_modules (a link into it too) in one line with the fix', () => {
    const root = tempDir();
    const inside = join(root, 'node_modules', 'hearth', 'data');
    for (const cmd of ['serve', 'mcp']) {
      const line = dataDirProblem(cmd, inside);
      expect(line).toMatch(
        new RegExp(
          `^${cmd}: data dir ${inside} is inside node_modules, which npm deletes on every install or upgrade of the package; keep the database outside it: set HEARTH_DATA_DIR \\(or data_dir in the config file\\) to e\\.g\\. \\S+ \\(to keep this one: stop hearth, mv ${inside} \\S+\\)$`,
        ),
      );
    }
    mkdirSync(join(root, 'node_modules', 'hearth'), { recursive: true });
    symlinkSync(join(root, 'node_modules', 'hearth'), join(root, 'link'));
    expect(dataDirProblem('serve', join(root, 'link', 'data'))).toContain('is inside node_modules');
    expect(dataDirProblem('serve', join(root, 'state'))).toBeUndefined();
    // backup and export still reach it: the way to rescue a database kept there.
    mkdirSync(inside);
    expect(dataDirProblem('backup', inside)).toBeUndefined();
  });

  it('serve on a data dir inside node_modules exits with that line, creating nothing', async () => {
    const dir = join(tempDir(), 'node_modules', 'hearth', 'data');
    const r = await runCli(['serve'], cliEnv(dir));
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr), r.stderr).toBe(true);
    expect(r.stderr).toContain(`serve: data dir ${dir} is inside node_modules`);
    expect(existsSync(dir)).toBe(false);
  }, 90_000);

  it('doctor and mcp started from another cwd open the same database; mcp names it on stderr', async () => {
    const root = tempDir();
    const conf = join(root, 'etc');
    mkdirSync(conf);
    writeFileSync(join(conf, 'config.toml'), 'data_dir = "data"\n[mqtt]\nmode = "off"\n[ai]\nprovider = "local"\n');
    const env = { PATH: process.env.PATH ?? '', HEARTH_CONFIG: join(conf, 'config.toml') };
    const elsewhere = tempDir();
    mkdirSync(join(conf, 'data')); // only serve and mcp create a data dir
    const doc = await runCli(['doctor'], env, { cwd: elsewhere });
    expect(doc.code, doc.stdout + doc.stderr).toBe(0);
    expect(existsSync(join(conf, 'data', 'hearth.db'))).toBe(true);
    expect(existsSync(join(elsewhere, 'data'))).toBe(false);
    const mcp = spawn(process.execPath, [CLI, 'mcp'], { cwd: tempDir(), env, stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    mcp.stderr.on('data', (d) => (err += d));
    for (let i = 0; i < 200 && !err.includes('\n'); i++) await new Promise((r) => setTimeout(r, 50));
    mcp.stdin.end();
    await new Promise((r) => mcp.on('close', r));
    expect(err).toContain(
      `hearth mcp: database ${join(conf, 'data', 'hearth.db')} (config ${join(conf, 'config.toml')})`,
    );
  }, 90_000);

  it('mcp, serve and doctor fail with one line naming the path when data_dir is a file', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'file'), 'x');
    const env = cliEnv(join(root, 'file', 'data'));
    for (const cmd of ['mcp', 'serve', 'backup']) {
      const r = await runCli(cmd === 'backup' ? [cmd, join(root, 'b.db')] : [cmd], env);
      expect(r.code, `${cmd}: ${r.stderr}`).toBe(1);
      expect(oneLine(r.stderr), r.stderr).toBe(true);
      expect(r.stderr).toContain(`${join(root, 'file')} is not a directory`);
    }
  }, 90_000);

  it("leaves an existing data dir's mode alone (1777 stays 1777); a dir it creates is 0700", async () => {
    const root = tempDir();
    const shared = join(root, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    expect((await runCli(['doctor'], cliEnv(shared))).code).toBe(0);
    expect(statSync(shared).mode & 0o7777).toBe(0o1777);
    expect(statSync(join(shared, 'hearth.db')).mode & 0o777).toBe(0o600);
    await runCli(['mcp'], cliEnv(join(root, 'new'))); // stdin closed: mcp opens the database and ends
    expect(statSync(join(root, 'new')).mode & 0o777).toBe(0o700);
  }, 90_000);

  it('a foreign-owned data dir or an unreadable database: one line naming the path and the chown fix', async () => {
    const root = tempDir();
    chmodSync(root, 0o755);
    const foreign = join(root, 'foreign');
    mkdirSync(foreign, { mode: 0o755 }); // as root: owned by root, not writable by nobody
    if (!isRoot) chmodSync(foreign, 0o555);
    for (const cmd of ['serve', 'mcp', 'doctor']) {
      const r = await runCli([cmd], cliEnv(foreign), { prefix, cwd: root });
      expect(r.code, `${cmd}: ${r.stdout}${r.stderr}`).toBe(1);
      const text = cmd === 'doctor' ? r.stdout : r.stderr;
      // Both streams in the message: once on Node 22 under load `doctor` exited 1 with nothing on stdout.
      expect(text, `${cmd}: stdout ${JSON.stringify(r.stdout)} stderr ${JSON.stringify(r.stderr)}`).toContain(
        `cannot write ${foreign}: permission denied for ${user}; give it to that user (\`sudo chown -R ${user} ${foreign}\`)`,
      );
      if (cmd !== 'doctor') expect(oneLine(r.stderr), r.stderr).toBe(true);
    }
    // A dir nobody owns holding a database it cannot read.
    const own = join(root, 'own');
    mkdirSync(own);
    expect((await runCli(['doctor'], cliEnv(own))).code).toBe(0); // we create the database (0600)
    if (isRoot) spawnSync('chown', ['nobody:nogroup', own]);
    else chmodSync(join(own, 'hearth.db'), 0);
    const r = await runCli(['serve'], cliEnv(own), { prefix, cwd: root });
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr), r.stderr).toBe(true);
    expect(r.stderr).toContain(
      `cannot open ${join(own, 'hearth.db')}: permission denied for ${user}; give it to that user (\`sudo chown -R ${user} ${join(own, 'hearth.db')}\`)`,
    );
  }, 90_000);

  it('a data dir that cannot be created: one line naming it, its parent, and a fix that creates it', async () => {
    const root = tempDir();
    chmodSync(root, 0o755);
    const parent = join(root, 'hz-ro');
    mkdirSync(parent, { mode: isRoot ? 0o755 : 0o555 }); // as root: owned by root, not writable by nobody
    const dir = join(parent, 'sub');
    const line = `cannot create ${dir}: permission denied for ${user} in ${parent}; create it for that user (\`sudo install -d -o ${user} -m 700 ${dir}\`) or set data_dir (or HEARTH_DATA_DIR) to a directory it owns`;
    for (const cmd of ['serve', 'mcp']) {
      const r = await runCli([cmd], cliEnv(dir), { prefix, cwd: root });
      expect(r.code, `${cmd}: ${r.stdout}${r.stderr}`).toBe(1);
      expect(r.stderr).toContain(line);
      expect(r.stderr).not.toContain(`chown -R ${user} ${dir}`); // a directory that does not exist
      expect(oneLine(r.stderr), r.stderr).toBe(true);
    }
    // Any other command does not create it: a missing data dir is refused as such.
    expect((await runCli(['doctor'], cliEnv(dir), { prefix, cwd: root })).stderr).toContain(
      `data dir ${dir} does not exist`,
    );
    expect(existsSync(dir)).toBe(false);
    // The same from the function, several levels down (no process needed, as any user).
    const deep = join(parent, 'a', 'b');
    const e = explainOpenError(
      Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }),
      deep,
      join(deep, 'hearth.db'),
    );
    expect(e?.message).toMatch(
      new RegExp(
        `^cannot create ${deep}: permission denied for \\S+ in ${parent}; create it for that user \\(\`sudo install -d -o \\S+ -m 700 ${deep}\`\\)`,
      ),
    );
  }, 90_000);

  it('doctor checks free space on the data dir', async () => {
    expect(diskCheck(10 * 2 ** 30, 2 ** 20, '/d')).toMatchObject({ name: 'disk', ok: true });
    const low = diskCheck(32 * 2 ** 20, 100 * 2 ** 20, '/d');
    expect(low.ok).toBe(false);
    expect(low.detail).toMatch(/32 MiB free on \/d \(database 100 MiB\); needs at least 164 MiB .*free some space/);
    const dir = join(tempDir(), 'data');
    mkdirSync(dir);
    const r = await runCli(['doctor'], cliEnv(dir));
    expect(r.stdout).toMatch(new RegExp(`ok {3}disk {10}\\d+ MiB free on ${dir} \\(database`));
  }, 90_000);
});
