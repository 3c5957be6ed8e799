/** What every CLI command is given, and what it declares about its command line (src/cli/args.ts). */
import type { Config } from '../config/schema.js';

export interface CommandContext {
  config: Config;
  file: string | null;
  /** The positional arguments after the command's name. */
  args: string[];
  /** The options the command declared, parsed (`--dry-run` → `flags['dry-run'] === true`). */
  flags: Record<string, unknown>;
}

/** Returns an exit code, or undefined for a command that keeps running (serve, mcp). */
export type Command = (ctx: CommandContext) => Promise<number | undefined>;

export interface CommandSpec {
  run: Command;
  /** The command line as `hearth help` shows it, without `hearth ` (`prune [--dry-run]`). */
  usage: string;
  summary: string;
  /** Options beyond the global ones (`--config`, `--help`, `--version`); anything else is refused. */
  options?: Record<string, { type: 'boolean' | 'string'; short?: string }>;
  /**
   * Options that set a config value, each the same setting as its environment variable and applied
   * after it (`serve --port 9000` = `HEARTH_HTTP_PORT=9000`): option name → variable, value's placeholder.
   */
  settings?: Record<string, { env: string; arg: string }>;
  /** How many positional arguments it takes at most (missing ones are the command's to explain). */
  maxArgs?: number;
}
