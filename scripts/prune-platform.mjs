#!/usr/bin/env node
// npm's `postinstall` hook: removes the native binaries this machine cannot load. onnxruntime-node
// ships ONNX Runtime for every OS and CPU (bin/napi-v*/<os>/<arch>, ~290 MB, of which a Pi needs
// linux/arm64's 25 MB) and sodium-native ships prebuilds/<os>-<arch> for 13 platforms; both load only
// the directory named after process.platform/process.arch, so the others are dead weight on an SD card.
// better-sqlite3's build leftovers go too. HEARTH_KEEP_ALL_PLATFORMS=1 keeps everything (e.g. a node_modules copied between machines).
// Also runnable by hand: `node scripts/prune-platform.mjs [--dry-run]` (docs/deploy-pi.md).
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dry = process.argv.includes('--dry-run');
if (process.env.HEARTH_KEEP_ALL_PLATFORMS === '1') process.exit(0);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { platform, arch } = process;

/** The package's directory as Node would find it from Hearth: ./node_modules, then each parent's (hoisted). */
function findPackage(name) {
  for (let dir = root; ; dir = dirname(dir)) {
    const p = join(dir, 'node_modules', name);
    if (existsSync(join(p, 'package.json'))) return p;
    if (dirname(dir) === dir) return null;
  }
}
function size(p) {
  const s = statSync(p);
  return s.isDirectory() ? readdirSync(p).reduce((n, f) => n + size(join(p, f)), 0) : s.size;
}
const removed = [];
let bytes = 0;
function drop(p, label) {
  bytes += size(p);
  removed.push(label);
  if (!dry) rmSync(p, { recursive: true, force: true });
}
const dirs = (p) => (existsSync(p) ? readdirSync(p).filter((f) => statSync(join(p, f)).isDirectory()) : []);

const ort = findPackage('onnxruntime-node');
if (ort) {
  for (const napi of dirs(join(ort, 'bin')).filter((d) => d.startsWith('napi-v'))) {
    for (const os of dirs(join(ort, 'bin', napi))) {
      for (const cpu of dirs(join(ort, 'bin', napi, os))) {
        if (os !== platform || cpu !== arch) drop(join(ort, 'bin', napi, os, cpu), `onnxruntime-node ${os}/${cpu}`);
      }
      if (os !== platform && !dry) rmSync(join(ort, 'bin', napi, os), { recursive: true, force: true });
    }
  }
}
const sodium = findPackage('sodium-native');
if (sodium) {
  for (const d of dirs(join(sodium, 'prebuilds')))
    if (d !== `${platform}-${arch}`) drop(join(sodium, 'prebuilds', d), `sodium-native ${d}`);
}
// better-sqlite3 compiled from source keeps its object files and a test extension beside the one
// addon it loads (build/Release/better_sqlite3.node); `npm rebuild better-sqlite3` recreates them.
const sqlite = findPackage('better-sqlite3');
if (sqlite) {
  const release = join(sqlite, 'build', 'Release');
  for (const f of ['obj', 'obj.target', '.deps', 'sqlite3.a', 'test_extension.node'])
    if (existsSync(join(release, f))) drop(join(release, f), `better-sqlite3 build/Release/${f}`);
}
if (removed.length) {
  console.log(
    `hearth: ${dry ? 'would remove' : 'removed'} what ${platform}/${arch} cannot use (${(bytes / 1048576).toFixed(0)} MB): ${removed.join(', ')}`,
  );
}
