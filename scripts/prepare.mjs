#!/usr/bin/env node
// npm's `prepare` hook. In a git checkout (tsconfig.json and TypeScript present) it builds dist/, so
// `npm install` / `npm ci` leave a runnable checkout and `npm pack` packs a fresh build. In a release
// (the packed tarball, unpacked and installed with `npm install --omit=dev`) dist/ is already built and
// TypeScript is not installed, so it does nothing: a Pi never needs the compiler.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// `--ignore-scripts` asked for no build. npm 10 (the one Node-RED installs into node_modules/.bin, first on
// the PATH of every npm script and test) still runs `prepare` on `npm pack --ignore-scripts`, and a
// build then rewrote dist/ under the e2e tier's running processes.
if (process.env.npm_config_ignore_scripts === 'true') process.exit(0);
if (!existsSync(join(root, 'tsconfig.json'))) process.exit(0);
let tsc;
try {
  tsc = join(dirname(createRequire(join(root, 'package.json')).resolve('typescript/package.json')), 'bin', 'tsc');
} catch {
  console.error(
    'prepare: TypeScript is not installed (npm install --omit=dev in a checkout?); dist/ not rebuilt. Run `npm install` then `npm run build`.',
  );
  process.exit(0);
}
const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
process.exit(r.status ?? 1);
