/**
 * An entity's other names travel with its Markdown note as Obsidian's `aliases:` front matter: the
 * export writes them, an import adds the ones the hub lacks, and never takes a name from another
 * entity or brings back one the household removed after the export.
 */
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { parseEntity } from '../../src/io/markdown/format.js';
import { buildTestHub, get, post, rememberByHand, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
async function exportAll() {
  const res = await hub.app.inject({ method: 'GET', url: '/export/markdown' });
  return Object.entries(unzipSync(new Uint8Array(res.rawPayload))).map(([path, b]) => ({
    path,
    content: strFromU8(b),
  }));
}
const brian = async () => (await exportAll()).find((f) => f.path === 'Brian.md')!;
const aliasesOf = async (name: string) =>
  (await get(hub, `/aliases/${encodeURIComponent(name)}`)).body.aliases.map((a: { alias: string }) => a.alias);

beforeEach(async () => {
  hub = await buildTestHub();
  await rememberByHand(hub, 'Brian', 'Brian keeps the bedroom at 68°F at night', {
    category: 'preference',
    entity_type: 'person',
  });
  await rememberByHand(hub, 'Rosa', 'Rosa walks the dog at 7', { category: 'routine', entity_type: 'person' });
  expect((await post(hub, '/alias', { entity_name: 'Brian', alias: 'Dad' })).status).toBe(200);
});
afterEach(async () => hub.close());

it('the export writes aliases in the front matter, and they parse back', async () => {
  const f = await brian();
  expect(f.content).toMatch(/^aliases:\n {2}- Dad$/m);
  expect(parseEntity(f.content, 'Brian').aliases).toEqual(['Dad']);
  // An entity with no other names gets no empty list.
  expect((await exportAll()).find((x) => x.path === 'Rosa.md')!.content).not.toContain('aliases');
});

it('a name added in the vault becomes an alias once, and the import says so', async () => {
  const f = await brian();
  const edited = f.content.replace('  - Dad\n', '  - Dad\n  - Bri\n');
  const r = await post(hub, '/import/markdown', { files: [{ path: f.path, content: edited }] });
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ aliases_added: 1, conflicts: [] });
  expect(r.body.result).toContain('1 other name added');
  expect((await aliasesOf('Brian')).sort()).toEqual(['Bri', 'Dad']);
  // "Bri" now finds Brian's memories.
  expect(
    (await post(hub, '/recall', { query: 'bedroom temperature', entity_name: 'Bri' })).body.results[0].entity_name,
  ).toBe('Brian');
  const again = await post(hub, '/import/markdown', { files: [{ path: f.path, content: edited }] });
  expect(again.body.aliases_added).toBe(0);
});

it("Obsidian's one-string form is read too; a bad name is a line error, not a 5xx", async () => {
  const note = '---\nname: Rosa\naliases: Mum\n---\n# Rosa\n';
  const r = await post(hub, '/import/markdown', { files: [{ path: 'Rosa.md', content: note }] });
  expect(r.body.aliases_added).toBe(1);
  expect(await aliasesOf('Rosa')).toEqual(['Mum']);
  const bad = await post(hub, '/import/markdown', {
    files: [{ path: 'Rosa.md', content: `---\nname: Rosa\naliases: ["${'x'.repeat(300)}"]\n---\n` }],
  });
  expect(bad.status).toBe(200);
  expect(bad.body.errors).toEqual([
    expect.objectContaining({ file: 'Rosa.md', line: 1, message: expect.stringContaining('aliases:') }),
  ]);
});

it("a name that is another entity's is a conflict and changes nothing", async () => {
  const f = await brian();
  const r = await post(hub, '/import/markdown', {
    files: [{ path: f.path, content: f.content.replace('  - Dad\n', '  - Dad\n  - Rosa\n') }],
  });
  expect(r.body.aliases_added).toBe(0);
  expect(r.body.conflicts).toEqual([
    expect.objectContaining({
      file: 'Brian.md',
      entity_name: 'Brian',
      reason: 'alias_taken',
      message: expect.stringContaining('"Rosa" is a name of Rosa'),
    }),
  ]);
  expect(await aliasesOf('Brian')).toEqual(['Dad']);
});

it('an alias removed in the hub after the export is not added back by the old note', async () => {
  const f = await brian();
  expect((await post(hub, '/unalias', { alias: 'Dad' })).status).toBe(200);
  const r = await post(hub, '/import/markdown', { files: [f] });
  expect(r.body.aliases_added).toBe(0);
  expect(r.body.conflicts).toEqual([
    expect.objectContaining({ reason: 'stale', message: expect.stringContaining('"Dad" was removed') }),
  ]);
  expect(await aliasesOf('Brian')).toEqual([]);
  // A note exported after the removal, edited to add it again, is the household's new wish.
  const fresh = await brian();
  const back = fresh.content.replace('type: person', 'aliases:\n  - Dad\ntype: person');
  expect(
    (await post(hub, '/import/markdown', { files: [{ path: fresh.path, content: back }] })).body.aliases_added,
  ).toBe(1);
});
