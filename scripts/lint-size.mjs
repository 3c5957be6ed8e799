#!/usr/bin/env node
// The house rule on size, run by `npm run lint`: no source file over 350 lines (docs/ARCHITECTURE.md,
// "House rules"). A file that grows past it is split by what it does, not by line number.
//
//   node scripts/lint-size.mjs [--max N]
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const roots = ['src', 'detectors', 'scripts', 'integrations'];
const at = process.argv.indexOf('--max');
const max = at > 0 ? Number(process.argv[at + 1]) : 350;

const sources = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(p);
    return /\.(c|m)?(t|j)s$/.test(e.name) && !/\.(d\.ts|min\.js)$/.test(e.name) ? [p] : [];
  });

const over = roots
  .flatMap((r) => sources(join(root, r)))
  .map((p) => ({ file: relative(root, p), lines: readFileSync(p, 'utf8').split('\n').length - 1 }))
  .filter((f) => f.lines > max)
  .sort((a, b) => b.lines - a.lines);
for (const f of over)
  console.error(`${f.file}: ${f.lines} lines (the house rule is at most ${max}): split it by what it does`);
if (over.length) process.exit(1);
console.log(`size: every source file is at most ${max} lines`);
