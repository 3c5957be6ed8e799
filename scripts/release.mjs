#!/usr/bin/env node
// The release tarball: `node scripts/release.mjs [--out DIR]` → DIR/hearth-<version>.tgz (default DIR:
// the repository root) and prints its path on the last line of stdout.
//
// It is `npm pack` (package.json "files": the compiled dist/, assets, deploy/, docs, integrations; no
// tests, no TypeScript sources; npm's `prepare` hook builds dist/ first), repacked with the production
// tree pinned: npm-shrinkwrap.json is package-lock.json without the dev-only packages, and package.json
// loses devDependencies, so the two agree with no dev tooling in the way. Both matter (issue #35 item 14):
// - npm honours a shrinkwrap only for the project it installs, never for a local tarball installed as a
//   dependency (`npm install ./hearth.tgz`: npm reads `_hasShrinkwrap` from registry metadata only), so
//   the release is installed as its own project, with `npm ci`;
// - `npm ci` refuses a lockfile its npm would resolve differently, and npm 10 (Node 20's and 22's) reads
//   the full lock's optional peer `typescript@^5` of a dev dependency as missing: a production-only lock
//   is the same to npm 10 and 11.
// Install it (docs/deploy-pi.md):
//   mkdir hearth && tar xzf hearth-<version>.tgz -C hearth --strip-components=1
//   cd hearth && ONNXRUNTIME_NODE_INSTALL=skip npm ci --omit=dev          (then: npm start)
// or as a service: `tar xzf hearth-<version>.tgz package/deploy && sudo package/deploy/install.sh --release hearth-<version>.tgz`.
// Neither needs TypeScript: dist/ is built here.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const i = process.argv.indexOf('--out');
const out = resolve(i > 0 ? (process.argv[i + 1] ?? '.') : root);
mkdirSync(out, { recursive: true });
const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  return r.stdout;
}

/** The lockfile of the production tree: every package a production install gets, at its tested version. */
export function productionLock(lock) {
  const packages = {};
  for (const [where, p] of Object.entries(lock.packages)) {
    if (p.dev) continue; // dev-only; devOptional and optional packages stay
    packages[where] = where === '' ? { ...p, devDependencies: undefined } : p;
  }
  return { ...lock, packages };
}

const stage = mkdtempSync(join(tmpdir(), 'hearth-release-'));
try {
  const packed = join(stage, run('npm', ['pack', '--pack-destination', stage], root).trim().split('\n').pop());
  run('tar', ['xzf', packed, '-C', stage], root);
  rmSync(packed);
  const pkgDir = join(stage, 'package');
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  delete pkg.devDependencies;
  writeFileSync(join(pkgDir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  writeFileSync(join(pkgDir, 'npm-shrinkwrap.json'), `${JSON.stringify(productionLock(lock), null, 2)}\n`);
  const file = join(
    out,
    run('npm', ['pack', '--ignore-scripts', '--pack-destination', out], pkgDir).trim().split('\n').pop(),
  );
  const want = join(out, `${name}-${version}.tgz`);
  if (file !== want) renameSync(file, want);
  console.log(want);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
