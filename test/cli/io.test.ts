/** The CLI doors of issue 15, run as a person would: the built `hearth` binary in a temp data dir. */
import { execFile } from 'node:child_process';
import { copyFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FIXTURE } from '../io/fixture.js';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { buildTestHub, rememberByHand, tempDir } from '../helpers/hub.js';
import { made } from '../helpers/cli.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/src/cli.js');

describe('hearth import / export-markdown / import-markdown', () => {
  it('imports the fixture (dry run first, then for real, then 0), exports notes and reads an edit back', async () => {
    const dir = tempDir();
    const env = {
      PATH: process.env.PATH ?? '',
      HEARTH_DATA_DIR: made(join(dir, 'data')),
      HEARTH_MQTT_MODE: 'off',
      MEMORY_AI_PROVIDER: 'local',
      HEARTH_TZ: 'UTC',
    };
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
    expect(readdirSync(join(dir, 'vault')).sort()).toEqual([
      'Brian.md',
      'Sarah.md',
      'bedroom.md',
      'keys.md',
      'kitchen.md',
      'living_room.md',
      'thermostat.md',
    ]);
    const sarah = join(dir, 'vault', 'Sarah.md');
    writeFileSync(sarah, readFileSync(sarah, 'utf8').replace('on Fridays', 'on Thursdays'));
    const imported = await hearth('import-markdown', 'vault');
    expect(imported.stdout).toContain('0 memories added, 1 superseded');
    expect((await hearth('import-markdown', 'vault')).stdout).toContain('0 memories added, 0 superseded, 0 reinforced');

    await expect(hearth('import', 'mem0', 'x.db')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown source "mem0"'),
    });
  }, 120_000);

  it('export-markdown never follows a link out of the vault, removes only its own notes of forgotten entities; import-markdown reports stale notes', async () => {
    const dir = tempDir();
    const env = {
      PATH: process.env.PATH ?? '',
      HEARTH_DATA_DIR: join(dir, 'data'),
      HEARTH_MQTT_MODE: 'off',
      MEMORY_AI_PROVIDER: 'local',
      HEARTH_TZ: 'UTC',
    };
    const hearth = (...args: string[]) => run(process.execPath, [CLI, ...args], { cwd: dir, env });
    const inHub = async (fn: (h: Awaited<ReturnType<typeof buildTestHub>>) => Promise<unknown>) => {
      const h = await buildTestHub({ dir });
      try {
        await fn(h);
      } finally {
        await h.close();
      }
    };
    await inHub(async (h) => {
      await rememberByHand(h, 'Brian', 'Brian keeps the bedroom at 68°F at night', {
        category: 'preference',
        entity_type: 'person',
        fact_key: 'bedroom_temp',
      });
      await rememberByHand(h, 'door code', 'The back door code is 4711', { entity_type: 'object' });
    });
    // A link planted in the vault where the export writes Brian.md, pointing at a file outside it.
    const vault = join(dir, 'vault');
    mkdirSync(vault);
    writeFileSync(join(dir, 'outside.txt'), "not the vault's");
    symlinkSync(join(dir, 'outside.txt'), join(vault, 'Brian.md'));
    writeFileSync(join(vault, 'groceries.md'), '# groceries\n- oat milk\n'); // the household's own note: never deleted
    await hearth('export-markdown', 'vault');
    expect(readFileSync(join(dir, 'outside.txt'), 'utf8')).toBe("not the vault's");
    expect(lstatSync(join(vault, 'Brian.md')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(vault, 'Brian.md'), 'utf8')).toContain('68°F');
    expect(readdirSync(vault).sort()).toEqual(['Brian.md', 'door code.md', 'groceries.md']); // no temp files left

    // On a phone: the door code is forgotten, the bedroom corrected.
    await inHub(async (h) => {
      h.services.memory.forget({ entity_name: 'door code' }, 'http');
      await h.services.memory.remember(
        {
          entity_name: 'Brian',
          fact: 'Brian keeps the bedroom at 66°F at night',
          category: 'preference',
          confidence: 1,
          source: 'conversation',
          fact_key: 'bedroom_temp',
        },
        'mcp',
      );
    });
    const stale = await hearth('import-markdown', 'vault');
    expect(stale.stdout).toContain('2 conflicts, not applied');
    expect(stale.stdout).toContain('door code.md: door code was forgotten in the hub');
    expect(stale.stdout).toMatch(/Brian\.md:\d+: memory \d+ was changed in the hub/);

    const again = await hearth('export-markdown', 'vault');
    expect(again.stdout).toContain('removed 1 notes of entities forgotten, merged or renamed since (door code.md)');
    expect(readdirSync(vault).sort()).toEqual(['Brian.md', 'groceries.md']);
    const clean = await hearth('import-markdown', 'vault');
    expect(clean.stdout).not.toContain('conflicts');
    expect(clean.stdout).toContain('0 superseded');
    await inHub(async (h) => {
      expect(h.services.entities.find('door code')).toBeUndefined();
      expect(
        h.db.prepare("SELECT fact FROM memories WHERE fact_key = 'bedroom_temp' AND status = 'active'").all(),
      ).toEqual([{ fact: 'Brian keeps the bedroom at 66°F at night' }]);
    });
  }, 120_000);

  it('issue 35 item 2: export, merge Bryan into Brian, export again: the old Bryan.md goes, and import-markdown --delete-missing forgets nothing', async () => {
    const dir = tempDir();
    const env = {
      PATH: process.env.PATH ?? '',
      HEARTH_DATA_DIR: join(dir, 'data'),
      HEARTH_MQTT_MODE: 'off',
      MEMORY_AI_PROVIDER: 'local',
      HEARTH_TZ: 'UTC',
    };
    const hearth = (...args: string[]) => run(process.execPath, [CLI, ...args], { cwd: dir, env });
    const facts = async () => {
      const h = await buildTestHub({ dir });
      try {
        return h.db.prepare("SELECT fact FROM memories WHERE status = 'active' ORDER BY fact").pluck().all();
      } finally {
        await h.close();
      }
    };
    const h = await buildTestHub({ dir });
    try {
      await rememberByHand(h, 'Brian', 'Brian likes strong coffee', { entity_type: 'person' });
      await rememberByHand(h, 'Bryan', 'Bryan plays the trumpet on Sundays', { entity_type: 'person' });
    } finally {
      await h.close();
    }
    await hearth('export-markdown', 'vault');
    const m = await buildTestHub({ dir });
    try {
      await m.services.manage.merge({ source_name: 'Bryan', target_name: 'Brian', dry_run: false }, 'cli');
    } finally {
      await m.close();
    }
    const all = await facts();
    expect(all).toHaveLength(2);
    // before the new export: both notes resolve to Brian — a conflict, nothing forgotten
    const both = await hearth('import-markdown', 'vault', '--delete-missing');
    expect(both.stdout).toContain('2 conflicts, not applied');
    expect(both.stdout).toContain('0 forgotten');
    const again = await hearth('export-markdown', 'vault');
    expect(again.stdout).toContain('removed 1 notes of entities forgotten, merged or renamed since (Bryan.md)');
    expect(readdirSync(join(dir, 'vault'))).toEqual(['Brian.md']);
    const sync = await hearth('import-markdown', 'vault', '--delete-missing');
    expect(sync.stdout).toContain('0 missing from the files (0 forgotten)');
    expect(sync.stdout).not.toContain('conflicts');
    expect(await facts()).toEqual(all);
  }, 120_000);

  it('import memory-mcp reports bad rows one line each (table, source id, reason), no stack, and imports the rest', async () => {
    const dir = tempDir();
    const env = {
      PATH: process.env.PATH ?? '',
      HEARTH_DATA_DIR: made(join(dir, 'data')),
      HEARTH_MQTT_MODE: 'off',
      MEMORY_AI_PROVIDER: 'local',
      HEARTH_TZ: 'UTC',
    };
    copyFileSync(FIXTURE, join(dir, 'bad.db'));
    const src = new Database(join(dir, 'bad.db'));
    src
      .prepare(
        "INSERT INTO entities (id, name, type, meta, created, updated) VALUES (100, ?, 'person', '{}', 1764465000, 1764465000)",
      )
      .run('n'.repeat(5000));
    src
      .prepare(
        "INSERT INTO memories (id, entity_id, fact, category, confidence, source, created, updated, source_trust) VALUES (200, 1, ?, 'general', 1, 'api', 1764465000, 1764465000, 5)",
      )
      .run('f'.repeat(1_200_000));
    src.close();
    const out = await run(process.execPath, [CLI, 'import', 'memory-mcp', 'bad.db'], { cwd: dir, env });
    expect(out.stdout).toContain('Imported 2166 rows');
    expect(out.stdout).toContain('2 rows skipped, one line each (table, source id, reason):');
    expect(out.stdout).toMatch(/\n {2}entities 100: name: [^\n]*200[^\n]*\n {2}memories 200: fact: [^\n]*4000/);
    expect(out.stderr).not.toMatch(/SqliteError|\n\s+at /);
  }, 60_000);
});
