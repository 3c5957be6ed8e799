/**
 * Markdown round trip of every field a family relies on, over HTTP (inject) with real SQLite files
 * in temp dirs: hub A → export → a fresh hub B gives the same entities, relations and active
 * memories field by field (fact_key, category, confidence, trust, source, valid_from, status);
 * afterwards a keyed remember in B supersedes the imported value. Also: an edited key, a key
 * another memory holds (supersede / contested), the same key on two lines, ids from another hub,
 * and a note as an older Hearth wrote it (no keys) importing unchanged.
 */
import { unzipSync, strFromU8 } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';
import { parseEntity } from '../../src/io/markdown/format.js';

let a: TestHub;
const n = (h: TestHub, sql: string) => (h.db.prepare(sql).get() as { n: number }).n;
const rows = (h: TestHub) =>
  n(h, 'SELECT count(*) AS n FROM memories') +
  n(h, 'SELECT count(*) AS n FROM audit') +
  n(h, 'SELECT count(*) AS n FROM relations');
const DAY = 86_400;

async function exportZip(h: TestHub) {
  const res = await h.app.inject({ method: 'GET', url: '/export/markdown' });
  expect(res.statusCode).toBe(200);
  return Object.entries(unzipSync(new Uint8Array(res.rawPayload))).map(([path, b]) => ({
    path,
    content: strFromU8(b),
  }));
}

/** Every memory field that means something outside one database (ids and bookkeeping times do not). */
function memories(h: TestHub, where = "m.status = 'active'") {
  return h.db
    .prepare(
      `SELECT e.name AS entity, e.type AS entity_type, m.fact, m.category, m.confidence, m.source, m.source_trust, m.fact_key,
              round(m.valid_from) AS valid_from, m.valid_until, m.status
         FROM memories m JOIN entities e ON e.id = m.entity_id WHERE ${where} ORDER BY e.name, m.fact`,
    )
    .all();
}
const entities = (h: TestHub) => h.db.prepare('SELECT name, type, meta FROM entities ORDER BY name').all();
const relations = (h: TestHub) =>
  h.db
    .prepare(
      'SELECT a.name AS a, r.rel_type, b.name AS b FROM relations r JOIN entities a ON a.id = r.entity_a JOIN entities b ON b.id = r.entity_b WHERE r.valid_until IS NULL ORDER BY 1, 2, 3',
    )
    .all();
const activeWithKey = (h: TestHub, key: string) =>
  h.db
    .prepare(
      "SELECT m.id, m.fact, m.status FROM memories m JOIN entities e ON e.id = m.entity_id WHERE e.name = 'Lily' AND m.fact_key = ? AND m.status != 'superseded' ORDER BY m.id",
    )
    .all(key) as { id: number; fact: string; status: string }[];

beforeEach(async () => {
  a = await buildTestHub();
  const say = async (fact: string, extra: Record<string, unknown> = {}) => {
    a.clock.advance(DAY + 17.25); // distinct, fractional valid_from values
    const r = await post(a, '/remember', { entity_name: 'Lily', entity_type: 'person', fact, ...extra });
    expect(r.status).toBe(200);
    return r.body;
  };
  await say('Lily is 8 years old', { fact_key: 'age', source: 'conversation' });
  await say('Lily is 9 years old', { fact_key: 'age', source: 'conversation', valid_from: '2025-06-01T00:00:00Z' });
  await say('Lily is 7 years old', { fact_key: 'age', source_trust: 'external' }); // contested: lower trust
  await say('Lily is allergic to cashews', { fact_key: 'allergy', confidence: 0.85 });
  await say('Lily goes to bed at 8pm on school nights', {
    fact_key: 'bedtime',
    category: 'routine',
    source: 'ha_automation',
    source_trust: 4,
  });
  await say('Lily keeps her bedroom at 19°C at night', {
    fact_key: 'bedroom_temp_night',
    category: 'preference',
    source: 'pattern:stable_value',
    source_trust: 3,
    confidence: 0.7,
  });
  await say('Lily loves drawing horses', { category: 'preference' });
  await say('Lily keeps [odd] keys too', { fact_key: 'odd]key[%41 50%', source: 'a]b' });
  await post(a, '/remember', {
    entity_name: 'Brian',
    entity_type: 'person',
    fact: "Brian is Lily's dad",
    category: 'relationship',
  });
  a.services.relations.relate({ entity_a: 'Lily', entity_b: 'Brian', rel_type: 'child_of' });
  a.db.prepare('UPDATE entities SET meta = \'{"school":"Oak"}\' WHERE name = \'Lily\'').run();
});
afterEach(async () => a.close());

