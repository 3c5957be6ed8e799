/**
 * Global setup of the e2e tier (vitest.config.ts): builds dist/ before any test spawns it, so a single
 * e2e file run alone tests the code as it is now, not the last build. tsc is incremental enough here
 * (a few seconds); a type error fails the run with tsc's own message.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export default function setup(): void {
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin/tsc');
  const res = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { stdio: 'inherit' });
  if (res.status !== 0)
    throw new Error(`e2e setup: building dist/ failed (tsc exit ${res.status}); fix the errors above`);
}
