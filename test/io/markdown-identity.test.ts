/**
 * Issue 35 items 2–3: the Markdown sync after a merge or a rename. Two notes that resolve to one
 * entity (by name, alias or the entity their `hearth:` block names) are a reported conflict and
 * neither is applied; a note of an entity merged away is never applied; a note exported before a
 * merge into its entity never forgets, with delete_missing, what the merge brought; and the export
 * names the notes of merged-away and renamed entities for removal (`hearth export-markdown` deletes them).
 */
import { strFromU8, unzipSync } from 'fflate';
import { beforeEach, describe, expect, it } from 'vitest';
import { hubForEachTest, post, rememberByHand, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
type File = { path: string; content: string };
const n = (sql: string) => hub.db.prepare(sql).pluck().get() as number;
/** Rows an import could change: memories, entities, relations, the audit log. */
const state = () =>
  n(
    'SELECT (SELECT count(*) FROM memories) + (SELECT count(*) FROM entities) + (SELECT count(*) FROM relations) + (SELECT count(*) FROM audit)',
  );
const activeFacts = () =>
  hub.db.prepare("SELECT fact FROM memories WHERE status = 'active' ORDER BY fact").pluck().all() as string[];

async function exportAll(): Promise<File[]> {
  const res = await hub.app.inject({ method: 'GET', url: '/export/markdown' });
  return Object.entries(unzipSync(new Uint8Array(res.rawPayload))).map(([path, b]) => ({
    path,
    content: strFromU8(b),
  }));
}
const file = (files: File[], path: string) => ({ ...files.find((f) => f.path === path)! });
const importFiles = async (files: File[], delete_missing = false) =>
  (await post(hub, '/import/markdown', { files, delete_missing })).body;

hubForEachTest((h) => (hub = h));
beforeEach(async () => {
  await rememberByHand(hub, 'Brian', 'Brian keeps the bedroom at 68°F at night', {
    category: 'preference',
    entity_type: 'person',
    fact_key: 'bedroom_temp',
  });
  await rememberByHand(hub, 'Brian', 'Brian takes a blood-pressure pill at 8am', { category: 'routine' });
  await rememberByHand(hub, 'Bryan', 'Bryan plays the trumpet on Sundays', { entity_type: 'person' });
  await rememberByHand(hub, 'Bryan', 'Bryan is allergic to cats', { entity_type: 'person' });
});

describe('merge, then sync (item 2)', () => {
  it('export, merge Bryan into Brian, export again: the old Bryan.md beside the new Brian.md is a conflict, and --delete-missing forgets nothing', async () => {
    const first = await exportAll();
    expect((await post(hub, '/entities/merge', { source_name: 'Bryan', target_name: 'Brian' })).status).toBe(200);
    const second = await exportAll();
    expect(second.map((f) => f.path)).toEqual(['Brian.md']);
    // the vault: the new Brian.md, and Bryan.md left from the first export
    const vault = [file(second, 'Brian.md'), file(first, 'Bryan.md')];
    const facts = activeFacts();
    const before = state();
    const r = await importFiles(vault, true);
    expect(r).toMatchObject({ deleted: 0, superseded: 0, added: 0 });
    expect(r.conflicts.map((c: { file: string; reason: string }) => [c.file, c.reason])).toEqual([
      ['Brian.md', 'duplicate_file'],
      ['Bryan.md', 'duplicate_file'],
    ]);
    expect(r.conflicts[1].message).toContain('Bryan (now merged into Brian) is also named by Brian.md');
    expect(r.result).toContain('2 conflicts, not applied');
    expect(activeFacts()).toEqual(facts);
    expect(state()).toBe(before);

    // the export names the old note for removal; the vault without it syncs cleanly
    expect(hub.services.markdown.staleNotes(vault)).toEqual(['Bryan.md']);
    const clean = await importFiles([file(second, 'Brian.md')], true);
    expect(clean).toMatchObject({ deleted: 0, missing: [], conflicts: [] });
    expect(activeFacts()).toEqual(facts);
  });

  it('a note of the merged-away entity alone is never applied; a note of the target exported before the merge forgets none of what the merge brought', async () => {
    const first = await exportAll();
    await post(hub, '/entities/merge', { source_name: 'Bryan', target_name: 'Brian' });
    const facts = activeFacts();
    const bryan = await importFiles([file(first, 'Bryan.md')], true);
    expect(bryan).toMatchObject({ files: 0, deleted: 0, unchanged: 0 });
    expect(bryan.conflicts).toEqual([
      expect.objectContaining({
        file: 'Bryan.md',
        reason: 'merged',
        message: expect.stringContaining('Bryan was merged into Brian in the hub after this note was exported'),
      }),
    ]);
    const brian = await importFiles([file(first, 'Brian.md')], true);
    expect(brian.deleted).toBe(0);
    expect(brian.missing.map((m: { fact: string }) => m.fact).sort()).toEqual([
      'Bryan is allergic to cats',
      'Bryan plays the trumpet on Sundays',
    ]);
    expect(brian.conflicts).toEqual([
      expect.objectContaining({
        file: 'Brian.md',
        reason: 'merged',
        message: expect.stringContaining('the 2 facts the note lacks were kept, not forgotten'),
      }),
    ]);
    expect(activeFacts()).toEqual(facts);
    // a note exported after the merge deletes what the household deleted, as before
    const fresh = file(await exportAll(), 'Brian.md');
    fresh.content = fresh.content.replace(/^- Bryan is allergic to cats.*\n/m, '');
    expect(await importFiles([fresh], true)).toMatchObject({ deleted: 1, conflicts: [] });
  });
});

describe('a sync-conflict copy never undoes an edit (item 3)', () => {
  it('Brian.md edited 68°F → 64°F and a stale copy naming Brian by an alias, or by its hearth: block under another name: reported, neither applied', async () => {
    await post(hub, '/alias', { entity_name: 'Brian', alias: 'Dad' });
    const real = file(await exportAll(), 'Brian.md');
    const edited = { path: 'Brian.md', content: real.content.replace('68°F', '64°F') };
    for (const copy of [
      { path: 'Brian.sync-conflict-20261201-101500.md', content: real.content.replace('name: Brian', 'name: Dad') },
      { path: 'Brian (conflicted copy).md', content: real.content.replace('name: Brian', 'name: Brian B') },
    ]) {
      const before = state();
      const r = await importFiles([edited, copy]);
      expect(r).toMatchObject({ superseded: 0, added: 0, entities_created: 0 });
      expect(r.conflicts.map((c: { file: string; reason: string }) => [c.file, c.reason]).sort()).toEqual(
        [
          [copy.path, 'duplicate_file'],
          ['Brian.md', 'duplicate_file'],
        ].sort(),
      );
      expect(state()).toBe(before);
      expect(activeFacts()).toContain('Brian keeps the bedroom at 68°F at night');
    }
    // without the copy, the edit applies
    expect(await importFiles([edited])).toMatchObject({ superseded: 1, conflicts: [] });
    expect(activeFacts()).toContain('Brian keeps the bedroom at 64°F at night');
  });
});

describe('rename, then sync (with item 6)', () => {
  it('the note under the old name is named for removal and is a conflict beside the new one; a note whose name the user changed is not removed', async () => {
    const first = await exportAll();
    await post(hub, '/entities/rename', { entity_name: 'Bryan', new_name: 'Bryan Smith' });
    const second = await exportAll();
    const old = file(first, 'Bryan.md');
    expect(hub.services.markdown.staleNotes([old])).toEqual(['Bryan.md']);
    const r = await importFiles([file(second, 'Bryan Smith.md'), old], true);
    expect(r).toMatchObject({ deleted: 0 });
    expect(r.conflicts.map((c: { reason: string }) => c.reason)).toEqual(['duplicate_file', 'duplicate_file']);
    // the user's own rename in the vault is their note: never deleted by the export
    const mine = { path: 'Trumpet player.md', content: old.content.replace('name: Bryan', 'name: Trumpet player') };
    expect(hub.services.markdown.staleNotes([mine])).toEqual([]);
  });
});
