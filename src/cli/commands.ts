/** The CLI's commands; each returns an exit code (or never returns, for long-running ones). */
import type { Config } from '../config/schema.js';
import { createHub } from '../main.js';
import { invalid } from '../lib/errors.js';
import { runMcpStdio } from './mcp-stdio.js';
import { runDoctor } from './doctor.js';
import { mcpConfigCommand } from './mcp-config.js';
import { backupCommand, claimDataDir, restoreCommand } from './restore.js';
import { exportMarkdownCommand, importCommand, importMarkdownCommand } from './io.js';
import { systemdNotifier } from '../lib/systemd.js';
import { loggerOptions } from '../lib/log.js';

export interface CommandContext {
  config: Config;
  file: string | null;
  args: string[];
  flags: Record<string, unknown>;
}
type Command = (ctx: CommandContext) => Promise<number | undefined>;

const serve: Command = async ({ config, file }) => {
  const release = claimDataDir(config.data_dir); // one serve per data dir, refused before anything starts
  process.on('exit', release);
  const hub = await createHub({ config, logger: loggerOptions(config.log_level, config.log_format) });
  for (const n of hub.notes) hub.app.log.info(n);
  for (const w of hub.warnings) hub.app.log.warn(w);
  const { http, mqtt } = await hub.start();
  void hub.integrity.check().then((state) => state === 'damaged' && hub.app.log.error(`database ${config.data_dir}/hearth.db is damaged: run \`hearth doctor\`, then \`hearth restore <backup>\``));
  hub.app.log.info(`hearth serving: http ${http ?? 'off'}; mqtt ${mqtt ?? 'off'} (${config.mqtt.mode}); data ${config.data_dir}; config ${file ?? '(defaults)'}`);
  const systemd = systemdNotifier(process.env, (m) => hub.app.log.warn(m));
  systemd.ready(`serving http ${http ?? 'off'}, mqtt ${mqtt ?? 'off'}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    hub.app.log.info(`${signal}: stopping`);
    systemd.stopping();
    // Whatever hangs, exit inside systemd's stop timeout; what was acknowledged is already on disk.
    setTimeout(() => (hub.app.log.error('stop took over 9 s; exiting'), process.exit(1)), 9000).unref();
    await hub.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  return undefined;
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
          `would ${stale ? 'build a new index beside the old one, embed all and swap' : `embed ${memory.repo.pendingCount()} pending`} with ${embedder.fingerprint}\n`,
      );
      return 0;
    }
    let done = 0;
    if (stale) {
      // The same path as the hub's background rebuild: a new index beside the old, swapped on success.
      const s = await hub.services.reembed.run((p) => process.stderr.write(`\rre-embedding ${p.done}/${p.total} with ${p.to}`));
      if (s.state !== 'done') throw new Error(`reembed stopped at ${s.done}/${s.total}: ${s.error}; run it again to resume`);
      done = s.done;
    }
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

/** Runs a one-shot service call on a hub without listeners, prints its result. */
const oneShot = (fn: (hub: Awaited<ReturnType<typeof createHub>>, ctx: CommandContext) => Promise<unknown> | unknown): Command =>
  async (ctx) => {
    const hub = await createHub({ config: { ...ctx.config, http: { ...ctx.config.http, enabled: false } } });
    try {
      const out = (await fn(hub, ctx)) as { result?: string };
      process.stdout.write(ctx.flags.json ? `${JSON.stringify(out, null, 2)}\n` : `${out.result ?? JSON.stringify(out)}\n`);
      return 0;
    } finally {
      await hub.stop();
    }
  };

const patterns = oneShot(async (hub, { args, flags }) => {
  const sub = args[0] ?? 'run';
  if (sub === 'list') {
    const promoted = hub.services.patterns.promoted();
    return { result: [...hub.services.patterns.detectors().map((d) => `detector ${d.name}: ${d.description}`), ...promoted.map((p) => `- ${String(p.fact ?? p.pattern_key)}`)].join('\n'), detectors: hub.services.patterns.detectors(), promoted };
  }
  if (sub !== 'run') throw invalid(`patterns: unknown subcommand "${sub}" (run or list)`);
  return hub.services.patterns.run({ dry_run: Boolean(flags['dry-run']) });
});

const prune = oneShot((hub, { flags }) => hub.services.prune({ dry_run: Boolean(flags['dry-run']) }, 'cli'));

export const COMMANDS: Record<string, Command> = {
  serve,
  mcp: runMcpStdio,
  'mcp-config': mcpConfigCommand,
  doctor: runDoctor,
  backup: backupCommand,
  restore: restoreCommand,
  patterns,
  prune,
  reembed,
  import: importCommand,
  'export-markdown': exportMarkdownCommand,
  'import-markdown': importMarkdownCommand,
};
