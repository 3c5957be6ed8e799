#!/usr/bin/env node
// `npm test`: builds (tests spawn dist/src/cli.js), runs vitest, and prints the one line CI reads:
// "N passed, N failed" alone on a line, taken from vitest's JSON report.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', shell: false });
const build = run('npx', ['tsc', '-p', 'tsconfig.json']);
if (build.status !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const report = '.vitest-report.json';
rmSync(report, { force: true });
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
const res = run('npx', args);
let passed = 0;
let failed = 0;
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed = r.numPassedTests ?? 0;
  failed = (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
  if (!r.success && failed === 0) failed = 1;
} else if (res.status !== 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(res.status ?? 1);
