/**
 * Issue 26, items 6–8: a Markdown note never undoes what the household did in the hub after the
 * export. Forgotten entities, memories and relations do not come back; a note over a version the
 * hub has since corrected is a conflict that changes nothing (HTTP and MCP; the CLI in
 * test/cli/io.test.ts); two files naming one entity are reported, neither applied.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { strFromU8, unzipSync } from 'fflate';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/server.js';
import { hubForEachTest, post, rememberByHand, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
const n = (sql: string) => (hub.db.prepare(sql).get() as { n: number }).n;
/** Rows an import could change: memories, entities, relations, the audit log. */
const state = () =>
  n(
    'SELECT (SELECT count(*) FROM memories) + (SELECT count(*) FROM entities) + (SELECT count(*) FROM relations) + (SELECT count(*) FROM audit) AS n',
  );

async function exportAll() {
  const res = await hub.app.inject({ method: 'GET', url: '/export/markdown' });
  return Object.entries(unzipSync(new Uint8Array(res.rawPayload))).map(([path, b]) => ({
    path,
    content: strFromU8(b),
  }));
}
const file = (files: { path: string; content: string }[], path: string) => files.find((f) => f.path === path)!;
const idOf = (content: string, text: string) => Number(new RegExp(`${text}.*\\^m(\\d+)`).exec(content)![1]);

hubForEachTest((h) => (hub = h));
beforeEach(async () => {
  await rememberByHand(hub, 'Brian', 'Brian keeps the bedroom at 68°F at night', {
    category: 'preference',
    entity_type: 'person',
    fact_key: 'bedroom_temp',
  });
  await rememberByHand(hub, 'Brian', 'Brian takes a blood-pressure pill at 8am', {
    category: 'routine',
    entity_type: 'person',
  });
  await rememberByHand(hub, 'door code', 'The back door code is 4711', { entity_type: 'object' });
  hub.services.relations.relate({
    entity_a: 'Brian',
    entity_b: 'door code',
    rel_type: 'knows',
    entity_b_type: 'object',
  });
  hub.services.relations.relate({ entity_a: 'Brian', entity_b: 'kitchen', rel_type: 'uses', entity_b_type: 'room' });
});

describe('forgotten things stay forgotten (item 6)', () => {
  it('an entity forgotten after the export is reported, not re-created — nor by a relation line naming it', async () => {
    const files = await exportAll();
    expect((await post(hub, '/forget', { entity_name: 'door code' })).status).toBe(200);
    const before = state();
    const r = await post(hub, '/import/markdown', { files });
    expect(r.status).toBe(200);
    expect(hub.services.entities.find('door code')).toBeUndefined();
    expect(r.body.conflicts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'door code.md', entity_name: 'door code', reason: 'forgotten' }),
        expect.objectContaining({
          file: 'Brian.md',
          entity_name: 'Brian',
          reason: 'forgotten',
          line: expect.any(Number),
        }),
      ]),
    );
    expect(r.body.result).toContain('conflicts, not applied');
    expect(state()).toBe(before);
  });

  it('a memory forgotten after the export is reported, not remembered again', async () => {
    const files = await exportAll();
    const pill = idOf(file(files, 'Brian.md').content, 'blood-pressure');
    hub.services.memory.forget({ memory_id: pill }, 'http');
    const before = state();
    const r = await post(hub, '/import/markdown', { files });
    expect(r.body).toMatchObject({ added: 0, reinforced: 0, superseded: 0 });
    expect(r.body.conflicts).toEqual([
      expect.objectContaining({
        file: 'Brian.md',
        reason: 'forgotten',
        message: expect.stringContaining(`memory ${pill} was forgotten`),
      }),
    ]);
    expect(n("SELECT count(*) AS n FROM memories WHERE fact LIKE '%blood-pressure%'")).toBe(0);
    expect(state()).toBe(before);
  });

  it('a relation ended after the export is not related again', async () => {
    const files = await exportAll();
    hub.services.relations.unrelate({ entity_a: 'Brian', entity_b: 'kitchen', rel_type: 'uses' }, 'http');
    const before = state();
    const r = await post(hub, '/import/markdown', { files });
    expect(r.body.relations_added).toBe(0);
    expect(r.body.conflicts).toEqual([
      expect.objectContaining({ reason: 'forgotten', message: expect.stringContaining('uses [[kitchen]]') }),
    ]);
    expect(state()).toBe(before);
  });

  it("a note without Hearth's front matter (hand-written) still creates its entity", async () => {
    await post(hub, '/forget', { entity_name: 'door code' });
    const r = await post(hub, '/import/markdown', {
      files: [{ path: 'door code.md', content: '# door code\n\n## Memories\n- The back door code is 1234\n' }],
    });
    expect(r.body).toMatchObject({ entities_created: 1, added: 1, conflicts: [] });
  });
});

