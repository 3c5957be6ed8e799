/** The CLI's commands and their command lines; each returns an exit code (or never returns, for long-running ones). */
import { createHub } from '../main.js';
import { invalid } from '../lib/errors.js';
import { runMcpStdio } from './mcp-stdio.js';
import { runDoctor } from './doctor.js';
import { mcpConfigCommand } from './mcp-config.js';
import { backupCommand, restoreCommand } from './restore.js';
import { ops } from '../tiers/ops/ops.service.js';
import { exportMarkdownCommand, importCommand, importMarkdownCommand } from './io.js';
import { systemdNotifier } from '../lib/systemd.js';
import { loggerOptions } from '../lib/log.js';
import { quitOnce } from './quit.js';

import type { Command, CommandContext, CommandSpec } from './context.js';

/** `hearth serve --port 9000`: the everyday settings, as flags (each the same as its variable). */
const serveSettings = {
  port: { env: 'HEARTH_HTTP_PORT', arg: 'N' },
  host: { env: 'HEARTH_HTTP_HOST', arg: 'ADDR' },
  'data-dir': { env: 'HEARTH_DATA_DIR', arg: 'DIR' },
  'mqtt-port': { env: 'HEARTH_MQTT_PORT', arg: 'N' },
};

const serve: Command = async ({ config, file }) => {
  const release = ops.claimDataDir(config.data_dir); // one serve per data dir, refused before anything starts
  process.on('exit', release);
  const hub = await createHub({ config, logger: loggerOptions(config.log_level, config.log_format) });
  for (const n of hub.notes) hub.app.log.info(n);
  for (const w of hub.warnings) hub.app.log.warn(w);
  hub.integrity.onDamaged((why, fix) =>
    hub.app.log.error(`database ${config.data_dir}/hearth.db is damaged (${why}): ${fix}`),
  );
  const { http, mqtt } = await hub.start();
  process.on('exit', ops.recordListening(config.data_dir, { http: http ?? null, mqtt: mqtt ?? null }));
  void hub.integrity.check();
  hub.app.log.info(
    `hearth serving: http ${http ?? 'off'}; mqtt ${mqtt ?? 'off'} (${config.mqtt.mode}); data ${config.data_dir}; config ${file ?? '(defaults)'}`,
  );
  const systemd = systemdNotifier(process.env, (m) => hub.app.log.warn(m));
  systemd.ready(`serving http ${http ?? 'off'}, mqtt ${mqtt ?? 'off'}`);
  // Whatever hangs, it exits inside systemd's stop timeout (cli/quit.ts).
  const stop = quitOnce(
    async (signal) => {
      hub.app.log.info(`${signal}: stopping`);
      systemd.stopping();
      await hub.stop();
    },
    (line) => hub.app.log.error(line),
  );
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  return undefined;
};

