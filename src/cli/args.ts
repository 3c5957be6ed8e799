/**
 * The command line, checked before anything is opened: an option the command does not declare, a
 * malformed one, or an extra positional argument is refused in one line (exit 2), so a typo such
 * as `prune --dryrun` cannot run the real thing. node:util parseArgs in strict mode does the parsing.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CommandSpec } from './context.js';
import { closestFields } from '../lib/suggest.js';
import { ENV_MAP } from '../config/load.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Accepted by every command. */
export const GLOBAL_OPTIONS = {
  config: { type: 'string', short: 'c' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies Options;

export type ParsedLine =
  | { kind: 'help' | 'version' }
  /** No command, or an unknown one: `message` (if any) then the usage, on stderr, exit 2. */
  | { kind: 'usage'; message?: string }
  /** A command line a person can fix: one line on stderr, exit 2. */
  | { kind: 'error'; message: string }
  | {
      kind: 'run';
      name: string;
      spec: CommandSpec;
      args: string[];
      flags: Record<string, unknown>;
      configPath?: string;
    };

/** The candidate (a command, or `--option`) `word` most likely meant, when it looks like a typo of one (lib/suggest.ts). */
export function closest(word: string, candidates: string[]): string | undefined {
  const key = (s: string) => s.replace(/^--?/, '');
  const byKey = new Map(candidates.map((c) => [key(c).replaceAll('-', '_'), c] as const));
  return byKey.get(closestFields(key(word), [...byKey.keys()])[0] ?? '');
}

export function parseCommandLine(argv: string[], commands: Record<string, CommandSpec>): ParsedLine {
  // A first, lenient pass finds the command's name (the first positional, --config's value skipped).
  const loose = parseArgs({ args: argv, allowPositionals: true, strict: false, tokens: true, options: GLOBAL_OPTIONS });
  const [name] = loose.positionals;
  if (loose.values.help || name === 'help') return { kind: 'help' };
  if (loose.values.version) return { kind: 'version' };
  if (!name) return { kind: 'usage' };
  const spec = commands[name];
  if (!spec) {
    const near = closest(name, Object.keys(commands));
    return { kind: 'usage', message: `hearth: unknown command "${name}"${near ? ` (did you mean "${near}"?)` : ''}` };
  }
  const settings = Object.fromEntries(Object.keys(spec.settings ?? {}).map((o) => [o, { type: 'string' } as const]));
  const options: Options = { ...GLOBAL_OPTIONS, ...spec.options, ...settings };
  const longNames = Object.keys(options).map((o) => `--${o}`);
  for (const t of loose.tokens ?? []) {
    if (t.kind !== 'option' || t.name in options) continue;
    const near = t.rawName.startsWith('--') ? closest(t.rawName, longNames) : undefined;
    const takes = Object.keys({ ...spec.options, ...spec.settings }).map((o) => `--${o}`);
    const hint = near
      ? ` (did you mean ${near}?)`
      : `; ${name} takes ${takes.length ? `${takes.join(', ')} and ` : ''}--config FILE (see hearth help)`;
    return { kind: 'error', message: `hearth ${name}: unknown option ${t.rawName}${hint}` };
  }
  let strict;
  try {
    strict = parseArgs({ args: argv, allowPositionals: true, strict: true, options });
  } catch (e) {
    // A value given to a switch (`--dry-run=no`) or missing after `--config`: node's first sentence says which.
    return {
      kind: 'error',
      message: `hearth ${name}: ${(e as Error).message.split('. ')[0].replace(/^Option/, 'option')}; usage: hearth ${spec.usage}`,
    };
  }
  const args = strict.positionals.slice(1);
  const extra = args[spec.maxArgs ?? 0];
  if (extra !== undefined)
    return { kind: 'error', message: `hearth ${name}: unexpected argument "${extra}"; usage: hearth ${spec.usage}` };
  const flags: Record<string, unknown> = { ...strict.values };
  for (const global of Object.keys(GLOBAL_OPTIONS)) delete flags[global];
  const config = strict.values.config;
  return { kind: 'run', name, spec, args, flags, configPath: typeof config === 'string' ? config : undefined };
}

/** `hearth help`: every command's line, generated from the same specs the parser checks against. */
export function usageText(commands: Record<string, CommandSpec>): string {
  const rows = Object.values(commands).map((c) => [c.usage, c.summary]);
  const width = Math.max(...rows.map(([u]) => u.length)) + 2;
  // Options that set a config value: each with the config key and variable it is the same as.
  const settings = Object.entries(commands).flatMap(([name, c]) =>
    Object.entries(c.settings ?? {}).map(([o, s]) => [
      `--${o} ${s.arg}`,
      `${name}: ${ENV_MAP[s.env]?.[0] ?? '?'} (${s.env})`,
    ]),
  );
  const sw = Math.max(0, ...settings.map(([u]) => u.length)) + 2;
  return [
    'usage: hearth <command> [arguments] [options]',
    '',
    'commands:',
    ...rows.map(([u, s]) => `  ${u.padEnd(width)}${s}`),
    '',
    ...(settings.length
      ? [
          'settings (each the same as its config key and environment variable, and wins over both):',
          ...settings.map(([u, d]) => `  ${u.padEnd(sw)}${d}`),
          '',
        ]
      : []),
    'options:',
    '  -c, --config FILE  config file (else $HEARTH_CONFIG, ./config.toml, /etc/hearth/config.toml)',
    '  --json             print the result as JSON (doctor, patterns, prune, import, export-markdown, import-markdown)',
    '  -h, --help, help   this text',
    '  -v, --version      the version of Hearth',
    '',
  ].join('\n');
}
