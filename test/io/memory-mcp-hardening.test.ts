/**
 * Issue 26, items 10–11: `hearth import memory-mcp` checks every row with the door's schema (a bad row
 * is reported by table and source id and skipped, nothing half-written), and tells two databases
 * apart by their rows, not by their first entity.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';
import { FIXTURE_NOW as NOW, editedFixture } from '../helpers/memory-mcp-fixture.js';

let hub: TestHub;
const n = (sql: string, ...p: unknown[]) => (hub.db.prepare(sql).get(...p) as { n: number }).n;

beforeEach(async () => {
  hub = await buildTestHub();
});
afterEach(async () => hub.close());

describe('bad rows (item 10)', () => {
  it('are reported one line each by table and source id, skipped, and nothing of them is stored; the good rows all arrive', async () => {
    const path = editedFixture(hub.dir, 'bad.db', (db) => {
      const ent = db.prepare(
        "INSERT INTO entities (id, name, type, meta, created, updated) VALUES (?, ?, 'person', '{}', ?, ?)",
      );
      ent.run(100, 'x'.repeat(5000), NOW, NOW);
      ent.run(101, 'Bob\u0007\u001b[2J', NOW, NOW);
      ent.run(102, '   ', NOW, NOW);
      const mem = db.prepare(
        "INSERT INTO memories (id, entity_id, fact, category, confidence, source, created, updated, source_trust) VALUES (?, ?, ?, 'general', 1, 'api', ?, ?, 5)",
      );
      mem.run(200, 1, 'y'.repeat(1_200_000), NOW, NOW);
      mem.run(201, 100, 'a fact about the entity with the long name', NOW, NOW);
      db.prepare(
        "INSERT INTO readings (id, entity_id, metric, unit, value_type, value_num, source, ts) VALUES (3000, 3, 'temperature', 'F', 'numeric', 70, 'x', ?)",
      ).run(9.46e13);
      db.prepare(
        "INSERT INTO relations (id, entity_a, entity_b, rel_type, meta, created) VALUES (300, 1, 2, ?, '{}', ?)",
      ).run('r'.repeat(500), NOW);
    });
    const r = await hub.services.memoryMcpImport.run(path);
    expect(r.counts.entities).toEqual({ source: 10, imported: 7, already: 0, skipped: 3 });
    expect(r.counts.memories).toEqual({ source: 54, imported: 52, already: 0, skipped: 2 });
    expect(r.counts.readings).toMatchObject({ imported: 2059, skipped: 1 });
    expect(r.counts.relations).toMatchObject({ imported: 6, skipped: 1 });
    expect(r.warnings).toEqual([
      expect.stringMatching(/^entities 100: name: .*200/),
      expect.stringMatching(/^entities 101: name: must not contain control characters/),
      expect.stringMatching(/^entities 102: name: must not be empty/),
      expect.stringMatching(/^memories 200: fact: .*4000/),
      'memories 201: its entity was not imported',
      expect.stringMatching(/^relations 300: rel_type: .*100/),
      expect.stringMatching(/^readings 3000: ts: /),
    ]);
    for (const w of r.warnings) expect(w).not.toContain('\n');
    expect(r.result).toContain('7 rows skipped, one line each (table, source id, reason)');
    expect(n('SELECT count(*) AS n FROM entities')).toBe(7);
    expect(n('SELECT max(length(name)) AS n FROM entities')).toBeLessThanOrEqual(200);
    expect(n('SELECT max(length(fact)) AS n FROM memories')).toBeLessThanOrEqual(4000);
    expect(n('SELECT max(ts_ms) AS n FROM readings')).toBeLessThan(Date.UTC(2030, 0, 1));
    expect(
      n(
        "SELECT count(*) AS n FROM import_map WHERE (tbl = 'entities' AND src_id >= 100) OR (tbl = 'memories' AND src_id >= 200) OR (tbl = 'relations' AND src_id = 300) OR (tbl = 'readings' AND src_id = 3000)",
      ),
    ).toBe(0);
    // everything imported can be forgotten and read through the API
    expect((await post(hub, '/forget', { entity_name: 'keys' })).status).toBe(200);
  });

  it('a dry run reports the same problems and writes nothing', async () => {
    const path = editedFixture(hub.dir, 'bad.db', (db) => {
      db.prepare(
        "INSERT INTO entities (id, name, type, meta, created, updated) VALUES (100, ?, 'person', '{}', ?, ?)",
      ).run('', NOW, NOW);
    });
    const r = await hub.services.memoryMcpImport.run(path, { dryRun: true });
    expect(r.counts.entities).toMatchObject({ imported: 7, skipped: 1 });
    expect(r.warnings).toEqual([expect.stringMatching(/^entities 100: name: must not be empty/)]);
    expect(
      n('SELECT count(*) AS n FROM entities') +
        n('SELECT count(*) AS n FROM import_map') +
        n('SELECT count(*) AS n FROM audit'),
    ).toBe(0);
  });
});

describe('which database is which (item 11)', () => {
  it('two databases starting with the same entity row both import fully; the same one again is skipped with a clear summary', async () => {
    const first = editedFixture(hub.dir, 'a.db', () => {});
    // A reset install (or a copy that went its own way): the same first entity, other memories with the same ids.
    const second = editedFixture(hub.dir, 'b.db', (db) => {
      for (const t of [
        'memories',
        'relations',
        'readings',
        'schedule_events',
        'session_turns',
        'sessions',
        'working_memory_slots',
        'working_memory_tasks',
        'intentions',
        'locations',
        'promoted_patterns',
      ])
        db.prepare(`DELETE FROM ${t}`).run();
      db.prepare('DELETE FROM entities WHERE id > 1').run();
      const mem = db.prepare(
        "INSERT INTO memories (id, entity_id, fact, category, confidence, source, created, updated, source_trust) VALUES (?, 1, ?, 'routine', 1, 'api', ?, ?, 5)",
      );
      mem.run(1, 'Brian walks to the bakery on Saturdays', NOW + 86_400, NOW + 86_400);
      mem.run(2, 'Brian takes his blood-pressure pill at 8am', NOW + 86_401, NOW + 86_401);
      mem.run(3, 'Brian plays chess on Tuesday evenings', NOW + 86_402, NOW + 86_402);
    });
    const a = await hub.services.memoryMcpImport.run(first);
    expect(a.counts.memories).toMatchObject({ imported: 52, already: 0 });
    const b = await hub.services.memoryMcpImport.run(second);
    expect(b.counts.memories).toEqual({ source: 3, imported: 3, already: 0, skipped: 0 });
    expect(b.counts.entities).toEqual({ source: 1, imported: 0, already: 1, skipped: 0 }); // the very same row: Brian, once
    expect(n("SELECT count(*) AS n FROM memories WHERE fact LIKE '%blood-pressure pill%'")).toBe(1);
    expect(n('SELECT count(*) AS n FROM entities')).toBe(7);

    const again = await hub.services.memoryMcpImport.run(second);
    expect(again.imported).toBe(0);
    expect(again.counts.memories).toEqual({ source: 3, imported: 0, already: 3, skipped: 0 });
    expect(again.result).toContain('memories: 3 in source, 0 imported, 3 already imported');
    expect(again.result).toContain('4 rows already imported: an earlier run copied these same rows');
  });
});
