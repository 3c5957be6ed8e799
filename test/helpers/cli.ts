/** Runs `node dist/src/cli.js …` as a real child process and collects its exit code and output. */
import { spawn, type SpawnOptions } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const CLI = join(process.cwd(), 'dist/src/cli.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment of a hub on dataDir with MQTT off and the local embedder (no network). */
export const cliEnv = (dataDir: string, extra: Record<string, string> = {}): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  HEARTH_DATA_DIR: dataDir,
  HEARTH_MQTT_MODE: 'off',
  MEMORY_AI_PROVIDER: 'local',
  HEARTH_TZ: 'UTC',
  HEARTH_LOG_LEVEL: 'warn',
  ...extra,
});

/** Runs the CLI to its end (or kills it after timeoutMs). `prefix` runs it through e.g. setpriv. */
export function runCli(
  args: string[],
  env: Record<string, string>,
  opts: SpawnOptions & { timeoutMs?: number; prefix?: string[] } = {},
): Promise<CliResult> {
  const [cmd, ...pre] = opts.prefix ?? [process.execPath];
  const argv = opts.prefix ? [...pre, process.execPath, CLI, ...args] : [CLI, ...args];
  const child = spawn(cmd, argv, { ...opts, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}

/** True when the text is one line and carries no stack trace. */
export const oneLine = (text: string) => text.trim().split('\n').length === 1 && !/^\s+at /m.test(text);

/**
 * `dir`, made (0700) if missing: only `serve` and `mcp` create a data dir, every other command
 * refuses a missing one (issue #26 item 15), so a test running those first makes it as an install would.
 */
export const made = (dir: string): string => (mkdirSync(dir, { recursive: true, mode: 0o700 }), dir);
