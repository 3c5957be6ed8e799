#!/usr/bin/env node
/**
 * `hearth <command>` (SPEC §1). Commands are thin: they load config, build the hub or the
 * services, call one service, print, and exit non-zero on failure with one clear line.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config/load.js';
import { SchemaError } from './db/open.js';
import { HubError } from './lib/errors.js';
import { COMMANDS } from './cli/commands.js';
import { DataError, damagedMessage, isDamaged } from './db/errors.js';
import { join } from 'node:path';

const USAGE = `usage: hearth <command> [--config FILE] [options]

commands:
  serve                 HTTP API, MQTT broker and bridge, scheduler (what npm start runs)
  mcp                   MCP over stdio (Claude Desktop, Claude Code, OpenHome)
  mcp-config <client>   snippet for claude-desktop, claude-code, openhome, home-assistant, http
  doctor [--json]       check database, schema, embedder; exit 1 on a problem
  backup <file>         online backup of the database (safe while serving)
  restore <file>        check a backup and install it (hub stopped; the old database is kept aside)
  patterns [run|list]   run the pattern engine now (--dry-run), or list detectors and promoted patterns
  prune [--dry-run]     delete raw readings past RETENTION_DAYS that are rolled up
  reembed [--dry-run]   rebuild memory vectors for the configured embedding model
  import memory-mcp <db> [--dry-run]  copy a memory-mcp database in (idempotent)
  export-markdown <dir>               one Obsidian-compatible .md file per entity
  import-markdown <dir> [--delete-missing]  read edited notes back (see docs/markdown-sync.md)
`;

async function main(argv: string[]): Promise<number | undefined> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: { config: { type: 'string', short: 'c' }, help: { type: 'boolean', short: 'h' }, json: { type: 'boolean' }, 'dry-run': { type: 'boolean' } },
  });
  const [name, ...rest] = positionals;
  if (!name || values.help) {
    process.stdout.write(USAGE);
    return name || values.help ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`hearth: unknown command "${name}"\n${USAGE}`);
    return 2;
  }
  const { config, file } = loadConfig({ configPath: values.config as string | undefined });
  try {
    return await command({ config, file, args: rest, flags: values as Record<string, unknown> });
  } catch (e) {
    // Damage met after the database opened (a truncated file, a bad page read at start-up).
    throw isDamaged(e) ? new DataError(damagedMessage(join(config.data_dir, 'hearth.db'), (e as Error).message)) : e;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined && code !== null) process.exitCode = code;
  },
  (e: unknown) => {
    const known = e instanceof ConfigError || e instanceof SchemaError || e instanceof HubError || e instanceof DataError;
    process.stderr.write(`hearth: ${known ? (e as Error).message : (e as Error).stack ?? String(e)}\n`);
    process.exitCode = known && e instanceof HubError && e.code === 'invalid' ? 2 : 1;
  },
);
