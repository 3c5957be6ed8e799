/**
 * Issue #26 item 15: a mistyped data dir must not look like a healthy empty install. Only `serve`
 * and `mcp` create a missing data dir; every other command refuses it in one line naming the dir
 * and the fix, and creates nothing. A file where the dir should be is one line too, never a stack.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDirProblem } from '../../src/config/data-dir.js';
import { tempDir } from '../helpers/hub.js';
import { cliEnv, oneLine, runCli } from '../helpers/cli.js';

describe('a missing data dir', { timeout: 120_000 }, () => {
  it('backup and doctor refuse it in one line and create nothing (neither the dir nor the backup)', async () => {
    const root = tempDir();
    const dir = join(root, 'nonexistent', 'hearth');
    const env = cliEnv(dir);
    const backup = await runCli(['backup', join(root, 'b.db')], env);
    expect(backup.code).toBe(1);
    expect(backup.stdout).toBe('');
    expect(oneLine(backup.stderr)).toBe(true);
    expect(backup.stderr).toContain(`data dir ${dir} does not exist`);
    expect(backup.stderr).toContain('HEARTH_DATA_DIR');
    const doctor = await runCli(['doctor'], env);
    expect(doctor.code).toBe(1);
    expect(oneLine(doctor.stderr)).toBe(true);
    expect(doctor.stderr).toContain(`data dir ${dir} does not exist`);
    expect(existsSync(join(root, 'nonexistent'))).toBe(false);
    expect(existsSync(join(root, 'b.db'))).toBe(false);
  });

  it('a file in place of the data dir: doctor answers one line, no ENOTDIR stack', async () => {
    const file = join(tempDir(), 'hostname');
    writeFileSync(file, 'pi\n');
    const r = await runCli(['doctor'], cliEnv(file));
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr), r.stderr).toBe(true);
    expect(r.stderr).toContain(`data dir ${file} is not a directory`);
  });

  it('which commands may create one: serve and mcp only', () => {
    const missing = join(tempDir(), 'nope');
    for (const cmd of ['serve', 'mcp', 'mcp-config']) expect(dataDirProblem(cmd, missing)).toBeUndefined();
    for (const cmd of [
      'doctor',
      'backup',
      'restore',
      'reembed',
      'patterns',
      'prune',
      'import',
      'export-markdown',
      'import-markdown',
    ]) {
      expect(dataDirProblem(cmd, missing), cmd).toContain('does not exist');
    }
    expect(dataDirProblem('doctor', ':memory:')).toBeUndefined();
  });

  // Issue #35 item 13: a data dir that cannot be made is one line with the fix, and no retry loop.
  it('serve on a data dir behind a dangling symlink (a drive not mounted): one line naming the link, nothing created', async () => {
    const root = tempDir();
    const usb = join(root, 'media', 'usb', 'hearth');
    const link = join(root, 'hearth-data');
    symlinkSync(usb, link);
    for (const dir of [link, join(link, 'db')]) {
      const r = await runCli(['serve'], cliEnv(dir), { timeoutMs: 60_000 });
      expect(r.signal).toBeNull();
      expect(r.code).toBe(1);
      expect(oneLine(r.stderr), r.stderr).toBe(true);
      expect(r.stderr).toContain(`${link} is a symbolic link to ${usb}, which does not exist`);
      expect(r.stderr).toContain('HEARTH_DATA_DIR');
    }
    expect(existsSync(join(root, 'media'))).toBe(false);
  });

  it('serve --data-dir /proc/hearth-data: one line and exit, not an endless mkdir', async () => {
    const r = await runCli(['serve', '--data-dir', '/proc/hearth-data'], cliEnv(tempDir()), { timeoutMs: 60_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr), r.stderr).toBe(true);
    expect(r.stderr).toContain('cannot create /proc/hearth-data: /proc does not allow new directories');
  });
});