describe('markdown round trip', () => {
  it('the note carries key, confidence, since and source per line, readable in Obsidian', async () => {
    const note = (await a.app.inject({ method: 'GET', url: '/export/markdown/Lily' })).body;
    expect(note).toMatch(
      /^- Lily is 9 years old \[category:: general\] \[trust:: 5\] \[key:: age\] \[since:: 2025-06-01T00:00:00Z\] \[source:: conversation\] \^m2$/m,
    );
    expect(note).toMatch(
      /^- Lily is allergic to cashews \[category:: general\] \[trust:: 5\] \[key:: allergy\] \[confidence:: 0\.85\] \[since:: [-0-9T:]+Z\] \[source:: manual\] \^m\d+$/m,
    );
    expect(note).toContain('[key:: odd%5Dkey%5B%2541 50%25] [since:: ');
    expect(note).toContain('[source:: a%5Db]');
    expect(note).not.toContain('8 years'); // superseded
    expect(note).not.toContain('7 years'); // contested
    const doc = parseEntity(note, 'x');
    expect(doc.errors).toEqual([]);
    expect(doc.memories.find((m) => m.fact.includes('[odd]'))).toMatchObject({
      fact: 'Lily keeps [odd] keys too',
      key: 'odd]key[%41 50%',
      source: 'a]b',
    });
  });

  it('export from A, import into a fresh B: every field of every active memory, entities and relations match; a keyed remember in B then supersedes', async () => {
    const files = await exportZip(a);
    const b = await buildTestHub();
    try {
      const r = await post(b, '/import/markdown', { files });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ errors: [], missing: [], superseded: 0, contested: 0, reinforced: 0, added: 7 });
      expect(memories(b)).toEqual(memories(a));
      expect(memories(b).filter((m: any) => m.fact_key)).toHaveLength(5);
      expect(entities(b)).toEqual(entities(a));
      expect(relations(b)).toEqual(relations(a));

      // B's ids are not A's: some line's ^m id names another of Lily's memories in B. The line's
      // `since` tells them apart, so a second import changes nothing (no row, no audit entry).
      const lily = files.find((f) => f.path === 'Lily.md')!;
      const collide = parseEntity(lily.content, 'Lily').memories.filter((l) => {
        const m = b.services.memory.get(l.id!);
        return m && m.entity_name === 'Lily' && m.fact !== l.fact;
      });
      expect(collide.length).toBeGreaterThan(0);
      const before = rows(b);
      const again = await post(b, '/import/markdown', { files });
      expect(again.body).toMatchObject({
        added: 0,
        superseded: 0,
        reinforced: 0,
        contested: 0,
        unchanged: 7,
        errors: [],
      });
      expect(rows(b)).toBe(before);

      // The tester's case: a new age under the same key supersedes the imported one.
      const ten = await post(b, '/remember', { entity_name: 'Lily', fact: 'Lily is 10 years old', fact_key: 'age' });
      expect(ten.body).toMatchObject({ action: 'superseded' });
      expect(activeWithKey(b, 'age')).toEqual([{ id: ten.body.id, fact: 'Lily is 10 years old', status: 'active' }]);
      const nine = b.db.prepare("SELECT status, superseded_by FROM memories WHERE fact = 'Lily is 9 years old'").get();
      expect(nine).toEqual({ status: 'superseded', superseded_by: ten.body.id });
      // …and a lower-trust claim under the key is contested, not a second current age.
      expect(
        (
          await post(b, '/remember', {
            entity_name: 'Lily',
            fact: 'Lily is 11 years old',
            fact_key: 'age',
            source_trust: 'inferred',
          })
        ).body.action,
      ).toBe('contested');
      expect(activeWithKey(b, 'age').filter((m) => m.status === 'active')).toHaveLength(1);
    } finally {
      await b.close();
    }
  });

  it('an edited key is a new version with that key; a key another memory holds supersedes it, or is contested at lower trust', async () => {
    const lily = (await exportZip(a)).find((f) => f.path === 'Lily.md')!;
    const edit = (from: string, to: string) => (lily.content = lily.content.replace(from, to));
    edit('[key:: bedtime]', '[key:: bedtime_school_night]');
    edit(
      'drawing horses [category:: preference] [trust:: 5]',
      'drawing horses [category:: preference] [trust:: 5] [key:: hobby]',
    );
    const r = await post(a, '/import/markdown', { files: [lily] });
    expect(r.body).toMatchObject({ superseded: 2, added: 0, errors: [] });
    expect(activeWithKey(a, 'bedtime')).toEqual([]);
    expect(activeWithKey(a, 'bedtime_school_night')).toMatchObject([
      { fact: 'Lily goes to bed at 8pm on school nights', status: 'active' },
    ]);
    expect(activeWithKey(a, 'hobby')).toMatchObject([{ fact: 'Lily loves drawing horses', status: 'active' }]);
    const again = rows(a);
    expect((await post(a, '/import/markdown', { files: [lily] })).body).toMatchObject({
      superseded: 0,
      added: 0,
      contested: 0,
    });
    expect(rows(a)).toBe(again);

    // Giving the temperature line (trust 3) the key "allergy" (trust 5 holds it): contested; at trust 5 it wins.
    const temp = /^- Lily keeps her bedroom.*$/m;
    edit(
      lily.content.match(temp)![0],
      lily.content.match(temp)![0].replace('[key:: bedroom_temp_night]', '[key:: allergy]'),
    );
    edit('- Lily is allergic to cashews', '- Lily was allergic to cashews');
    lily.content = lily.content.replace(/^- Lily was allergic.*\n/m, ''); // the old allergy line deleted, not both
    const c = await post(a, '/import/markdown', { files: [lily] });
    expect(c.body).toMatchObject({ contested: 1, superseded: 0, errors: [] });
    expect(activeWithKey(a, 'allergy')).toMatchObject([
      { fact: 'Lily is allergic to cashews', status: 'active' },
      { fact: 'Lily keeps her bedroom at 19°C at night', status: 'contested' },
    ]);
    const stable = rows(a);
    expect((await post(a, '/import/markdown', { files: [lily] })).body).toMatchObject({
      contested: 0,
      superseded: 0,
      added: 0,
    });
    expect(rows(a)).toBe(stable);
    edit('[trust:: 3] [key:: allergy]', '[trust:: 5] [key:: allergy]');
    const w = await post(a, '/import/markdown', { files: [lily] });
    expect(w.body).toMatchObject({ superseded: 1, contested: 0, errors: [] });
    expect(activeWithKey(a, 'allergy')).toMatchObject([
      { fact: 'Lily keeps her bedroom at 19°C at night', status: 'active' },
    ]);
    expect(a.db.prepare("SELECT status FROM memories WHERE fact = 'Lily is allergic to cashews'").get()).toEqual({
      status: 'superseded',
    });

    // [key:: ] removes the key.
    edit('[key:: hobby]', '[key:: ]');
    expect((await post(a, '/import/markdown', { files: [lily] })).body).toMatchObject({ superseded: 1 });
    expect(activeWithKey(a, 'hobby')).toEqual([]);
    expect(
      a.db
        .prepare("SELECT fact_key FROM memories WHERE fact = 'Lily loves drawing horses' AND status = 'active'")
        .get(),
    ).toEqual({ fact_key: null });
  });

  it('a new line under an old one with the same key: the later line wins, the earlier is reported, a second import changes nothing', async () => {
    const lily = (await exportZip(a)).find((f) => f.path === 'Lily.md')!;
    lily.content = lily.content.replace('## Relations', '- Lily is 10 years old [key:: age]\n\n## Relations');
    const r = await post(a, '/import/markdown', { files: [lily] });
    expect(r.body).toMatchObject({ superseded: 1, added: 0, missing: [] });
    expect(r.body.errors).toEqual([
      {
        file: 'Lily.md',
        line: expect.any(Number),
        message: expect.stringContaining('key: "age" is given again on line'),
      },
    ]);
    expect(activeWithKey(a, 'age').filter((m) => m.status === 'active')).toMatchObject([
      { fact: 'Lily is 10 years old' },
    ]);
    const before = rows(a);
    const again = await post(a, '/import/markdown', { files: [lily], delete_missing: true });
    expect(again.body).toMatchObject({ superseded: 0, added: 0, deleted: 0, missing: [] });
    expect(rows(a)).toBe(before);
  });

  it('a note written by an older Hearth (no key, confidence, since or source) imports unchanged, and keeps the keys the hub has', async () => {
    const files = (await exportZip(a)).map((f) => ({
      ...f,
      content: f.content.replace(/ \[(key|confidence|since|source):: [^\]]*\]/g, ''),
    }));
    expect(files.find((f) => f.path === 'Lily.md')!.content).toContain(
      '- Lily is 9 years old [category:: general] [trust:: 5] ^m2\n',
    );
    const before = { rows: rows(a), memories: memories(a, '1') };
    const r = await post(a, '/import/markdown', { files });
    expect(r.body).toMatchObject({
      unchanged: 7,
      added: 0,
      superseded: 0,
      reinforced: 0,
      contested: 0,
      missing: [],
      errors: [],
    });
    expect(rows(a)).toBe(before.rows);
    expect(memories(a, '1')).toEqual(before.memories);

    // Into a fresh hub it imports as it always did: the facts, categories and trust, no keys.
    const c = await buildTestHub();
    try {
      const imp = await post(c, '/import/markdown', { files });
      expect(imp.body).toMatchObject({ added: 7, errors: [] });
      expect(n(c, 'SELECT count(*) AS n FROM memories WHERE fact_key IS NOT NULL')).toBe(0);
      expect(n(c, "SELECT count(*) AS n FROM memories WHERE source = 'markdown' AND confidence = 1")).toBe(7);
    } finally {
      await c.close();
    }
  });

  it('a malformed key, confidence or since is reported with its line and skipped', async () => {
    const content = [
      '# Lily',
      '## Memories',
      `- Lily likes kites [key:: ${'k'.repeat(101)}]`,
      '- Lily likes rain [confidence:: 2]',
      '- Lily likes snow [since:: last year]',
      '- Lily likes sun [since:: 2025-02-30T00:00:00Z]',
      '',
    ].join('\n');
    const r = await post(a, '/import/markdown', { files: [{ path: 'Lily.md', content }] });
    expect(r.body.errors.map((e: any) => [e.line, e.message.split(':')[0]])).toEqual([
      [3, 'key'],
      [4, 'confidence'],
      [5, 'since'],
      [6, 'since'],
    ]);
    expect(r.body.added).toBe(0);
  });
});
