/**
 * Where the database lives, the same for every command (`serve`, `mcp`, `doctor`, `backup`,
 * `restore`, `reembed`, …) and never dependent on the caller's working directory:
 *   1. `HEARTH_DATA_DIR` (relative: against the working directory it was typed in),
 *   2. the config file's `data_dir` (relative: against the config file's directory),
 *   3. the default: `/var/lib/hearth` once installed (`/etc/hearth/config.toml` exists, as
 *      `deploy/install.sh` sets up), otherwise `<package root>/data` (a dev checkout's `./data`).
 * See docs/operations.md.
 */
import { existsSync } from 'node:fs';
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
  if (s.file) return isAbsolute(s.file.value) ? s.file.value : resolve(dirname(resolve(cwd, s.file.path)), s.file.value);
  if (s.installed ?? existsSync(INSTALLED_CONFIG)) return INSTALLED_DATA_DIR;
  return join(s.root ?? packageRoot(), 'data');
}
