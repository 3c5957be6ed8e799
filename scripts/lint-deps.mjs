#!/usr/bin/env node
// The house rules' import check (.dependency-cruiser.cjs), run by `npm run lint`.
//
// dependency-cruiser parses TypeScript through the `typescript` package's JS API, which TypeScript 7 (a
// native compiler) no longer ships; checking dist/ instead would miss `import type`. So each source file
// is reduced to its relative imports (parsed by oxc through vite, type-only and dynamic imports included)
// and written as a one-line-per-import .js mirror in a temp dir, which dependency-cruiser checks with the
// rules and the known-violations baseline. Paths in its report are the sources' with a .js extension.
// Beside it, a text check (door-reaches-storage) fails a door that touches `hub.db`, `services.db` or a `.repo`.
//
//   node scripts/lint-deps.mjs             check; fails on any violation not in the baseline
//   node scripts/lint-deps.mjs --baseline  rewrite .dependency-cruiser-known-violations.json from today's code
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAst } from 'vite';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const roots = ['src', 'detectors', 'scripts', 'integrations'];
const config = join(root, '.dependency-cruiser.cjs');
const baseline = join(root, '.dependency-cruiser-known-violations.json');

const sources = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(p);
    return /\.(c|m)?(t|j)s$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });

/** Every module specifier in an AST: static, re-export, dynamic, `import('x').T` types and require('x'). */
function specifiers(node, out = []) {
  if (!node || typeof node !== 'object') return out;
  if (Array.isArray(node)) {
    for (const n of node) specifiers(n, out);
    return out;
  }
  const lit = (s) => (s && typeof s.value === 'string' ? out.push(s.value) : undefined);
  if (
    node.type === 'ImportDeclaration' ||
    node.type === 'ExportAllDeclaration' ||
    node.type === 'ExportNamedDeclaration'
  )
    lit(node.source);
  if (node.type === 'ImportExpression') lit(node.source);
  if (node.type === 'TSImportType') lit(node.argument?.literal ?? node.argument ?? node.source);
  if (node.type === 'CallExpression' && node.callee?.type === 'Identifier' && node.callee.name === 'require')
    lit(node.arguments?.[0]);
  for (const k of Object.keys(node)) if (k !== 'type' && typeof node[k] === 'object') specifiers(node[k], out);
  return out;
}

// What an import rule cannot see: a door reaching storage through an object it was handed — the
// hub's database (`hub.db`), a service's repository (`x.repo.y`). Comment lines are skipped.
const doorFile = /^src\/(http|mcp|mqtt|cli)\/|^src\/cli\.ts$/;
const storageHandle = /\b(hub|services|s)\.db\b|\.repo\b(?!\.[jt]s\b)/;
function storageHandles(rel, text) {
  if (!doorFile.test(rel.split(sep).join('/'))) return;
  text.split('\n').forEach((line, i) => {
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
    const m = storageHandle.exec(line);
    if (!m) return;
    console.error(
      `lint-deps: ${rel}:${i + 1} door-reaches-storage: "${m[0]}" — a door asks a service, never the database or a repo`,
    );
    process.exitCode = 1;
  });
}

const mirror = mkdtempSync(join(tmpdir(), 'hearth-deps-'));
try {
  for (const dir of roots) {
    for (const file of sources(join(root, dir))) {
      const rel = relative(root, file);
      const lang = /\.(c|m)?ts$/.test(file) ? 'ts' : 'js';
      let ast;
      const text = readFileSync(file, 'utf8');
      storageHandles(rel, text);
      try {
        ast = parseAst(text, { lang }, file);
      } catch (e) {
        console.error(`lint-deps: cannot parse ${rel}: ${e.message.split('\n')[0]}`);
        process.exitCode = 1;
        continue;
      }
      const local = [...new Set(specifiers(ast.body))].filter((s) => s.startsWith('.'));
      const out = join(
        mirror,
        rel.replace(/\.(c|m)?ts$/, (_m, c) => `.${c ?? ''}js`),
      );
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, local.map((s) => `import ${JSON.stringify(s)};\n`).join(''));
    }
  }
  const args = ['--config', config, ...roots];
  if (process.argv.includes('--baseline')) args.push('--output-type', 'baseline', '--output-to', baseline);
  else args.push('--ignore-known', baseline, '--output-type', 'err');
  const bin = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const res = spawnSync(process.execPath, [bin, ...args], { cwd: mirror, stdio: 'inherit' });
  if (res.status !== 0) process.exitCode = res.status ?? 1;
  else if (process.argv.includes('--baseline')) console.log(`lint-deps: wrote ${relative(root, baseline)}`);
} finally {
  rmSync(mirror, { recursive: true, force: true });
}
