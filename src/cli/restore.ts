/** `hearth backup <file>` and `hearth restore <file>` (docs/operations.md#restore): the work is the ops service's. */
import { ops } from '../tiers/ops/ops.service.js';
import type { CommandContext } from './context.js';

export async function backupCommand({ config, args }: CommandContext): Promise<number> {
  const { from, to } = await ops.backup(config.data_dir, args[0]);
  process.stdout.write(`backed up ${from} to ${to}\n`);
  return 0;
}

export async function restoreCommand({ config, args }: CommandContext): Promise<number> {
  const source = args[0];
  const { current, keptAs } = await ops.restore(config.data_dir, source);
  process.stdout.write(
    `restored ${source} into ${current}${keptAs ? `; the previous database is kept as ${keptAs}` : ''}\n`,
  );
  return 0;
}
