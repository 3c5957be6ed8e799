/**
 * Markdown two-way sync over real HTTP (inject) and a real SQLite file: export → edit one line, add
 * one, delete one → import gives exactly one superseded, one added, one reported; a second import
 * changes nothing; a round trip into an empty hub is lossless for what the format carries; file
 * names are safe and deterministic.
 */
import { unzipSync, strFromU8 } from 'fflate';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildTestHub, get, hubForEachTest, post, rememberByHand, type TestHub } from '../helpers/hub.js';
import { fileNames, parseEntity, safeBase } from '../../src/io/markdown/format.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../../src/mcp/server.js';

let hub: TestHub;
const n = (h: TestHub, sql: string) => (h.db.prepare(sql).get() as { n: number }).n;

async function exportZip(h: TestHub) {
  const res = await h.app.inject({ method: 'GET', url: '/export/markdown' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  return {
    raw: res.rawPayload,
    files: Object.entries(unzipSync(new Uint8Array(res.rawPayload))).map(([path, b]) => ({
      path,
      content: strFromU8(b),
    })),
  };
}

/** Rows the format carries, comparable across databases. */
function snapshot(h: TestHub) {
  return {
    entities: h.db.prepare('SELECT name, type, meta FROM entities ORDER BY name').all(),
    memories: h.db
      .prepare(
        "SELECT e.name, m.fact, m.category, m.source_trust FROM memories m JOIN entities e ON e.id = m.entity_id WHERE m.status = 'active' ORDER BY e.name, m.fact",
      )
      .all(),
    relations: h.db
      .prepare(
        'SELECT a.name AS a, r.rel_type, b.name AS b FROM relations r JOIN entities a ON a.id = r.entity_a JOIN entities b ON b.id = r.entity_b WHERE r.valid_until IS NULL ORDER BY 1, 2, 3',
      )
      .all(),
  };
}

hubForEachTest((h) => (hub = h));
beforeEach(async () => {
  await rememberByHand(hub, 'Brian', 'Brian keeps the bedroom at 68°F at night', {
    category: 'preference',
    entity_type: 'person',
  });
  await rememberByHand(hub, 'Brian', 'Brian walks the dog every morning at seven', {
    category: 'routine',
    source_trust: 4,
    entity_type: 'person',
  });
  await rememberByHand(hub, 'Brian', 'Brian is allergic to peanuts [see doctor note]', { entity_type: 'person' });
  await rememberByHand(hub, 'kitchen', 'The kitchen light is on a dimmer', { entity_type: 'room' });
  await rememberByHand(hub, '../../etc/passwd', 'A hostile name stays inside the export', { entity_type: 'object' });
  await rememberByHand(hub, 'a/b', 'Slash in a name', { entity_type: 'object' });
  await rememberByHand(hub, 'a_b', 'Underscore in a name', { entity_type: 'object' });
  await rememberByHand(hub, 'CON', 'A reserved Windows name', { entity_type: 'device' });
  hub.db.prepare('UPDATE entities SET meta = \'{"age":41,"tz":"America/Chicago"}\' WHERE name = \'Brian\'').run();
  hub.services.relations.relate({ entity_a: 'Brian', entity_b: 'Sarah', rel_type: 'spouse_of' });
  hub.services.relations.relate({ entity_a: 'Brian', entity_b: 'a/b', rel_type: 'owns', entity_b_type: 'object' });
});

describe('file names', () => {
  it('are safe (no traversal, no separators, no reserved names) and unique ignoring case, by id', () => {
    expect(safeBase('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(safeBase('CON')).toBe('_CON');
    expect(safeBase('lpt1.txt')).toBe('_lpt1.txt');
    expect(safeBase('...')).toBe('entity');
    expect(safeBase('x'.repeat(300))).toHaveLength(100);
    const names = fileNames([
      { id: 9, name: 'a_b' },
      { id: 3, name: 'a/b' },
      { id: 5, name: 'A:B' },
    ]);
    expect([...names.entries()].sort()).toEqual([
      [3, 'a_b'],
      [5, 'A_B (5)'],
      [9, 'a_b (9)'],
    ]);
  });

  it('the zip holds one safe .md per entity, and the same database gives the same bytes', async () => {
    const a = await exportZip(hub);
    const paths = a.files.map((f) => f.path).sort();
    expect(paths).toHaveLength(n(hub, 'SELECT count(*) AS n FROM entities'));
    for (const p of paths) expect(p).toMatch(/^[^/\\]+\.md$/);
    expect(paths).toContain('_CON.md');
    expect(paths).toContain('_.._etc_passwd.md');
    expect(new Set(paths.map((p) => p.toLowerCase())).size).toBe(paths.length);
    const b = await exportZip(hub);
    expect(Buffer.compare(a.raw, b.raw)).toBe(0);
  });
});

describe('export', () => {
  it('GET /export/markdown/:name answers one note with front matter, block ids and wikilinks', async () => {
    const res = await hub.app.inject({ method: 'GET', url: '/export/markdown/Brian' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/markdown');
    expect(res.headers['content-disposition']).toContain('Brian.md');
    const text = res.body;
    expect(text).toMatch(/^---\nname: Brian\ntype: person\nmeta:\n {2}age: 41\n/);
    expect(text).toMatch(
      /- Brian walks the dog every morning at seven \[category:: routine\] \[trust:: 4\] \[since:: 2026-01-01T00:00:00Z\] \[source:: manual\] \^m\d+\n/,
    );
    expect(text).toContain('- spouse_of:: [[Sarah]]');
    expect(text).toContain('- owns:: [[a_b|a/b]]');
    const doc = parseEntity(text, 'x');
    expect(doc.errors).toEqual([]);
    expect(doc.memories.map((m) => m.fact)).toContain('Brian is allergic to peanuts [see doctor note]');
  });

  it('answers 404 for an unknown entity and 400 for a bad import body', async () => {
    expect((await get(hub, '/export/markdown/Nobody')).status).toBe(404);
    const bad = await post(hub, '/import/markdown', { files: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('files');
    expect((await post(hub, '/import/markdown', { files: [{ path: 'x.md' }] })).body.message).toContain('content');
  });
});

describe('import', () => {
  it('importing the export unchanged changes nothing', async () => {
    const { files } = await exportZip(hub);
    const before = {
      rows: n(hub, 'SELECT count(*) AS n FROM memories'),
      audit: n(hub, 'SELECT count(*) AS n FROM audit'),
      snap: snapshot(hub),
    };
    const r = await post(hub, '/import/markdown', { files });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      added: 0,
      superseded: 0,
      reinforced: 0,
      missing: [],
      relations_added: 0,
      relations_missing: [],
      entities_created: 0,
      entities_updated: 0,
      errors: [],
    });
    expect(r.body.unchanged).toBe(before.rows);
    expect(n(hub, 'SELECT count(*) AS n FROM memories')).toBe(before.rows);
    expect(n(hub, 'SELECT count(*) AS n FROM audit')).toBe(before.audit);
    expect(snapshot(hub)).toEqual(before.snap);
  });

  it('edit one line, add one, delete one: one superseded, one added, one reported; a second import changes nothing', async () => {
    const { files } = await exportZip(hub);
    const brian = files.find((f) => f.path === 'Brian.md')!;
    const lines = brian.content.split('\n');
    const edit = lines.findIndex((l) => l.includes('68°F'));
    const del = lines.findIndex((l) => l.includes('walks the dog'));
    const deletedId = Number(/\^m(\d+)/.exec(lines[del])![1]);
    lines[edit] = lines[edit].replace('68°F', '66°F');
    lines.splice(del, 1, '- Brian drinks oat milk in his coffee [category:: preference]');
    brian.content = lines.join('\n');
    const total = n(hub, 'SELECT count(*) AS n FROM memories');
    const active = n(hub, "SELECT count(*) AS n FROM memories WHERE status = 'active'");

    const r = await post(hub, '/import/markdown', { files });
    expect(r.body).toMatchObject({ superseded: 1, added: 1, reinforced: 0, deleted: 0 });
    expect(r.body.missing).toEqual([
      { entity_name: 'Brian', id: deletedId, fact: 'Brian walks the dog every morning at seven' },
    ]);
    expect(n(hub, 'SELECT count(*) AS n FROM memories')).toBe(total + 2);
    expect(n(hub, "SELECT count(*) AS n FROM memories WHERE status = 'active'")).toBe(active + 1);
    const old = hub.db
      .prepare("SELECT status, superseded_by, valid_until FROM memories WHERE fact LIKE '%68°F%'")
      .get() as any;
    expect(old.status).toBe('superseded');
    const fresh = hub.db
      .prepare('SELECT fact, category, source_trust, source FROM memories WHERE id = ?')
      .get(old.superseded_by);
    expect(fresh).toEqual({
      fact: 'Brian keeps the bedroom at 66°F at night',
      category: 'preference',
      source_trust: 5,
      source: 'markdown',
    });
    expect(hub.services.audit.query({ actor: 'import', op: 'memory.supersede', limit: 10 })).toHaveLength(1);
    expect(hub.services.audit.query({ actor: 'import', op: 'memory.add', limit: 10 })).toHaveLength(1);

    const again = {
      rows: n(hub, 'SELECT count(*) AS n FROM memories'),
      audit: n(hub, 'SELECT count(*) AS n FROM audit'),
    };
    const r2 = await post(hub, '/import/markdown', { files });
    expect(r2.body).toMatchObject({ superseded: 0, added: 0, reinforced: 0, deleted: 0 });
    expect(r2.body.missing).toHaveLength(1);
    expect(n(hub, 'SELECT count(*) AS n FROM memories')).toBe(again.rows);
    expect(n(hub, 'SELECT count(*) AS n FROM audit')).toBe(again.audit);

    const r3 = await post(hub, '/import/markdown', { files, delete_missing: true });
    expect(r3.body).toMatchObject({ deleted: 1 });
    expect(hub.services.memory.get(deletedId)).toBeUndefined();
  });

  it('a memory stored after the export is never "missing", even with delete_missing', async () => {
    const { files } = await exportZip(hub);
    const later = await hub.services.memory.remember({
      entity_name: 'Brian',
      fact: 'Brian bought a new bicycle',
      category: 'general',
      confidence: 1,
      source: 'manual',
      entity_type: 'person',
    });
    const r = await post(hub, '/import/markdown', { files, delete_missing: true });
    expect(r.body).toMatchObject({ missing: [], deleted: 0, newer_than_file: 1, added: 0, superseded: 0 });
    expect(hub.services.memory.get(later.id)?.status).toBe('active');
    // a hand-written file (no last_memory_id) lists what it has: everything else is missing
    const hand = await post(hub, '/import/markdown', {
      files: [{ path: 'notes/kitchen.md', content: '# kitchen\n\n## Memories\n- The kitchen light is on a dimmer\n' }],
    });
    expect(hand.body).toMatchObject({ unchanged: 1, missing: [], added: 0 });
  });

  it('a changed category or trust is a new version too; a bad line is reported with its line number', async () => {
    const f = (await exportZip(hub)).files.find((x) => x.path === 'kitchen.md')!;
    f.content = f.content
      .replace('[category:: general] [trust:: 5]', '[category:: habit] [trust:: 4]')
      .replace('## Relations', '- bad line [category:: health]\n\n## Relations');
    const r = await post(hub, '/import/markdown', { files: [f] });
    expect(r.body.superseded).toBe(1);
    expect(r.body.errors).toEqual([
      { file: 'kitchen.md', line: expect.any(Number), message: expect.stringContaining('category: "health"') },
    ]);
    expect(
      hub.db
        .prepare("SELECT category, source_trust FROM memories WHERE status = 'active' AND fact LIKE '%dimmer%'")
        .get(),
    ).toEqual({ category: 'habit', source_trust: 4 });
  });

  it('round trip into an empty hub is lossless for entities, active memories and relations; a second import changes nothing', async () => {
    const { files } = await exportZip(hub);
    const other = await buildTestHub();
    try {
      // Ids in the files belong to the first hub; in the second they name nothing of these entities.
      await other.services.memory.remember({
        entity_name: 'Zed',
        fact: 'Zed owns a red bicycle',
        category: 'general',
        confidence: 1,
        source: 'manual',
        entity_type: 'person',
      });
      const r = await post(other, '/import/markdown', { files });
      expect(r.status).toBe(200);
      expect(r.body.errors).toEqual([]);
      const mine = snapshot(hub);
      const theirs = snapshot(other);
      const noZed = <T extends Record<string, unknown>>(rows: T[]) => rows.filter((x) => x.name !== 'Zed');
      expect(noZed(theirs.entities as any)).toEqual(mine.entities);
      expect(noZed(theirs.memories as any)).toEqual(mine.memories);
      expect(theirs.relations).toEqual(mine.relations);
      const count =
        n(other, 'SELECT count(*) AS n FROM memories') +
        n(other, 'SELECT count(*) AS n FROM relations') +
        n(other, 'SELECT count(*) AS n FROM audit');
      const r2 = await post(other, '/import/markdown', { files });
      expect(r2.body).toMatchObject({
        added: 0,
        superseded: 0,
        reinforced: 0,
        relations_added: 0,
        entities_created: 0,
        entities_updated: 0,
      });
      expect(
        n(other, 'SELECT count(*) AS n FROM memories') +
          n(other, 'SELECT count(*) AS n FROM relations') +
          n(other, 'SELECT count(*) AS n FROM audit'),
      ).toBe(count);
    } finally {
      await other.close();
    }
  });
});

describe('MCP', () => {
  it('export_markdown and import_markdown call the same service', async () => {
    const [ct, st] = InMemoryTransport.createLinkedPair();
    await createMcpServer(hub.services).connect(st);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(ct);
    try {
      const out = (await client.callTool({ name: 'export_markdown', arguments: { name: 'kitchen' } })) as any;
      expect(out.structuredContent.path).toBe('kitchen.md');
      const content = out.structuredContent.content.replace(
        '## Relations',
        '- The kitchen has a gas hob [category:: general]\n\n## Relations',
      );
      const imp = (await client.callTool({
        name: 'import_markdown',
        arguments: { files: [{ path: 'kitchen.md', content }] },
      })) as any;
      expect(imp.structuredContent).toMatchObject({ ok: true, added: 1, unchanged: 1 });
      const bad = (await client.callTool({ name: 'import_markdown', arguments: { files: 'x' } })) as any;
      expect(bad.isError).toBe(true);
      expect(bad.structuredContent.message).toContain('files');
    } finally {
      await client.close();
    }
  });
});
