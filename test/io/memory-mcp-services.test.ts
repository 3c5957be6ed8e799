/**
 * Issue 26, item 10: `hearth import memory-mcp` writes every table through its tier (the tiers'
 * import writers keep the tiers' rules), in one savepoint per chunk of rows: a row that fails after
 * writing part of itself rolls back its chunk, which is redone row by row — only that row is lost,
 * nothing of it stays, every other row of the chunk arrives.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';
import { FIXTURE_NOW as NOW, editedFixture } from '../helpers/memory-mcp-fixture.js';

let hub: TestHub;
const n = (sql: string, ...p: unknown[]) => (hub.db.prepare(sql).get(...p) as { n: number }).n;

beforeEach(async () => {
  hub = await buildTestHub();
});
afterEach(async () => hub.close());

it('a reading refused half-way (its composite part conflicts) is lost alone; nothing of it is stored, the rest of its chunk arrives', async () => {
  const path = editedFixture(hub.dir, 'half.db', (db) => {
    // entity 6's energy.kwh is numeric: the parent row is written before the part is refused.
    db.prepare(
      "INSERT INTO readings (id, entity_id, metric, unit, value_type, value_json, source, ts) VALUES (5000, 6, 'energy', NULL, 'composite', ?, 'x', ?)",
    ).run(JSON.stringify({ kwh: 'lots', state: 'on' }), NOW);
    db.prepare(
      "INSERT INTO readings (id, entity_id, metric, unit, value_type, value_num, source, ts) VALUES (5001, 3, 'humidity', '%', 'numeric', 41, 'x', ?)",
    ).run(NOW + 1);
  });
  const r = await hub.services.memoryMcpImport.run(path);
  expect(r.counts.readings).toEqual({ source: 2061, imported: 2060, already: 0, skipped: 1 });
  expect(r.warnings).toEqual([expect.stringMatching(/^readings 5000: value: energy\.kwh is numeric/)]);
  expect(n('SELECT count(*) AS n FROM readings WHERE ts_ms = ?', NOW * 1000)).toBe(0);
  expect(n('SELECT count(*) AS n FROM readings WHERE ts_ms = ?', (NOW + 1) * 1000)).toBe(1);
  expect(n("SELECT count(*) AS n FROM import_map WHERE tbl = 'readings'")).toBe(2060);
  // the same file again: the refused row is refused again, nothing is copied twice
  const again = await hub.services.memoryMcpImport.run(path);
  expect(again.counts.readings).toEqual({ source: 2061, imported: 0, already: 2060, skipped: 1 });
});

it("keeps the tiers' rules: one active location per object, a trigger needs words, a turn its door's limit", async () => {
  // Hearth's own sighting of the keys, newer than the import's
  expect((await post(hub, '/locate', { entity_name: 'keys', container_name: 'hallway' })).status).toBe(200);
  const path = editedFixture(hub.dir, 'rules.db', (db) => {
    db.prepare(
      "INSERT INTO intentions (id, entity_id, trigger_text, action_text, created, active) VALUES (50, 1, 'the and of', 'say hello', ?, 1)",
    ).run(NOW);
    db.prepare("INSERT INTO session_turns (id, session_id, role, content, ts) VALUES (90, 1, 'user', ?, ?)").run(
      'z'.repeat(30_000),
      NOW,
    );
  });
  const r = await hub.services.memoryMcpImport.run(path);
  expect(r.warnings).toEqual([
    expect.stringMatching(/^session_turns 90: content: .*20000/),
    'intentions 50: trigger_text: has no words to match on',
  ]);
  expect(r.counts.locations).toMatchObject({ imported: 4, skipped: 0 });
  const active = hub.db
    .prepare(
      "SELECT l.container_name FROM locations l JOIN entities e ON e.id = l.entity_id WHERE e.name = 'keys' AND l.active = 1",
    )
    .all();
  expect(active).toEqual([{ container_name: 'hallway' }]);
  expect(n('SELECT count(*) AS n FROM intentions')).toBe(3);
  expect(n("SELECT count(*) AS n FROM sessions WHERE status = 'closed'")).toBe(
    n('SELECT count(*) AS n FROM sessions WHERE ended_at IS NOT NULL'),
  );
  expect(n('SELECT max(length(content)) AS n FROM session_turns')).toBeLessThanOrEqual(20_000);
});
