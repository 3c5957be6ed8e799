/**
 * Issue #26 item 15: a mistyped data dir must not look like a healthy empty install. Only `serve`
 * and `mcp` create a missing data dir; every other command refuses it in one line naming the dir
 * and the fix, and creates nothing. A file where the dir should be is one line too, never a stack.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
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
});
