/** Data in and out: `import memory-mcp <db>`, `export-markdown <dir>`, `import-markdown <dir>`. */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { invalid } from '../lib/errors.js';
import { createHub } from '../main.js';
import type { CommandContext } from './context.js';
import { fileStep, readableDir, sqliteFile, writableDir } from '../tiers/ops/paths.js';

type Hub = Awaited<ReturnType<typeof createHub>>;

/** Opens the hub without listeners or scheduler, runs `fn`, prints its result (or JSON with --json). */
async function withHub(
  ctx: CommandContext,
  fn: (hub: Hub) => Promise<{ result: string }>,
  exclusive = false,
): Promise<number> {
  const hub = await createHub({
    config: { ...ctx.config, http: { ...ctx.config.http, enabled: false } },
    scheduler: false,
    exclusive,
  });
  try {
    process.stderr.write(`hearth: database ${ctx.config.data_dir}/hearth.db\n`);
    const out = await fn(hub);
    process.stdout.write(ctx.flags.json ? `${JSON.stringify(out, null, 2)}\n` : `${out.result}\n`);
    return 0;
  } finally {
    await hub.stop();
  }
}

/**
 * A command's path argument: given, and as `check` (paths.ts) wants it; else a message saying what
 * to give, with the `example`.
 */
function pathArg(
  cmd: string,
  path: string | undefined,
  example: string,
  check: (cmd: string, path: string, example: string) => void,
): string {
  if (!path) throw invalid(`${cmd}: ${example}`);
  check(cmd, path, example);
  return path;
}

export async function importCommand(ctx: CommandContext): Promise<number> {
  const [kind] = ctx.args;
  if (kind !== 'memory-mcp')
    throw invalid(`import: unknown source "${kind ?? ''}"; usage: hearth import memory-mcp <db> [--dry-run]`);
  // Checked before the lock: a typo is not "in use by pid …".
  const path = pathArg(
    'import memory-mcp',
    ctx.args[1],
    'give the memory-mcp database file, e.g. hearth import memory-mcp ~/memory-mcp/memory.db',
    sqliteFile,
  );
  // Like restore, an import needs the data dir to itself (SPEC §1): a running serve or mcp is named and refused.
  return withHub(ctx, (hub) => hub.services.memoryMcpImport.run(path, { dryRun: Boolean(ctx.flags['dry-run']) }), true);
}

/**
 * Writes `name` directly inside `root` (a realpath) without following any link: the content goes to a
 * new temp file in the vault (O_EXCL|O_NOFOLLOW: never an existing file or link), which is then
 * renamed over the note — rename(2) replaces a symlink itself, never the file it points to — so a
 * link planted in a shared vault cannot make the export overwrite a file outside it.
 */
function writeInside(root: string, name: string, content: string): void {
  const target = join(root, name);
  if (dirname(target) !== root || basename(target) !== name)
    throw invalid(`export-markdown: refusing to write outside ${root}: ${name}`);
  const tmp = join(root, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(
    tmp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
    0o600,
  );
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * `hearth export-markdown <dir>`: one .md per entity; names are sanitised, so every file lands inside
 * dir. Notes it wrote earlier for entities forgotten, merged or renamed since are deleted (SECURITY.md "Markdown sync").
 */
export async function exportMarkdownCommand(ctx: CommandContext): Promise<number> {
  const dir = pathArg(
    'export-markdown',
    ctx.args[0],
    'give a directory (created if missing), e.g. hearth export-markdown ~/vault/Hearth',
    writableDir,
  );
  return withHub(ctx, async (hub) => {
    fileStep('export-markdown', 'write', () => mkdirSync(resolve(dir), { recursive: true, mode: 0o700 }));
    const root = fileStep('export-markdown', 'read', () => realpathSync(resolve(dir)));
    const files = hub.services.markdown.exportAll();
    for (const f of files) fileStep('export-markdown', 'write', () => writeInside(root, f.path, f.content));
    const written = new Set(files.map((f) => f.path));
    const notes = fileStep('export-markdown', 'read', () => markdownFiles(root)).filter((n) => !written.has(n.path));
    const removed = hub.services.markdown.staleNotes(notes);
    for (const p of removed) fileStep('export-markdown', 'write', () => unlinkSync(join(root, p)));
    const gone = removed.length
      ? `; removed ${removed.length} notes of entities forgotten, merged or renamed since (${removed.join(', ')})`
      : '';
    return {
      result: `Exported ${files.length} entities to ${root}${gone}`,
      dir: root,
      files: files.map((f) => f.path),
      removed,
    };
  });
}

/** `.md` files under dir, skipping hidden folders such as Obsidian's `.obsidian/`; links are not followed (a Dirent of a link is neither). */
function markdownFiles(
  dir: string,
  out: { path: string; content: string }[] = [],
  rel = '',
): { path: string; content: string }[] {
  for (const d of readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (d.name.startsWith('.')) continue;
    const p = rel ? `${rel}/${d.name}` : d.name;
    if (d.isDirectory()) markdownFiles(dir, out, p);
    else if (d.isFile() && d.name.toLowerCase().endsWith('.md'))
      out.push({ path: p, content: readFileSync(join(dir, p), 'utf8') });
  }
  return out;
}

/** `hearth import-markdown <dir> [--delete-missing]`. */
export async function importMarkdownCommand(ctx: CommandContext): Promise<number> {
  const dir = pathArg(
    'import-markdown',
    ctx.args[0],
    'give the directory the notes are in, e.g. hearth import-markdown ~/vault/Hearth',
    readableDir,
  );
  const files = fileStep('import-markdown', 'read', () => markdownFiles(resolve(dir)));
  if (!files.length) throw invalid(`import-markdown: no .md files in ${resolve(dir)}`);
  return withHub(ctx, (hub) =>
    hub.services.markdown.importFiles({ files, delete_missing: Boolean(ctx.flags['delete-missing']) }),
  );
}
