/**
 * deploy/ is code: install.sh into a temp root, file by file; a second run changes nothing; the units
 * pass `systemd-analyze verify` and carry their hardening; the nightly backup script rotates.
 */
import { execFile, spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { made } from '../helpers/cli.js';
import { tempDir } from '../helpers/hub.js';

const run = promisify(execFile);
const repo = process.cwd();
/**
 * The checkout install.sh installs from by default (the one its own deploy/ sits in): a copy in a temp
 * dir, so no assertion depends on where this clone sits (one in /home is refused, one in /tmp warns, one
 * at a path with spaces writes units systemd cannot read). Its dist/ is this clone's build, linked.
 */
let app = '';
beforeAll(() => {
  app = realpathSync(tempDir('hearth-app-'));
  cpSync(join(repo, 'deploy'), join(app, 'deploy'), { recursive: true });
  cpSync(join(repo, 'config.example.toml'), join(app, 'config.example.toml'));
  symlinkSync(join(repo, 'dist'), join(app, 'dist'));
});
const install = (...args: string[]) => run('sh', [join(app, 'deploy/install.sh'), ...args]);
const node = spawnSync('sh', ['-c', 'readlink -f "$(command -v node)"'], { encoding: 'utf8' }).stdout.trim();

/** Every file and directory under root: path → mode, size, mtime, content. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      const s = statSync(p);
      const key = `/${relative(root, p)}`;
      if (s.isDirectory()) {
        out[`${key}/`] = `${(s.mode & 0o777).toString(8)} ${s.mtimeMs}`;
        walk(p);
      } else out[key] = `${(s.mode & 0o777).toString(8)} ${s.mtimeMs} ${readFileSync(p, 'utf8')}`;
    }
  };
  walk(root);
  return out;
}
const lines = (s: string) =>
  s.split('\n').filter((l) => /^(would )?(create|update|ok|keep|skip|enable|run|unpack) /.test(l));
const unit = (root: string, name: string) => readFileSync(join(root, 'etc/systemd/system', name), 'utf8');
const directives = (text: string) =>
  new Map(
    text
      .split('\n')
      .filter((l) => /^[A-Za-z]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as [string, string]),
  );

describe('deploy/install.sh --prefix', () => {
  it('installs the config, data dir, command and units, each with its mode; a second run changes nothing', async () => {
    const root = tempDir('hearth-root-');
    const first = await install('--prefix', root);
    // Every path printed is the one written, the prefix included: nothing looks like it touches the real system.
    expect(lines(first.stdout)).toEqual([
      'skip user hearth (--prefix)',
      `create ${root}/etc/hearth/`,
      `create ${root}/var/lib/hearth/`,
      `create ${root}/etc/hearth/config.toml`,
      `create ${root}/usr/local/bin/hearth`,
      `create ${root}/etc/systemd/system/hearth.service`,
      `create ${root}/etc/systemd/system/hearth-backup.service`,
      `create ${root}/etc/systemd/system/hearth-backup.timer`,
      'skip systemctl (--prefix)',
    ]);
    expect(first.stdout).toContain('sudo systemctl start hearth');

    const files = snapshot(root);
    expect(
      Object.keys(files)
        .filter((k) => !k.endsWith('/'))
        .sort(),
    ).toEqual([
      '/etc/hearth/config.toml',
      '/etc/systemd/system/hearth-backup.service',
      '/etc/systemd/system/hearth-backup.timer',
      '/etc/systemd/system/hearth.service',
      '/usr/local/bin/hearth',
    ]);
    expect(files['/etc/hearth/']).toMatch(/^750 /);
    expect(files['/var/lib/hearth/']).toMatch(/^750 /);
    expect(files['/etc/hearth/config.toml']).toMatch(/^640 /);
    expect(files['/usr/local/bin/hearth']).toMatch(/^755 /);
    expect(files['/etc/systemd/system/hearth.service']).toMatch(/^644 /);

    const config = readFileSync(join(root, 'etc/hearth/config.toml'), 'utf8');
    expect(config).toContain('data_dir = "/var/lib/hearth"');
    expect(config).toMatch(/^token = "[0-9a-f]{48}"/m);
    // The config it writes is one Hearth accepts.
    const check = await run(
      process.execPath,
      [
        '-e',
        `import('${repo}/dist/src/config/load.js').then(m => { const c = m.loadConfig({ configPath: '${join(root, 'etc/hearth/config.toml')}' }).config; console.log(c.data_dir, c.http.host, c.http.token.length) })`,
      ],
      { env: { PATH: process.env.PATH } },
    );
    expect(check.stdout.trim()).toBe('/var/lib/hearth 127.0.0.1 48');

    expect(readFileSync(join(root, 'usr/local/bin/hearth'), 'utf8')).toBe(
      `#!/bin/sh\nexec ${node} ${app}/dist/src/cli.js "$@"\n`,
    );

    const service = directives(unit(root, 'hearth.service'));
    expect(service.get('ExecStart')).toBe(`${node} --max-old-space-size=256 ${app}/dist/src/cli.js serve`);
    expect(
      Object.fromEntries(
        [
          'User',
          'Type',
          'NotifyAccess',
          'ProtectSystem',
          'ReadWritePaths',
          'PrivateTmp',
          'NoNewPrivileges',
          'Restart',
          'ProtectHome',
        ].map((k) => [k, service.get(k)]),
      ),
    ).toEqual({
      User: 'hearth',
      Type: 'notify',
      NotifyAccess: 'all',
      ProtectSystem: 'strict',
      ReadWritePaths: '/var/lib/hearth',
      PrivateTmp: 'true',
      NoNewPrivileges: 'true',
      Restart: 'on-failure',
      ProtectHome: 'true',
    });
    expect(service.get('MemoryMax')).toMatch(/^\d+M$/);
    expect(Number(service.get('WatchdogSec'))).toBeGreaterThan(0);
    const backup = directives(unit(root, 'hearth-backup.service'));
    expect(backup.get('ExecStart')).toBe(`${app}/deploy/backup.sh`);
    expect(backup.get('User')).toBe('hearth');
    expect(directives(unit(root, 'hearth-backup.timer')).get('Persistent')).toBe('true');

    // Second run: every step says so, and no file's content, mode or mtime moved.
    const second = await install('--prefix', root);
    expect(lines(second.stdout)).toEqual([
      'skip user hearth (--prefix)',
      `ok ${root}/etc/hearth/`,
      `ok ${root}/var/lib/hearth/`,
      `keep ${root}/etc/hearth/config.toml`,
      `ok ${root}/usr/local/bin/hearth`,
      `ok ${root}/etc/systemd/system/hearth.service`,
      `ok ${root}/etc/systemd/system/hearth-backup.service`,
      `ok ${root}/etc/systemd/system/hearth-backup.timer`,
      'skip systemctl (--prefix)',
    ]);
    expect(snapshot(root)).toEqual(files);

    // An edited config is kept; an edited unit is put back.
    writeFileSync(join(root, 'etc/hearth/config.toml'), 'data_dir = "/srv/hearth"\n');
    writeFileSync(join(root, 'etc/systemd/system/hearth.service'), '[Service]\n');
    const third = await install('--prefix', root);
    expect(lines(third.stdout)).toContain(`keep ${root}/etc/hearth/config.toml`);
    expect(lines(third.stdout)).toContain(`update ${root}/etc/systemd/system/hearth.service`);
    expect(readFileSync(join(root, 'etc/hearth/config.toml'), 'utf8')).toBe('data_dir = "/srv/hearth"\n');
    expect(unit(root, 'hearth.service')).toBe(readFileSync(join(root, 'etc/systemd/system/hearth.service'), 'utf8'));
    expect(directives(unit(root, 'hearth.service')).get('ProtectSystem')).toBe('strict');
  });

  it('--dry-run says what it would do and writes nothing', async () => {
    const root = tempDir('hearth-root-');
    const { stdout } = await install('--prefix', root, '--dry-run');
    expect(lines(stdout)).toContain(`would create ${root}/etc/hearth/config.toml`);
    expect(lines(stdout)).toContain(`would create ${root}/etc/systemd/system/hearth.service`);
    expect(lines(stdout).filter((l) => l.startsWith('would ') && !l.startsWith(`would create ${root}/`))).toEqual([]);
    expect(readdirSync(root)).toEqual([]);
  });

  it('--help prints the header comment and nothing of the script', async () => {
    const { stdout } = await install('--help');
    expect(stdout).toMatch(/^Installs Hearth as a systemd service/);
    expect(stdout).toContain('--release FILE');
    expect(stdout).toContain('--user NAME');
    expect(stdout).not.toMatch(/set -eu|^#|\bprefix=""/m);
  });

  it("keeps the units' comments as written and names this app dir's config.example.toml in the config", async () => {
    const root = tempDir('hearth-root-');
    await install('--prefix', root);
    const comments = (t: string) => t.split('\n').filter((l) => l.startsWith('#'));
    for (const u of ['hearth.service', 'hearth-backup.service'])
      expect(comments(unit(root, u))).toEqual(comments(readFileSync(join(repo, 'deploy', u), 'utf8')));
    expect(directives(unit(root, 'hearth.service')).get('Documentation')).toBe(`file:${app}/docs/deploy-pi.md`);
    const config = readFileSync(join(root, 'etc/hearth/config.toml'), 'utf8');
    expect(config).toContain(`# Every key and its default: ${app}/config.example.toml.`);
    expect(config).not.toContain('/opt/hearth');
  });

  it('warns when the code is where the unit cannot see it (/tmp: PrivateTmp=true)', async () => {
    const tmp = tempDir('hearth-app-');
    expect(tmp.startsWith('/tmp/')).toBe(true);
    mkdirSync(join(tmp, 'dist/src'), { recursive: true });
    writeFileSync(join(tmp, 'dist/src/cli.js'), '');
    cpSync(join(repo, 'deploy'), join(tmp, 'deploy'), { recursive: true });
    const { stderr } = await install('--prefix', tempDir('hearth-root-'), '--app-dir', tmp, '--dry-run');
    expect(stderr).toContain(
      `warning: ${tmp} is in /tmp, /var/tmp or /dev/shm, which the service cannot see (PrivateTmp=true, PrivateDevices=true): it would not start; put the code in /opt/hearth`,
    );
    // The same code by a path outside /tmp (this process's root seen through /proc), wherever the clone sits.
    const visible = `/proc/${process.pid}/root${tmp}`;
    const fine = await install('--prefix', tempDir('hearth-root-'), '--app-dir', visible, '--dry-run');
    expect(fine.stderr).not.toContain('warning:');
  });

  it('refuses, in one line with the fix, a checkout the service could not see or that is not built', async () => {
    const home = await install('--prefix', tempDir(), '--app-dir', '/home/pi/hearth').catch((e) => e);
    expect(home.code).toBe(1);
    expect(home.stderr.trim()).toBe(
      'install.sh: /home/pi/hearth is in a home directory, which the service cannot see (ProtectHome=true); clone to /opt/hearth instead',
    );
    const unbuilt = tempDir('hearth-app-');
    const e = await install('--prefix', tempDir(), '--app-dir', unbuilt).catch((x) => x);
    expect(e.code).toBe(1);
    expect(e.stderr.trim().split('\n').pop()).toBe(
      `install.sh: ${unbuilt}/dist/src/cli.js is missing; run 'npm ci' in ${unbuilt} first (it builds), then re-run`,
    );
  });

  it('the installed units pass systemd-analyze verify', async () => {
    const root = tempDir('hearth-root-');
    await install('--prefix', root);
    const units = ['hearth.service', 'hearth-backup.service', 'hearth-backup.timer'].map((u) =>
      join(root, 'etc/systemd/system', u),
    );
    if (spawnSync('sh', ['-c', 'command -v systemd-analyze'], { stdio: 'ignore' }).status !== 0) {
      process.stdout.write('systemd-analyze not on PATH (apt-get install systemd): units checked statically only\n');
      for (const u of units) {
        const text = readFileSync(u, 'utf8');
        expect(text).toMatch(/^\[Unit\]$/m);
        for (const line of text.split('\n').filter((l) => l && !l.startsWith('#') && !l.startsWith('[')))
          expect(line).toMatch(/^[A-Z][A-Za-z]+=/);
      }
      return;
    }
    const { stdout, stderr } = await run('systemd-analyze', ['verify', ...units]);
    expect(`${stdout}${stderr}`.trim()).toBe('');
  });
});

describe('deploy/install.sh --release', () => {
  /** A release as scripts/release.mjs lays it out (package/…), with a stand-in build: only install.sh's inputs matter here. */
  function tarball(withDist = true): string {
    const dir = tempDir('hearth-rel-');
    const pkg = join(dir, 'package');
    cpSync(join(repo, 'deploy'), join(pkg, 'deploy'), { recursive: true });
    cpSync(join(repo, 'config.example.toml'), join(pkg, 'config.example.toml'));
    writeFileSync(join(pkg, 'package.json'), '{"name":"hearth","version":"0.1.0"}');
    if (withDist) {
      mkdirSync(join(pkg, 'dist/src'), { recursive: true });
      writeFileSync(join(pkg, 'dist/src/cli.js'), '');
    }
    spawnSync('tar', ['-czf', join(dir, 'hearth-0.1.0.tgz'), '-C', dir, 'package']);
    return join(dir, 'hearth-0.1.0.tgz');
  }

  it('--dry-run: would unpack into /opt/hearth and npm install --omit=dev there, then set up as from a checkout; writes nothing', async () => {
    const root = tempDir('hearth-root-');
    const { stdout, stderr } = await install('--release', tarball(), '--prefix', root, '--dry-run');
    expect(stderr).not.toContain('warning:');
    expect(lines(stdout)).toEqual([
      `would unpack hearth-0.1.0.tgz into ${root}/opt/hearth`,
      `would run npm install --omit=dev in ${root}/opt/hearth`,
      'skip user hearth (--prefix)',
      `would create ${root}/etc/hearth/`,
      `would create ${root}/var/lib/hearth/`,
      `would create ${root}/etc/hearth/config.toml`,
      `would create ${root}/usr/local/bin/hearth`,
      `would create ${root}/etc/systemd/system/hearth.service`,
      `would create ${root}/etc/systemd/system/hearth-backup.service`,
      `would create ${root}/etc/systemd/system/hearth-backup.timer`,
      'skip systemctl (--prefix)',
    ]);
    expect(readdirSync(root)).toEqual([]);
  });

  it('installs: the code in the app dir, units and command pointing there; the same file again changes nothing', async () => {
    const root = tempDir('hearth-root-');
    const file = tarball();
    // HEARTH_NPM: the npm step itself is measured in docs/deploy-pi.md (it needs the registry).
    const env = { PATH: process.env.PATH, HEARTH_NPM: 'true' };
    const first = await run('sh', [join(repo, 'deploy/install.sh'), '--release', file, '--prefix', root], { env });
    expect(lines(first.stdout).slice(0, 2)).toEqual([
      `unpack hearth-0.1.0.tgz into ${root}/opt/hearth`,
      `run npm install --omit=dev in ${root}/opt/hearth`,
    ]);
    expect(statSync(join(root, 'opt/hearth/dist/src/cli.js')).isFile()).toBe(true);
    expect(directives(unit(root, 'hearth.service')).get('ExecStart')).toBe(
      `${node} --max-old-space-size=256 /opt/hearth/dist/src/cli.js serve`,
    );
    expect(readFileSync(join(root, 'usr/local/bin/hearth'), 'utf8')).toBe(
      `#!/bin/sh\nexec ${node} /opt/hearth/dist/src/cli.js "$@"\n`,
    );
    expect(readFileSync(join(root, 'etc/hearth/config.toml'), 'utf8')).toContain(
      '# Every key and its default: /opt/hearth/config.example.toml.',
    );
    const second = await run('sh', [join(repo, 'deploy/install.sh'), '--release', file, '--prefix', root], { env });
    expect(lines(second.stdout)[0]).toBe(`ok ${root}/opt/hearth (hearth-0.1.0.tgz is installed)`);
    expect(lines(second.stdout).filter((l) => /^(create|update|run|unpack) /.test(l))).toEqual([]);
  });

  it('refuses a tarball that is not a built release, in one line', async () => {
    const e = await install('--release', tarball(false), '--prefix', tempDir(), '--dry-run').catch((x) => x);
    expect(e.code).toBe(1);
    expect(e.stderr.trim()).toMatch(
      /^install\.sh: \/.*hearth-0\.1\.0\.tgz is not a Hearth release \(no package\/dist\/src\/cli\.js\); make one with: node scripts\/release\.mjs$/,
    );
  });
});

