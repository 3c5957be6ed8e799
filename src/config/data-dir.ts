/**
 * Where the database lives, the same for every command (`serve`, `mcp`, `doctor`, `backup`,
 * `restore`, `reembed`, …) and never dependent on the caller's working directory:
 *   1. `HEARTH_DATA_DIR` (relative: against the working directory it was typed in),
 *   2. the config file's `data_dir` (relative: against the config file's directory),
 *   3. the default: `/var/lib/hearth` once installed (`/etc/hearth/config.toml` exists, as
 *      `deploy/install.sh` sets up); in a source checkout (`tsconfig.json` beside package.json, where
 *      `npm start` runs) `<checkout>/data` (SPEC §1); anywhere else — the release installed with npm,
 *      into a folder's node_modules or globally — the XDG data dir `$XDG_DATA_HOME/hearth`
 *      (`~/.local/share/hearth`), never inside the package, which npm deletes on every upgrade
 *      (issue #35 item 1). `serve` and `mcp` refuse a data dir inside node_modules.
 * See docs/operations.md.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
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
  /** `XDG_DATA_HOME` and `HOME` (default: this process's). */
  xdgDataHome?: string;
  home?: string;
}

/** True when `path` lies inside a `node_modules` folder, which npm replaces on every install or upgrade. */
export const insideNodeModules = (path: string): boolean => resolve(path).split(sep).includes('node_modules');

/** A source checkout (TypeScript config beside package.json, never shipped in the release), not an installed package. */
export const isCheckout = (root: string): boolean =>
  existsSync(join(root, 'tsconfig.json')) && !insideNodeModules(root);

/** The XDG base directory spec's data dir for Hearth: `$XDG_DATA_HOME/hearth`, else `~/.local/share/hearth`. */
export function xdgDataDir(xdgDataHome = process.env.XDG_DATA_HOME, home = process.env.HOME || homedir()): string {
  // The spec: a relative XDG_DATA_HOME is invalid and ignored.
  if (xdgDataHome && isAbsolute(xdgDataHome)) return join(xdgDataHome, 'hearth');
  return join(home, '.local', 'share', 'hearth');
}

export function resolveDataDir(s: DataDirSources): string {
  const cwd = s.cwd ?? process.cwd();
  if (s.env) return resolve(cwd, s.env);
  if (s.file)
    return isAbsolute(s.file.value) ? s.file.value : resolve(dirname(resolve(cwd, s.file.path)), s.file.value);
  if (s.installed ?? existsSync(INSTALLED_CONFIG)) return INSTALLED_DATA_DIR;
  const root = s.root ?? packageRoot();
  if (isCheckout(root)) return join(root, 'data');
  return xdgDataDir(s.xdgDataHome ?? process.env.XDG_DATA_HOME, s.home || process.env.HOME || homedir());
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
  if (dir === ':memory:') return undefined;
  if ((command === 'serve' || command === 'mcp') && inNodeModules(dir))
    return `${command}: data dir ${dir} is inside node_modules, which npm deletes on every install or upgrade of the package; keep the database outside it: set HEARTH_DATA_DIR (or data_dir in the config file) to e.g. ${xdgDataDir()} (to keep this one: stop hearth, mv ${dir} ${xdgDataDir()})`;
  if (MAY_CREATE.has(command)) return undefined;
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

/** `dir`, or the nearest part of it that exists with its links resolved, lies inside node_modules. */
function inNodeModules(dir: string): boolean {
  let up = resolve(dir);
  if (insideNodeModules(up)) return true;
  while (!existsSync(up) && dirname(up) !== up) up = dirname(up);
  try {
    return insideNodeModules(realpathSync(up));
  } catch {
    return false;
  }
}
