/**
 * Where the database lives, the same for every command (`serve`, `mcp`, `doctor`, `backup`,
 * `restore`, `reembed`, …) and never dependent on the caller's working directory:
 *   1. `HEARTH_DATA_DIR` (relative: against the working directory it was typed in),
 *   2. the config file's `data_dir` (relative: against the config file's directory),
 *   3. the default: `/var/lib/hearth` once installed (`/etc/hearth/config.toml` exists, as
 *      `deploy/install.sh` sets up), otherwise `<package root>/data` (a dev checkout's `./data`).
 * See docs/operations.md.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const INSTALLED_CONFIG = '/etc/hearth/config.toml';
export const INSTALLED_DATA_DIR = '/var/lib/hearth';

/** The directory holding Hearth's package.json (src/config → ../.., dist/src/config → ../../..). */
export function packageRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(from, '../..');
  }
}

export interface DataDirSources {
  /** HEARTH_DATA_DIR or a CLI/test override. */
  env?: string;
  /** `data_dir` as written in the config file, and that file's path. */
  file?: { value: string; path: string };
  cwd?: string;
  installed?: boolean;
  root?: string;
}

export function resolveDataDir(s: DataDirSources): string {
  const cwd = s.cwd ?? process.cwd();
  if (s.env) return resolve(cwd, s.env);
  if (s.file)
    return isAbsolute(s.file.value) ? s.file.value : resolve(dirname(resolve(cwd, s.file.path)), s.file.value);
  if (s.installed ?? existsSync(INSTALLED_CONFIG)) return INSTALLED_DATA_DIR;
  return join(s.root ?? packageRoot(), 'data');
}

/**
 * Commands that may create a missing data dir: they are how an install starts. Every other command
 * works on a household's existing data, so a missing dir is a mistyped `HEARTH_DATA_DIR` or
 * `data_dir` — creating an empty database there would make `backup` copy nothing and `doctor`
 * report a healthy empty install (issue #26 item 15). `mcp-config` only prints a snippet.
 */
const MAY_CREATE = new Set(['serve', 'mcp', 'mcp-config']);

/**
 * Why `command` must not run on `dir`, as one line with the fix, or undefined. A file in place of
 * the dir is refused here for the commands that do not create one (serve and mcp name it when
 * they open the database, src/db/errors.ts). Permission problems are left to the open, which names them.
 */
export function dataDirProblem(command: string, dir: string): string | undefined {
  if (MAY_CREATE.has(command) || dir === ':memory:') return undefined;
  const fix = 'set HEARTH_DATA_DIR (or data_dir in the config file) to the directory `hearth serve` uses';
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') {
      // A file on the way (`/etc/hostname/hearth`): name it.
      let up = dirname(dir);
      while (!existsSync(up) && dirname(up) !== up) up = dirname(up);
      return `${command}: data dir ${dir}: ${up} is not a directory; ${fix}`;
    }
    if (code !== 'ENOENT') return undefined;
    return `${command}: data dir ${dir} does not exist; ${fix} — only \`hearth serve\` or \`hearth mcp\` creates a new one`;
  }
  if (!isDir) return `${command}: data dir ${dir} is not a directory; ${fix}`;
  return undefined;
}
