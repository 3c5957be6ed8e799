/**
 * The release: what `npm pack` (and scripts/release.mjs) carries, that the packed package's install
 * hooks need no TypeScript, and that the postinstall prune keeps only this platform's binaries.
 * The measured install (size, time) is in docs/deploy-pi.md; it needs the registry, so it is not here.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/hub.js';

const run = promisify(execFile);
const repo = process.cwd();

describe('npm pack', () => {
  it('carries the built dist/, assets, deploy/ and docs; no tests, no TypeScript sources, no source maps', async () => {
    // --ignore-scripts: list what is there (the suite builds dist/ first) without rebuilding.
    const built = statSync(join(repo, 'dist/src/cli.js')).mtimeMs;
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: repo,
      maxBuffer: 16 << 20,
    });
    // Listing rebuilds nothing: the other e2e files run dist/ meanwhile (npm 10, first on the PATH here,
    // runs `prepare` even with --ignore-scripts; scripts/prepare.mjs honours the flag itself).
    expect(statSync(join(repo, 'dist/src/cli.js')).mtimeMs).toBe(built);
    const files: string[] = JSON.parse(stdout)[0].files.map((f: { path: string }) => f.path);
    for (const f of [
      'dist/src/cli.js',
      'dist/src/ai/use-lite-worker.cjs',
      'dist/src/ai/use-lite-onnx.cjs',
      'dist/src/ai/use-lite-onnx-graph.cjs',
      'dist/src/ai/use-lite-tokenizer.cjs',
      'dist/integrations/ha-state-poller/bin.js',
      'dist/detectors/index.js',
      'assets/word-vectors-en.bin',
      'assets/admin/admin.css',
      'deploy/install.sh',
      'deploy/hearth.service',
      'deploy/config.toml',
      'config.example.toml',
      'docs/deploy-pi.md',
      'integrations/homeassistant/packages/hearth.yaml',
      'scripts/prepare.mjs',
      'scripts/prune-platform.mjs',
      'package.json',
      'README.md',
    ]) {
      expect(files).toContain(f);
    }
    expect(
      files.filter(
        (f) =>
          f.startsWith('test/') || f.startsWith('src/') || f.startsWith('dist/test/') || f.startsWith('dist/scripts/'),
      ),
    ).toEqual([]);
    expect(files.filter((f) => /\.(ts|map)$/.test(f))).toEqual([]);
    expect(files).not.toContain('tsconfig.json');
    expect(files).not.toContain('package-lock.json');
  }, 120_000);

  it('installs without TypeScript: prepare is a no-op outside a checkout, and no hook calls tsc', async () => {
    const pkg = JSON.parse(
      (await run('node', ['-p', 'JSON.stringify(require("./package.json"))'], { cwd: repo })).stdout,
    );
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(pkg.scripts[hook] ?? '').not.toMatch(/\btsc\b/);
    // The packed package: package.json and scripts/, no tsconfig.json, no typescript.
    const dir = tempDir('hearth-release-');
    mkdirSync(join(dir, 'scripts'));
    copyFileSync(join(repo, 'scripts/prepare.mjs'), join(dir, 'scripts/prepare.mjs'));
    writeFileSync(join(dir, 'package.json'), '{"name":"hearth","type":"module"}');
    const r = await run(process.execPath, [join(dir, 'scripts/prepare.mjs')], { cwd: dir });
    expect(`${r.stdout}${r.stderr}`).toBe('');
    expect(existsSync(join(dir, 'dist'))).toBe(false);
  });
});

describe('scripts/prune-platform.mjs (postinstall)', () => {
  /** A node_modules laid out as npm hoists it, with every platform's binaries. */
  function layout() {
    const root = tempDir('hearth-prune-');
    const app = join(root, 'node_modules/hearth');
    mkdirSync(join(app, 'scripts'), { recursive: true });
    copyFileSync(join(repo, 'scripts/prune-platform.mjs'), join(app, 'scripts/prune-platform.mjs'));
    const ort = join(root, 'node_modules/onnxruntime-node');
    writeFileSync(join(mkdirp(ort), 'package.json'), '{}');
    for (const p of ['linux/x64', 'linux/arm64', 'darwin/arm64', 'win32/x64'])
      writeFileSync(join(mkdirp(join(ort, 'bin/napi-v6', p)), 'onnxruntime_binding.node'), 'x'.repeat(1000));
    const sodium = join(root, 'node_modules/sodium-native');
    writeFileSync(join(mkdirp(sodium), 'package.json'), '{}');
    for (const p of ['linux-x64', 'linux-arm64', 'darwin-arm64', 'android-arm'])
      writeFileSync(join(mkdirp(join(sodium, 'prebuilds', p)), 'sodium-native.node'), 'x');
    const sqlite = join(root, 'node_modules/better-sqlite3');
    writeFileSync(join(mkdirp(sqlite), 'package.json'), '{}');
    for (const f of ['obj.target/x.o', 'better_sqlite3.node', 'test_extension.node'])
      writeFileSync(join(mkdirp(join(sqlite, 'build/Release', f, '..')), f.split('/').pop()!), 'x');
    return { root, app, ort, sodium, sqlite };
  }
  const mkdirp = (p: string) => (mkdirSync(p, { recursive: true }), p);
  const here = `${process.platform}/${process.arch}`;

  it("keeps onnxruntime-node's and sodium-native's binaries for this platform only, and better-sqlite3's addon", async () => {
    const { app, ort, sodium, sqlite } = layout();
    const { stdout } = await run(process.execPath, [join(app, 'scripts/prune-platform.mjs')], {
      cwd: app,
      env: { PATH: process.env.PATH },
    });
    expect(stdout).toMatch(
      new RegExp(`^hearth: removed what ${here} cannot use \\(\\d+ MB\\): .*onnxruntime-node darwin/arm64`),
    );
    const kept = readdirSync(join(ort, 'bin/napi-v6')).flatMap((os) =>
      readdirSync(join(ort, 'bin/napi-v6', os)).map((cpu) => `${os}/${cpu}`),
    );
    expect(kept).toEqual(['linux/x64', 'linux/arm64'].includes(here) ? [here] : []);
    expect(readdirSync(join(sodium, 'prebuilds'))).toEqual(
      ['linux-x64', 'linux-arm64', 'darwin-arm64', 'android-arm'].includes(here.replace('/', '-'))
        ? [here.replace('/', '-')]
        : [],
    );
    expect(readdirSync(join(sqlite, 'build/Release'))).toEqual(['better_sqlite3.node']);
  });

  it('--dry-run and HEARTH_KEEP_ALL_PLATFORMS=1 remove nothing', async () => {
    const { app, ort } = layout();
    const dry = await run(process.execPath, [join(app, 'scripts/prune-platform.mjs'), '--dry-run'], { cwd: app });
    expect(dry.stdout).toMatch(/^hearth: would remove /);
    await run(process.execPath, [join(app, 'scripts/prune-platform.mjs')], {
      cwd: app,
      env: { PATH: process.env.PATH, HEARTH_KEEP_ALL_PLATFORMS: '1' },
    });
    expect(readdirSync(join(ort, 'bin/napi-v6')).sort()).toEqual(['darwin', 'linux', 'win32']);
  });
});
