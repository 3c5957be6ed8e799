/**
 * Issue #35 items 1 and 14, on the real release tarball (scripts/release.mjs) and the real npm:
 * - the documented install (the release unpacked as its own project, `npm ci --omit=dev`) gets
 *   exactly the versions of npm-shrinkwrap.json, with no engine warning, and every pinned production
 *   package accepts Node 20, 22 and 24;
 * - `npm install ./hearth-<new>.tgz` over a folder install (the 0.1.0 way) keeps every row: the
 *   data lives in the XDG data dir, not in node_modules/hearth, which npm replaces.
 * npm reads the cache first (--prefer-offline) and asks the registry only for what it lacks.
 * Install scripts are skipped and the checkout's compiled better-sqlite3 addon (same version,
 * pinned) is copied in: compiling it takes minutes on a small machine and is not under test here.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir as keptDir } from '../helpers/hub.js';
import { freePort } from '../helpers/ports.js';

const run = promisify(execFile);
const repo = process.cwd();
type Lock = { packages: Record<string, { version?: string; dev?: boolean; optional?: boolean; engines?: unknown }> };
const lock: Lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8'));
const sqliteVersion = lock.packages['node_modules/better-sqlite3'].version!;
const addon = join(repo, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
// Without the npm_* variables `npx vitest` sets: npm_config_local_prefix would point npm at this checkout.
const npmEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
  ONNXRUNTIME_NODE_INSTALL: 'skip',
  npm_config_update_notifier: 'false',
};
const npmFlags = ['--omit=dev', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'];

let tgz: Record<'old' | 'new', string>;

// Each install is ~230 MB: removed at the end, not left in the temp dir.
const made: string[] = [];
const tempDir = (prefix: string) => (made.push(keptDir(prefix)), made[made.length - 1]);
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
}, 300_000); // about 1 GB of node_modules on a busy disk

/**
 * The checkout as it is, without its build, in a folder of its own (node_modules linked): the release's
 * `npm pack` builds dist/ there, not here, where the other e2e files run dist/ at the same time (tsc
 * rewriting it under them failed a Node 22 CI run: "does not provide an export named …").
 */
function privateCheckout(): string {
  const copy = join(tempDir('hearth-rel-src-'), 'hearth');
  const skip = new Set(['node_modules', 'dist', '.git', 'test-artifacts', '__pycache__']);
  cpSync(repo, copy, { recursive: true, filter: (src) => !skip.has(basename(src)) });
  symlinkSync(join(repo, 'node_modules'), join(copy, 'node_modules'));
  return copy;
}

beforeAll(async () => {
  const out = tempDir('hearth-rel-');
  const src = privateCheckout();
  const { stdout } = await run(process.execPath, [join(src, 'scripts/release.mjs'), '--out', out], {
    cwd: src,
    maxBuffer: 16 << 20,
  });
  const old = stdout.trim().split('\n').pop()!;
  // The next release: the same files under a higher version.
  const work = tempDir('hearth-rel-next-');
  await run('tar', ['xzf', old, '-C', work]);
  const pkg = JSON.parse(readFileSync(join(work, 'package/package.json'), 'utf8'));
  pkg.version = semver.inc(pkg.version, 'patch');
  writeFileSync(join(work, 'package/package.json'), JSON.stringify(pkg, null, 2));
  const next = join(out, `hearth-${pkg.version}.tgz`);
  await run('tar', ['czf', next, '-C', work, 'package']);
  tgz = { old, new: next };
}, 180_000);

function fitAddon(modules: string) {
  const sqlite = join(modules, 'better-sqlite3');
  expect(JSON.parse(readFileSync(join(sqlite, 'package.json'), 'utf8')).version).toBe(sqliteVersion);
  mkdirSync(join(sqlite, 'build/Release'), { recursive: true });
  copyFileSync(addon, join(sqlite, 'build/Release/better_sqlite3.node'));
}

/** npm as this machine has it (not node_modules/.bin's), and npm 10, which Node 20 and 22 ship. */
const systemPath = (process.env.PATH ?? '')
  .split(':')
  .filter((d) => !d.includes('node_modules'))
  .join(':');
const NPMS: [string, string, string[]][] = [
  ["this machine's npm", 'npm', []],
  ['npm 10 (what Node 20 and 22 ship)', process.execPath, [join(repo, 'node_modules/npm/bin/npm-cli.js')]],
];