describe('a stale note never beats a newer correction (item 7)', () => {
  it('HTTP: the same note, unchanged or edited, over a correction made since is a conflict and changes nothing', async () => {
    const files = await exportAll();
    // The correction on a phone: the assistant stores the new value under the same key.
    await post(hub, '/remember', {
      entity_name: 'Brian',
      fact: 'Brian keeps the bedroom at 66°F at night',
      category: 'preference',
      fact_key: 'bedroom_temp',
    });
    const before = state();
    const stale = await post(hub, '/import/markdown', { files });
    expect(stale.body).toMatchObject({ superseded: 0, added: 0, contested: 0 });
    expect(stale.body.conflicts).toEqual([
      expect.objectContaining({ file: 'Brian.md', reason: 'stale', message: expect.stringContaining('66°F') }),
    ]);
    const brian = file(files, 'Brian.md');
    brian.content = brian.content.replace('68°F', '67°F');
    const edited = await post(hub, '/import/markdown', { files: [brian] });
    expect(edited.body.conflicts).toEqual([expect.objectContaining({ reason: 'stale' })]);
    expect(state()).toBe(before);
    expect(
      hub.db.prepare("SELECT fact FROM memories WHERE fact_key = 'bedroom_temp' AND status = 'active'").all(),
    ).toEqual([{ fact: 'Brian keeps the bedroom at 66°F at night' }]);
  });

  it('MCP: the same conflict through import_markdown', async () => {
    const files = await exportAll();
    const id = idOf(file(files, 'Brian.md').content, '68°F');
    await hub.services.memory.edit({ memory_id: id, fact: 'Brian keeps the bedroom at 65°F at night' }, 'admin');
    const before = state();
    const [ct, st] = InMemoryTransport.createLinkedPair();
    await createMcpServer(hub.services).connect(st);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(ct);
    try {
      const out = (await client.callTool({
        name: 'import_markdown',
        arguments: { files: [file(files, 'Brian.md')] },
      })) as any;
      expect(out.structuredContent).toMatchObject({
        superseded: 0,
        conflicts: [expect.objectContaining({ reason: 'stale' })],
      });
    } finally {
      await client.close();
    }
    expect(state()).toBe(before);
  });

  it('an edit still applies when the hub has not changed since the export, and again after that import', async () => {
    const files = await exportAll();
    const brian = file(files, 'Brian.md');
    brian.content = brian.content.replace('68°F', '67°F');
    expect((await post(hub, '/import/markdown', { files: [brian] })).body).toMatchObject({
      superseded: 1,
      conflicts: [],
    });
    brian.content = brian.content.replace('67°F', '69°F'); // edited again, not exported in between
    expect((await post(hub, '/import/markdown', { files: [brian] })).body).toMatchObject({
      superseded: 1,
      conflicts: [],
    });
  });

  it('front matter over a type/meta changed in the hub since is a conflict; unchanged front matter is not', async () => {
    const files = await exportAll();
    hub.db.prepare("UPDATE entities SET meta = '{\"age\":42}' WHERE name = 'Brian'").run();
    const brian = file(files, 'Brian.md');
    expect((await post(hub, '/import/markdown', { files: [brian] })).body).toMatchObject({
      entities_updated: 0,
      conflicts: [expect.objectContaining({ reason: 'stale', line: 1 })],
    });
    expect(hub.services.entities.find('Brian')!.meta).toEqual({ age: 42 });
    const fresh = file(await exportAll(), 'Brian.md');
    fresh.content = fresh.content.replace('age: 42', 'age: 43');
    expect((await post(hub, '/import/markdown', { files: [fresh] })).body).toMatchObject({
      entities_updated: 1,
      conflicts: [],
    });
  });
});

describe('sync-conflict copies (item 8)', () => {
  it('two different files naming one entity are both reported and neither applied', async () => {
    const files = await exportAll();
    const real = file(files, 'Brian.md');
    const copy = { path: 'Brian (conflicted copy 2026-12-01).md', content: real.content };
    real.content = real.content.replace('68°F', '66°F'); // the household's edit
    const before = state();
    const r = await post(hub, '/import/markdown', { files: [real, copy] });
    expect(r.body.superseded).toBe(0);
    expect(r.body.conflicts.map((c: any) => [c.file, c.reason])).toEqual([
      ['Brian (conflicted copy 2026-12-01).md', 'duplicate_file'],
      ['Brian.md', 'duplicate_file'],
    ]);
    expect(r.body.conflicts[0].message).toContain('Brian.md');
    expect(state()).toBe(before);
    // identical copies are one note
    expect(
      (await post(hub, '/import/markdown', { files: [real, { ...copy, content: real.content }] })).body,
    ).toMatchObject({ superseded: 1, conflicts: [] });
  });
});
