#!/usr/bin/env node
// The release tarball: `node scripts/release.mjs [--out DIR]` → DIR/hearth-<version>.tgz (default DIR:
// the repository root) and prints its path on the last line of stdout.
//
// It is `npm pack` (package.json "files": the compiled dist/, assets, deploy/, docs, integrations; no
// tests, no TypeScript sources) with package-lock.json shipped as npm-shrinkwrap.json, so installing the
// release resolves exactly the dependency versions the suite ran against. Install it with
//   ONNXRUNTIME_NODE_INSTALL=skip npm install --omit=dev ./hearth-<version>.tgz      (a `hearth` in node_modules/.bin)
// or as a service: `tar xzf hearth-<version>.tgz && sudo package/deploy/install.sh --release hearth-<version>.tgz`
// (docs/deploy-pi.md). Neither needs TypeScript: dist/ is built here, by npm's `prepare` hook.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const i = process.argv.indexOf('--out');
const out = resolve(i > 0 ? (process.argv[i + 1] ?? '.') : root);
mkdirSync(out, { recursive: true });
const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const shrinkwrap = join(root, 'npm-shrinkwrap.json');
if (existsSync(shrinkwrap))
  throw new Error(`${shrinkwrap} exists; remove it (release.mjs writes it from package-lock.json)`);
copyFileSync(join(root, 'package-lock.json'), shrinkwrap);
let r;
try {
  r = spawnSync('npm', ['pack', '--pack-destination', out], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
} finally {
  rmSync(shrinkwrap, { force: true });
}
if (r.status !== 0) process.exit(r.status ?? 1);
const file = join(out, r.stdout.trim().split('\n').pop());
const want = join(out, `${name}-${version}.tgz`);
if (file !== want) renameSync(file, want);
console.log(want);
