/** Issue #10 item 3: one name normalisation and one case fold, in SQL and JS alike, across restarts and in the migration. */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../src/db/open.js';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { nameKey, normaliseName } from '../../src/lib/names.js';
import { buildTestHub, get, post, tempDir, type TestHub } from '../helpers/hub.js';

const ZOE = [
  'Zo\u00eb',
  'Zoe\u0308',
  'Zo\u200b\u00eb',
  '\u202eZo\u00eb\u202c',
  '\u2066Zoe\u0308\u2069',
  'ZO\u00cb',
  '\ufeffzo\u00eb',
];

describe('entity names', () => {
  const hubs: TestHub[] = [];
  afterEach(async () => {
    for (const h of hubs.splice(0)) await h.close();
  });

  it('normaliseName / nameKey: NFC, format characters gone, full case fold', () => {
    expect(new Set(ZOE.map(nameKey))).toEqual(new Set(['zo\u00eb']));
    expect(normaliseName('\u202eZoe\u0308\u202c ')).toBe('Zo\u00eb');
    expect(nameKey('\u212aitchen')).toBe(nameKey('kitchen')); // Kelvin sign
    expect(nameKey('Stra\u00dfe')).toBe(nameKey('STRASSE'));
    expect(nameKey('\u00c4rger')).toBe(nameKey('\u00e4rger'));
    // The ASCII fast path gives what the full fold gives.
    const full = (n: string) => normaliseName(n).toUpperCase().toLowerCase().normalize('NFC');
    for (let c = 0x20; c < 0x7f; c++)
      for (const n of [String.fromCharCode(c), ` Room ${String.fromCharCode(c)}x `]) expect(nameKey(n)).toBe(full(n));
  });

  it('ärger and Ärger are one entity for /record and /query_stream, Kelvin-sign Kitchen is kitchen, and it holds after a restart', async () => {
    const dir = tempDir();
    let hub = await buildTestHub({ dir });
    expect((await post(hub, '/record', { entity_name: '\u00c4rger', metric: 'level', value: 1 })).status).toBe(200);
    expect((await post(hub, '/record', { entity_name: '\u00e4rger', metric: 'level', value: 2 })).status).toBe(200);
    const q = await post(hub, '/query_stream', { entity_name: '\u00e4rger', metric: 'level' });
    expect(q.status).toBe(200);
    expect(q.body.points.map((p: { value: number }) => p.value)).toEqual([1, 2]);
    expect((await post(hub, '/record', { entity_name: 'kitchen', metric: 'temperature', value: 20 })).status).toBe(200);
    expect((await post(hub, '/record', { entity_name: '\u212aitchen', metric: 'temperature', value: 21 })).status).toBe(
      200,
    );
    await hub.close();
    hub = await buildTestHub({ dir });
    hubs.push(hub);
    expect((await post(hub, '/record', { entity_name: '\u00c4RGER', metric: 'level', value: 3 })).status).toBe(200);
    expect((await post(hub, '/record', { entity_name: 'KITCHEN', metric: 'temperature', value: 22 })).status).toBe(200);
    const after = await post(hub, '/query_stream', { entity_name: '\u00c4rger', metric: 'level' });
    expect(after.body.points.map((p: { value: number }) => p.value)).toEqual([1, 2, 3]);
    const k = await post(hub, '/query_stream', { entity_name: '\u212aITCHEN', metric: 'temperature' });
    expect(k.body.points.map((p: { value: number }) => p.value)).toEqual([20, 21, 22]);
    const names = (await get(hub, '/entities')).body.entities.map((e: { name: string }) => e.name);
    expect(names).toEqual(['kitchen', '\u00c4rger']);
  });

  it('seven spellings of Zoë (NFC, NFD, zero-width, bidi, BOM, case) are one entity at every door', async () => {
    const hub = await buildTestHub();
    hubs.push(hub);
    for (const [i, name] of ZOE.entries()) {
      const r =
        i % 2
          ? await post(hub, '/remember', { entity_name: name, fact: `likes tea number ${i}` })
          : await post(hub, '/record', { entity_name: name, metric: 'steps', value: i });
      expect(r.status, JSON.stringify(name)).toBe(200);
    }
    const entities = (await get(hub, '/entities')).body.entities;
    expect(entities).toHaveLength(1);
    expect(entities[0].name).toBe('Zo\u00eb'); // the first spelling, normalised
    expect(entities[0].memory_count).toBe(3);
    for (const name of ZOE)
      expect((await post(hub, '/query_stream', { entity_name: name, metric: 'steps' })).body.points).toHaveLength(4);
    expect((await get(hub, `/profile/${encodeURIComponent('Zoe\u0308')}`)).status).toBe(200);
    expect((await post(hub, '/record', { entity_name: '\u200b\u200d', metric: 'x', value: 1 })).status).toBe(400); // nothing left to name
  });

  it('migration 008 merges names that now share a key into the oldest entity, keeps ids, and never reuses an id freed after it', () => {
    const dir = tempDir();
    const raw = new Database(join(dir, 'hearth.db'));
    sqliteVec.load(raw);
    raw.pragma('foreign_keys = ON');
    for (const m of MIGRATIONS.slice(0, 7)) raw.exec(m as string);
    raw.pragma('user_version = 7');
    const ent = raw.prepare(
      "INSERT INTO entities (id, name, type, meta, created, updated) VALUES (?, ?, 'person', '{}', ?, ?)",
    );
    ent.run(1, '\u00c4rger', 10, 10); // oldest of its key
    ent.run(2, '\u00e4rger', 20, 20); // NOCASE let this in
    ent.run(3, 'Zoe\u0308', 30, 30);
    ent.run(4, 'Zo\u200b\u00eb', 5, 5); // older than 3 despite the higher id
    ent.run(5, 'gone', 1, 1);
    const ser = raw.prepare(
      "INSERT INTO series (id, entity_id, metric, value_type, created) VALUES (?, ?, ?, 'numeric', 0)",
    );
    ser.run(1, 1, 'level');
    ser.run(2, 2, 'level'); // same metric: readings join series 1
    ser.run(3, 2, 'mood'); // moves to entity 1
    ser.run(4, 5, 'x');
    const rd = raw.prepare('INSERT INTO readings (series_id, ts_ms, value_num) VALUES (?, ?, ?)');
    rd.run(1, 1000, 1);
    rd.run(2, 2000, 2);
    rd.run(3, 3000, 3);
    raw.prepare('INSERT INTO rollup_watermarks (series_id, last_id, last_ts) VALUES (1, 1, 1)').run();
    const mem = raw.prepare(
      "INSERT INTO memories (entity_id, fact, category, confidence, source, source_trust, created, updated, last_confirmed, valid_from) VALUES (?, ?, 'fact', 0.9, 'api', 2, 0, 0, 0, 0)",
    );
    mem.run(2, 'is annoyed');
    mem.run(3, 'likes tea');
    raw
      .prepare("INSERT INTO relations (entity_a, entity_b, rel_type, created, valid_from) VALUES (2, 3, 'knows', 0, 0)")
      .run();
    raw.prepare('DELETE FROM entities WHERE id = 5').run(); // cascades to series 4; id 5 was handed out once
    raw.close();

    const db = openDatabase({ dataDir: dir });
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(db.prepare('SELECT id, name, name_key FROM entities ORDER BY id').all()).toEqual([
      { id: 1, name: '\u00c4rger', name_key: '\u00e4rger' },
      { id: 4, name: 'Zo\u00eb', name_key: 'zo\u00eb' },
    ]);
    expect(db.prepare('SELECT id, entity_id, metric FROM series ORDER BY id').all()).toEqual([
      { id: 1, entity_id: 1, metric: 'level' },
      { id: 3, entity_id: 1, metric: 'mood' },
    ]);
    expect(db.prepare('SELECT series_id, value_num FROM readings ORDER BY ts_ms').all()).toEqual([
      { series_id: 1, value_num: 1 },
      { series_id: 1, value_num: 2 },
      { series_id: 3, value_num: 3 },
    ]);
    expect(db.prepare('SELECT count(*) FROM rollup_watermarks WHERE series_id = 1').pluck().get()).toBe(0); // re-rolled next pass
    expect(db.prepare('SELECT entity_id, fact FROM memories ORDER BY id').all()).toEqual([
      { entity_id: 1, fact: 'is annoyed' },
      { entity_id: 4, fact: 'likes tea' },
    ]);
    expect(db.prepare('SELECT entity_a, entity_b FROM relations').get()).toEqual({ entity_a: 1, entity_b: 4 });
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    // AUTOINCREMENT from now on: the next entity and series never take a freed id.
    const e = db
      .prepare(
        "INSERT INTO entities (name, name_key, type, meta, created, updated) VALUES ('new', 'new', 'room', '{}', 0, 0)",
      )
      .run();
    expect(Number(e.lastInsertRowid)).toBe(5); // the highest id present before the rebuild was 4
    db.prepare('DELETE FROM entities WHERE id = 5').run();
    expect(
      Number(
        db
          .prepare(
            "INSERT INTO entities (name, name_key, type, meta, created, updated) VALUES ('newer', 'newer', 'room', '{}', 0, 0)",
          )
          .run().lastInsertRowid,
      ),
    ).toBe(6);
    expect(() =>
      db
        .prepare(
          "INSERT INTO entities (name, name_key, type, meta, created, updated) VALUES ('NEWER', 'newer', 'room', '{}', 0, 0)",
        )
        .run(),
    ).toThrow(/UNIQUE/);
    expect(migrate(db)).toBe(MIGRATIONS.length); // idempotent
    db.close();
  });
});
