/** Data in and out: `import memory-mcp <db>`, `export-markdown <dir>`, `import-markdown <dir>`. */
import { invalid } from '../lib/errors.js';
import { createHub } from '../main.js';
import type { CommandContext } from './commands.js';

type Hub = Awaited<ReturnType<typeof createHub>>;

/** Opens the hub without listeners or scheduler, runs `fn`, prints its result (or JSON with --json). */
async function withHub(ctx: CommandContext, fn: (hub: Hub) => Promise<{ result: string }>): Promise<number> {
  const hub = await createHub({ config: { ...ctx.config, http: { ...ctx.config.http, enabled: false } }, scheduler: false });
  try {
    process.stderr.write(`hearth: database ${ctx.config.data_dir}/hearth.db\n`);
    const out = await fn(hub);
    process.stdout.write(ctx.flags.json ? `${JSON.stringify(out, null, 2)}\n` : `${out.result}\n`);
    return 0;
  } finally {
    await hub.stop();
  }
}

export async function importCommand(ctx: CommandContext): Promise<number> {
  const [kind, path] = ctx.args;
  if (kind !== 'memory-mcp') throw invalid(`import: unknown source "${kind ?? ''}"; usage: hearth import memory-mcp <db> [--dry-run]`);
  if (!path) throw invalid('import memory-mcp: give the memory-mcp database file, e.g. hearth import memory-mcp ~/memory-mcp/memory.db');
  return withHub(ctx, (hub) => hub.services.memoryMcpImport.run(path, { dryRun: Boolean(ctx.flags['dry-run']) }));
}
