/**
 * The memory-mcp fixture, `shared/fixtures/memory-mcp/household.db`, beside the checkout: `../shared`
 * from the main checkout, `../../shared` from a worktree under `wt/`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const candidates = ['../../../shared/', '../../../../shared/'].map((up) =>
  fileURLToPath(new URL(`${up}fixtures/memory-mcp/household.db`, import.meta.url)),
);
export const FIXTURE = candidates.find((p) => existsSync(p)) ?? candidates[0];
