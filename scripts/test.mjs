#!/usr/bin/env node
// `npm test`: lint (biome lint and format, the house rules' import and size checks), then the unit tier, then the e2e tier (whose
// global setup builds dist/), and the one line CI reads: "N passed, N failed" alone on a line, summed
// over both tiers' vitest JSON reports. A lint failure counts as one failed test; the tiers still run.
//
//   node scripts/test.mjs [vitest args…]          everything
//   node scripts/test.mjs --tier unit [args…]     one tier, no lint (npm run test:unit / test:e2e)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', shell: false });
let argv = process.argv.slice(2);
let tiers = ['unit', 'e2e'];
const t = argv.indexOf('--tier');
if (t >= 0) {
  tiers = [argv[t + 1]];
  argv = argv.filter((_, i) => i !== t && i !== t + 1);
}

let passed = 0;
let failed = 0;
let status = 0;
if (tiers.length > 1) {
  // `npm run lint`, errors only (its warnings are listed there, not in every test run).
  const lint = [
    run('npx', ['biome', 'lint', '--diagnostic-level=error', '.']),
    run('npx', ['biome', 'format', '--diagnostic-level=error', '.']),
    run(process.execPath, ['scripts/lint-deps.mjs']),
    run(process.execPath, ['scripts/lint-size.mjs']),
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
    // The unit tier waits on sockets, timers and SQLite more than it computes: four workers on two
    // cores finish it in ~2.6 min instead of ~3.6 (README "Developing"). The e2e tier keeps the default.
    ...(tier === 'unit' && !argv.some((a) => a.startsWith('--maxWorkers')) ? ['--maxWorkers=4'] : []),
    ...argv,
  ];
  const res = run('npx', args);
  if (res.status !== 0) status = res.status ?? 1;
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    const f = (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
    passed += r.numPassedTests ?? 0;
    failed += f || (r.success ? 0 : 1);
    rmSync(report, { force: true });
  } else if (res.status !== 0) failed += 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(status);
