/** The CLI doors of issue 15, run as a person would: the built `hearth` binary in a temp data dir. */
import { execFile } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/hub.js';
import { made } from '../helpers/cli.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/src/cli.js');
const FIXTURE = fileURLToPath(new URL('../../../shared/fixtures/memory-mcp/household.db', import.meta.url));

describe('hearth import / export-markdown / import-markdown', () => {
  it('imports the fixture (dry run first, then for real, then 0), exports notes and reads an edit back', async () => {
    const dir = tempDir();
    const env = { PATH: process.env.PATH ?? '', HEARTH_DATA_DIR: made(join(dir, 'data')), HEARTH_MQTT_MODE: 'off', MEMORY_AI_PROVIDER: 'local', HEARTH_TZ: 'UTC' };
    const hearth = (...args: string[]) => run(process.execPath, [CLI, ...args], { cwd: dir, env });
    copyFileSync(FIXTURE, join(dir, 'household.db'));

    const dry = await hearth('import', 'memory-mcp', 'household.db', '--dry-run');
    expect(dry.stdout).toContain('Dry run: would import 2166 rows');
    expect(dry.stdout).toContain('memories: 52 in source, 52 to import');
    expect(dry.stderr).toContain(join(dir, 'data'));
    const real = await hearth('import', 'memory-mcp', 'household.db');
    expect(real.stdout).toContain('Imported 2166 rows');
    expect(real.stdout).toContain('(52 memories embedded)');
    expect((await hearth('import', 'memory-mcp', 'household.db')).stdout).toContain('Imported 0 rows');

    await hearth('export-markdown', 'vault');
    expect(readdirSync(join(dir, 'vault')).sort()).toEqual(['Brian.md', 'Sarah.md', 'bedroom.md', 'keys.md', 'kitchen.md', 'living_room.md', 'thermostat.md']);
    const sarah = join(dir, 'vault', 'Sarah.md');
    writeFileSync(sarah, readFileSync(sarah, 'utf8').replace('on Fridays', 'on Thursdays'));
    const imported = await hearth('import-markdown', 'vault');
    expect(imported.stdout).toContain('0 memories added, 1 superseded');
    expect((await hearth('import-markdown', 'vault')).stdout).toContain('0 memories added, 0 superseded, 0 reinforced');

    await expect(hearth('import', 'mem0', 'x.db')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('unknown source "mem0"') });
  }, 120_000);
});
