#!/usr/bin/env node
/**
 * `hearth <command>` (SPEC §1). Commands are thin: they load config, build the hub or the
 * services, call one service, print, and exit non-zero on failure with one clear line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config/load.js';
import { dataDirProblem, packageRoot } from './config/data-dir.js';
import { HubError } from './lib/errors.js';
import { COMMANDS } from './cli/commands.js';
import { parseCommandLine, usageText } from './cli/args.js';
import { DataError, damagedMessage, isDamaged, SchemaError } from './tiers/ops/ops.service.js';

// `hearth doctor | head -5`: a reader that went away is not an error. Nothing more is written and
// the command ends as it would have, with its own exit code; any other stream error still surfaces.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
}

const version = () =>
  (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;

async function main(argv: string[]): Promise<number | undefined> {
  const line = parseCommandLine(argv, COMMANDS);
  switch (line.kind) {
    case 'help':
      process.stdout.write(usageText(COMMANDS));
      return 0;
    case 'version':
      process.stdout.write(`hearth ${version()}\n`);
      return 0;
    case 'usage':
      process.stderr.write(`${line.message ? `${line.message}\n` : ''}${usageText(COMMANDS)}`);
      return 2;
    case 'error':
      process.stderr.write(`${line.message}\n`);
      return 2;
  }
  // `serve --port 9000` and the like: the same setting as the variable, named by the flag in errors.
  const settings = Object.entries(line.spec.settings ?? {}).flatMap(([name, s]) =>
    typeof line.flags[name] === 'string' ? [{ name: `--${name}`, env: s.env, value: line.flags[name] as string }] : [],
  );
  const { config, file } = loadConfig({ configPath: line.configPath, settings });
  const problem = dataDirProblem(line.name, config.data_dir);
  if (problem) throw new DataError(problem);
  try {
    return await line.spec.run({ config, file, args: line.args, flags: line.flags });
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
    const known =
      e instanceof ConfigError || e instanceof SchemaError || e instanceof HubError || e instanceof DataError;
    process.stderr.write(`hearth: ${known ? (e as Error).message : ((e as Error).stack ?? String(e))}\n`);
    process.exitCode = known && e instanceof HubError && e.code === 'invalid' ? 2 : 1;
  },
);