const reembed: Command = async ({ config, flags }) => {
  const hub = await createHub({ config });
  try {
    const { memory, embedder } = hub.services;
    const snap = hub.services.status.snapshot();
    const stale = snap.vectors.state === 'stale';
    if (flags['dry-run']) {
      process.stdout.write(
        `${snap.memories.total} memories; index ${stale ? `stale (${snap.vectors.stale_reason})` : 'current'}; ` +
          `would ${stale ? 'build a new index beside the old one, embed all and swap' : `embed ${snap.pending_embedding} pending`} with ${embedder.fingerprint}\n`,
      );
      return 0;
    }
    let done = 0;
    if (stale) {
      // The same path as the hub's background rebuild: a new index beside the old, swapped on success.
      const s = await hub.services.reembed.run((p) =>
        process.stderr.write(`\rre-embedding ${p.done}/${p.total} with ${p.to}`),
      );
      if (s.state !== 'done')
        throw new Error(`reembed stopped at ${s.done}/${s.total}: ${s.error}; run it again to resume`);
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
const oneShot =
  (fn: (hub: Awaited<ReturnType<typeof createHub>>, ctx: CommandContext) => Promise<unknown> | unknown): Command =>
  async (ctx) => {
    const hub = await createHub({ config: { ...ctx.config, http: { ...ctx.config.http, enabled: false } } });
    try {
      const out = (await fn(hub, ctx)) as { result?: string };
      process.stdout.write(
        ctx.flags.json ? `${JSON.stringify(out, null, 2)}\n` : `${out.result ?? JSON.stringify(out)}\n`,
      );
      return 0;
    } finally {
      await hub.stop();
    }
  };

const patternsOnHub = oneShot(async (hub, { args, flags }) => {
  if (args[0] === 'list') {
    const promoted = hub.services.patterns.promoted();
    return {
      result: [
        ...hub.services.patterns.detectors().map((d) => `detector ${d.name}: ${d.description}`),
        ...promoted.map((p) => `- ${String(p.fact ?? p.pattern_key)}`),
      ].join('\n'),
      detectors: hub.services.patterns.detectors(),
      promoted,
    };
  }
  return hub.services.patterns.run({ dry_run: Boolean(flags['dry-run']) });
});

const patterns: Command = async (ctx) => {
  const sub = ctx.args[0] ?? 'run';
  if (sub !== 'run' && sub !== 'list') throw invalid(`patterns: unknown subcommand "${sub}" (run or list)`);
  return patternsOnHub(ctx);
};

const prune = oneShot((hub, { flags }) => hub.services.prune({ dry_run: Boolean(flags['dry-run']) }, 'cli'));

const dryRun = { 'dry-run': { type: 'boolean' } } as const;
const json = { json: { type: 'boolean' } } as const;

/** What `hearth help` lists and what each command's line may hold (src/cli/args.ts refuses the rest). */
export const COMMANDS: Record<string, CommandSpec> = {
  serve: {
    run: serve,
    usage: 'serve [--port N …]',
    settings: serveSettings,
    summary: 'HTTP API, MQTT broker and bridge, scheduler (what npm start runs)',
  },
  mcp: { run: runMcpStdio, usage: 'mcp', summary: 'MCP over stdio (Claude Desktop, Claude Code, OpenHome)' },
  'mcp-config': {
    run: mcpConfigCommand,
    usage: 'mcp-config <client>',
    summary: 'snippet for claude-desktop, claude-code, openhome, home-assistant, http',
    maxArgs: 1,
  },
  doctor: {
    run: runDoctor,
    usage: 'doctor [--json]',
    summary: 'check database, schema, embedder; exit 1 on a problem',
    options: json,
  },
  backup: {
    run: backupCommand,
    usage: 'backup <file>',
    summary: 'online backup of the database (safe while serving)',
    maxArgs: 1,
  },
  restore: {
    run: restoreCommand,
    usage: 'restore <file>',
    summary: 'check a backup and install it (hub stopped; the old database is kept aside)',
    maxArgs: 1,
  },
  patterns: {
    run: patterns,
    usage: 'patterns [run|list] [--dry-run]',
    summary: 'run the pattern engine now, or list detectors and promoted patterns',
    options: { ...dryRun, ...json },
    maxArgs: 1,
  },
  prune: {
    run: prune,
    usage: 'prune [--dry-run]',
    summary: 'delete raw readings past RETENTION_DAYS that are rolled up',
    options: { ...dryRun, ...json },
  },
  reembed: {
    run: reembed,
    usage: 'reembed [--dry-run]',
    summary: 'rebuild memory vectors for the configured embedding model',
    options: dryRun,
  },
  import: {
    run: importCommand,
    usage: 'import memory-mcp <db> [--dry-run]',
    summary: 'copy a memory-mcp database in (idempotent)',
    options: { ...dryRun, ...json },
    maxArgs: 2,
  },
  'export-markdown': {
    run: exportMarkdownCommand,
    usage: 'export-markdown <dir>',
    summary: 'one Obsidian-compatible .md file per entity',
    options: json,
    maxArgs: 1,
  },
  'import-markdown': {
    run: importMarkdownCommand,
    usage: 'import-markdown <dir> [--delete-missing]',
    summary: 'read edited notes back (see docs/markdown-sync.md)',
    options: { 'delete-missing': { type: 'boolean' }, ...json },
    maxArgs: 1,
  },
};
