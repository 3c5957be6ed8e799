/** The CLI's commands; each returns an exit code (or never returns, for long-running ones). */
import type { Config } from '../config/schema.js';
import { createHub } from '../main.js';
import { invalid } from '../lib/errors.js';
import { runMcpStdio } from './mcp-stdio.js';
import { runDoctor } from './doctor.js';

export interface CommandContext {
  config: Config;
  file: string | null;
  args: string[];
  flags: Record<string, unknown>;
}
type Command = (ctx: CommandContext) => Promise<number | undefined>;

const serve: Command = async ({ config, file }) => {
  const hub = await createHub({ config, logger: { level: config.log_level } });
  for (const w of hub.warnings) hub.app.log.warn(w);
  const { http, mqtt } = await hub.start();
  hub.app.log.info(`hearth serving: http ${http ?? 'off'}; mqtt ${mqtt ?? 'off'} (${config.mqtt.mode}); data ${config.data_dir}; config ${file ?? '(defaults)'}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    hub.app.log.info(`${signal}: stopping`);
    await hub.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  return undefined;
};

const backup: Command = async ({ config, args }) => {
  const target = args[0];
  if (!target) throw invalid('backup: give the target file, e.g. hearth backup /var/backups/hearth.db');
  const { openDatabase } = await import('../db/open.js');
  const db = openDatabase({ dataDir: config.data_dir });
  try {
    // SQLite's online backup API: consistent even while the hub is writing (never a raw file copy without its WAL).
    await db.backup(target);
    process.stdout.write(`backed up ${config.data_dir} to ${target}\n`);
  } finally {
    db.close();
  }
  return 0;
};

const reembed: Command = async ({ config, flags }) => {
  const hub = await createHub({ config });
  try {
    const { memory, vectors, embedder } = hub.services;
    const total = (hub.db.prepare('SELECT count(*) AS n FROM memories').get() as { n: number }).n;
    const stale = vectors.state === 'stale';
    if (flags['dry-run']) {
      process.stdout.write(
        `${total} memories; index ${stale ? `stale (${vectors.staleReason()})` : 'current'}; ` +
          `would ${stale ? 'rebuild the index and embed all' : `embed ${memory.repo.pendingCount()} pending`} with ${embedder.fingerprint}\n`,
      );
      return 0;
    }
    if (stale) vectors.rebuild();
    let done = 0;
    for (;;) {
      const { embedded, remaining } = await memory.embedPending(128);
      done += embedded;
      if (!embedded || !remaining) break;
      process.stderr.write(`\rembedded ${done}, ${remaining} to go`);
    }
    process.stdout.write(`\nembedded ${done} memories with ${embedder.fingerprint}\n`);
    return 0;
  } finally {
    await hub.stop();
  }
};

export const COMMANDS: Record<string, Command> = {
  serve,
  mcp: runMcpStdio,
  doctor: runDoctor,
  backup,
  reembed,
};