describe('the release as its own project: npm ci --omit=dev (the documented command)', () => {
  it('ships a production-only lock: package.json without devDependencies, no dev package pinned', async () => {
    const dir = tempDir('hearth-pkg-');
    await run('tar', ['xzf', tgz.old, '-C', dir, '--strip-components=1']);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const shrink: Lock = JSON.parse(readFileSync(join(dir, 'npm-shrinkwrap.json'), 'utf8'));
    expect(pkg.devDependencies).toBeUndefined();
    expect(Object.entries(shrink.packages).filter(([, p]) => p.dev)).toEqual([]);
    const prod = Object.entries(lock.packages).filter(([where, p]) => where && !p.dev);
    expect(Object.keys(shrink.packages).filter(Boolean).sort()).toEqual(prod.map(([where]) => where).sort());
    for (const [where, p] of prod) expect(shrink.packages[where].version, where).toBe(p.version);
  });

  it.each(NPMS)(
    '%s installs exactly the pinned versions, no dev package, no engine warning',
    async (_label, cmd, pre) => {
      const app = tempDir('hearth-app-');
      await run('tar', ['xzf', tgz.old, '-C', app, '--strip-components=1']);
      const version = (await run(cmd, [...pre, '--version'], { env: { ...npmEnv, PATH: systemPath } })).stdout.trim();
      const r = await run(cmd, [...pre, 'ci', ...npmFlags], {
        cwd: app,
        env: { ...npmEnv, PATH: systemPath },
        maxBuffer: 16 << 20,
      });
      expect(`${r.stdout}${r.stderr}`, `npm ${version}`).not.toMatch(/EBADENGINE|Unsupported engine/);
      const differ: string[] = [];
      for (const [where, p] of Object.entries(lock.packages)) {
        if (!where) continue;
        const file = join(app, where, 'package.json');
        if (p.dev) {
          if (existsSync(file)) differ.push(`${where}: a dev package, installed`);
          continue;
        }
        if (!existsSync(file)) {
          if (!p.optional) differ.push(`${where}: missing`);
          continue;
        }
        const got = JSON.parse(readFileSync(file, 'utf8')).version;
        if (got !== p.version) differ.push(`${where}: ${got}, pinned ${p.version}`);
      }
      expect(differ, `npm ${version}`).toEqual([]);
    },
    600_000,
  );

  it('every pinned production package accepts Node 20, 22 and 24 (the engines package.json promises)', () => {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
    expect(pkg.engines.node).toBe('20 || 22 || 24');
    const refused: string[] = [];
    for (const [where, p] of Object.entries(lock.packages)) {
      const range = (p.engines as { node?: string } | undefined)?.node;
      if (!where || p.dev || !range) continue;
      for (const node of ['20.0.0', '22.0.0', '24.0.0'])
        if (!semver.satisfies(node, range)) refused.push(`${where}@${p.version} needs node ${range}`);
    }
    expect(refused).toEqual([]);
  });
});

async function serve(app: string, home: string): Promise<{ child: ChildProcess; http: string; out: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(app, 'node_modules/hearth/dist/src/cli.js'), 'serve'], {
    cwd: app,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      HEARTH_HTTP_PORT: String(port),
      HEARTH_MQTT_MODE: 'off',
      MEMORY_AI_PROVIDER: 'local',
      HEARTH_TZ: 'UTC',
      HEARTH_LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const http = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 1200 && !out.includes('hearth serving'); i++) {
    if (child.exitCode !== null) throw new Error(`hearth serve exited: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, http, out: () => out };
}

const post = (http: string, path: string, body: unknown) =>
  fetch(`${http}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function rows(http: string) {
  const health = (await (await fetch(`${http}/health`)).json()) as { counts: { memories: number; entities: number } };
  const stream = (await (
    await post(http, '/query_stream', { entity_name: 'bedroom', metric: 'temperature', limit: 10_000 })
  ).json()) as { points: unknown[] };
  return { ...health.counts, readings: stream.points.length };
}

const stop = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });

describe('npm install ./hearth-<new>.tgz over a folder install (issue #35 item 1)', () => {
  it('keeps every row: the database is in ~/.local/share/hearth, not in node_modules/hearth', async () => {
    const app = tempDir('hearth-folder-');
    const home = tempDir('hearth-home-');
    // better-sqlite3 pinned beside it so the checkout's compiled addon fits (see the header).
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'pi-home', private: true, dependencies: { 'better-sqlite3': sqliteVersion } }),
    );
    await run('npm', ['install', ...npmFlags, tgz.old], { cwd: app, env: npmEnv, maxBuffer: 16 << 20 });
    fitAddon(join(app, 'node_modules'));
    const first = await serve(app, home);
    const data = join(home, '.local/share/hearth');
    expect(first.out()).toContain(`data ${data};`);
    for (const name of ['Brian', 'Anna', 'Chidi'])
      expect(
        (await post(first.http, '/remember', { entity_name: name, fact: `${name} likes tea in the morning` })).status,
      ).toBe(200);
    const readings = Array.from({ length: 50 }, (_, i) => ({
      entity_name: 'bedroom',
      metric: 'temperature',
      value: 20 + i / 10,
      ts: Math.floor(Date.now() / 1000) - 3600 + i * 60,
    }));
    const bulk = await post(first.http, '/record/bulk', { readings });
    expect(bulk.status).toBe(200);
    expect(await bulk.json()).toMatchObject({ inserted: 50 });
    const before = await rows(first.http);
    expect(before).toMatchObject({ memories: 3, readings: 50 });
    expect(await stop(first.child)).toBe(0);
    expect(existsSync(join(app, 'node_modules/hearth/data'))).toBe(false);

    await run('npm', ['install', ...npmFlags, tgz.new], { cwd: app, env: npmEnv, maxBuffer: 16 << 20 });
    const installed = JSON.parse(readFileSync(join(app, 'node_modules/hearth/package.json'), 'utf8')).version;
    expect(installed).toBe(semver.inc(JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version, 'patch'));
    if (!existsSync(join(app, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')))
      fitAddon(join(app, 'node_modules'));
    const second = await serve(app, home);
    expect(await rows(second.http)).toEqual(before);
    expect(await stop(second.child)).toBe(0);
  }, 900_000);
});
