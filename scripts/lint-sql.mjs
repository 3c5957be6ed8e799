#!/usr/bin/env node
// The house rule on SQL, run by `npm run lint` and `npm test`: repositories own their tables' SQL
// (docs/ARCHITECTURE.md, "House rules"). Only storage (`src/db/`) and repository files — `*.repo.ts`,
// or `*.reader.ts` for a read model over several tiers' tables — prepare statements; a service, an
// engine or a door calls their methods. `db.transaction(fn)` around a unit of work is not SQL and may
// stay in a service.
//
//   node scripts/lint-sql.mjs
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const roots = ['src', 'detectors'];
const SQL = /\.prepare\(|\bdb\.exec\(/;
const owner = (file) => file.startsWith(`src${sep}db${sep}`) || /\.(repo|reader)\.ts$/.test(file);

const sources = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(p);
    return /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });

const found = roots
  .flatMap((r) => sources(join(root, r)))
  .map((p) => relative(root, p))
  .filter((file) => !owner(file))
  .flatMap((file) =>
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => (SQL.test(line) ? [`${file}:${i + 1}`] : [])),
  );
for (const at of found)
  console.error(`${at}: SQL outside a repository: move the statement into the tier's *.repo.ts (or a *.reader.ts)`);
if (found.length) process.exit(1);
console.log('sql: only src/db/ and *.repo.ts / *.reader.ts files prepare statements');