describe('deploy/backup.sh', () => {
  it('writes a consistent backup each run and keeps only the newest HEARTH_BACKUP_KEEP', async () => {
    const dir = tempDir('hearth-backup-');
    const env = {
      PATH: process.env.PATH,
      HEARTH_NODE: process.execPath,
      HEARTH_DATA_DIR: made(join(dir, 'data')),
      HEARTH_BACKUP_DIR: join(dir, 'backups'),
      HEARTH_BACKUP_KEEP: '2',
      MEMORY_AI_PROVIDER: 'local',
    };
    const outs: string[] = [];
    for (let i = 0; i < 3; i++)
      outs.push((await run('sh', [join(repo, 'deploy/backup.sh')], { env })).stdout.trim().split('\n').pop()!);
    const kept = readdirSync(join(dir, 'backups')).sort();
    expect(kept).toHaveLength(2);
    expect(kept.every((f) => /^hearth-\d{8}T\d{15}Z\.db$/.test(f))).toBe(true);
    // The two newest survive: the last two runs' files.
    expect(kept.map((f) => join(dir, 'backups', f))).toEqual(
      outs.slice(1).map((o) => o.match(/^backup: (\S+) \(/)![1]),
    );
    expect(outs[2]).toMatch(/\(2 kept in /);
    for (const f of kept) {
      const db = new Database(join(dir, 'backups', f), { readonly: true });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('user_version', { simple: true })).toBeGreaterThan(0);
      db.close();
    }
    const bad = await run('sh', [join(repo, 'deploy/backup.sh')], { env: { ...env, HEARTH_BACKUP_KEEP: '0' } }).catch(
      (e) => e,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/HEARTH_BACKUP_KEEP must be a whole number/);
  });
});
