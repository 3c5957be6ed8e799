#!/usr/bin/env node
// `npm test`: lint (biome lint and format, the house rules' import, size and SQL checks), then the unit tier, the
// integration tier (whole hubs in process), then the e2e tier (whose global setup builds dist/), and the one
// line CI reads: "N passed, N failed" alone on a line, summed over the tiers' vitest JSON reports. A lint
// failure counts as one failed test; the tiers still run. Each tier's count and time is printed above it.
//
//   node scripts/test.mjs [vitest args…]          everything
//   node scripts/test.mjs --tier unit [args…]     one tier, no lint (npm run test:unit / test:integration / test:e2e)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', shell: false });
let argv = process.argv.slice(2);
let tiers = ['unit', 'integration', 'e2e'];
const t = argv.indexOf('--tier');
if (t >= 0) {
  tiers = [argv[t + 1]];
  argv = argv.filter((_, i) => i !== t && i !== t + 1);
}

let passed = 0;
let failed = 0;
let status = 0;
const summary = [];
const failures = []; // "FAILED <tier> <file> > <test> — <why>": printed last, so a CI log's tail names what failed and why
/** The first line of a test's first failure message (ANSI colours removed, at most 400 characters), after " — ". */
function why(messages) {
  const first = stripVTControlCharacters(String(messages?.[0] ?? ''))
    .split('\n')[0]
    .trim();
  return first ? ` — ${first.length > 400 ? `${first.slice(0, 400)}…` : first}` : '';
}
if (tiers.length > 1) {
  // `npm run lint`, errors only (its warnings are listed there, not in every test run).
  const lint = [
    run('npx', ['biome', 'lint', '--diagnostic-level=error', '.']),
    run('npx', ['biome', 'format', '--diagnostic-level=error', '.']),
    run(process.execPath, ['scripts/lint-deps.mjs']),
    run(process.execPath, ['scripts/lint-size.mjs']),
    run(process.execPath, ['scripts/lint-sql.mjs']),
  ];
  if (lint.some((r) => r.status !== 0)) {
    console.log('lint failed (npm run lint): counted as one failed test');
    failed += 1;
    status = 1;
  }
}
for (const tier of tiers) {
  const report = '.vitest-report.json';
  rmSync(report, { force: true });
  // --passWithNoTests: a file filter given for one tier matches nothing in the other.
  const args = [
    'vitest',
    'run',
    '--project',
    tier,
    '--passWithNoTests',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    // The in-process tiers wait on sockets, timers and SQLite more than they compute: four workers on
    // two cores finish them sooner (README "Developing"). The e2e tier's files wait on the processes
    // they start: two at a time (vitest's default on two cores is one) took it from 642 s to 455 s.
    ...(!argv.some((a) => a.startsWith('--maxWorkers')) ? [`--maxWorkers=${tier === 'e2e' ? 2 : 4}`] : []),
    ...argv,
  ];
  const started = Date.now();
  const res = run('npx', args);
  const seconds = Math.round((Date.now() - started) / 1000);
  if (res.status !== 0) status = res.status ?? 1;
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    const f = (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0) || (r.success ? 0 : 1);
    passed += r.numPassedTests ?? 0;
    failed += f;
    summary.push(`${tier}: ${r.numPassedTests ?? 0} passed, ${f} failed in ${seconds} s`);
    for (const file of r.testResults ?? []) {
      const name = relative(process.cwd(), file.name ?? '');
      const bad = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
      for (const a of bad) failures.push(`FAILED ${tier} ${name} > ${a.fullName ?? a.title}${why(a.failureMessages)}`);
      if (!bad.length && file.status === 'failed')
        failures.push(`FAILED ${tier} ${name}: ${(file.message ?? '').split('\n')[0]}`);
    }
    rmSync(report, { force: true });
  } else if (res.status !== 0) {
    failed += 1;
    summary.push(`${tier}: no report (vitest exit ${res.status}) in ${seconds} s`);
  }
}
if (summary.length > 1) for (const line of summary) console.log(`  ${line}`);
for (const line of failures) console.log(line);
console.log(`${passed} passed, ${failed} failed`);
process.exit(status);
