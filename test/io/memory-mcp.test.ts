/**
 * `hearth import memory-mcp` against the seed server's own database (test/fixtures/memory-mcp,
 * read-only, copied to a temp dir first as its README asks): per-table counts in = out, trust,
 * supersession and validity kept, recall answers from imported data, a second run imports 0.
 */
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { FIXTURE } from './fixture.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';

describe('import memory-mcp (household.db fixture)', () => {
  let hub: TestHub;
  let src: Database.Database;
  let path: string;
  let first: Awaited<ReturnType<TestHub['services']['memoryMcpImport']['run']>>;
  const q = <T = Record<string, any>>(sql: string, ...p: unknown[]) => hub.db.prepare(sql).all(...p) as T[];
  const n = (sql: string, ...p: unknown[]) => (hub.db.prepare(sql).get(...p) as { n: number }).n;
  const sn = (sql: string) => (src.prepare(sql).get() as { n: number }).n;

  beforeAll(async () => {
    expect(existsSync(FIXTURE), `fixture missing at ${FIXTURE}`).toBe(true);
    hub = await buildTestHub();
    path = join(hub.dir, 'household.db');
    copyFileSync(FIXTURE, path);
    src = new Database(path, { readonly: true });
    first = await hub.services.memoryMcpImport.run(path);
  });
  afterAll(async () => {
    src?.close();
    await hub?.close();
  });

  it('--dry-run counts without writing', async () => {
    const h2 = await buildTestHub();
    try {
      copyFileSync(FIXTURE, join(h2.dir, 'x.db'));
      const dry = await h2.services.memoryMcpImport.run(join(h2.dir, 'x.db'), { dryRun: true });
      expect(dry.counts.memories).toMatchObject({ source: 52, imported: 52 });
      expect(dry.result).toContain('Dry run');
      expect((h2.db.prepare('SELECT count(*) AS n FROM memories').get() as { n: number }).n).toBe(0);
      expect((h2.db.prepare('SELECT count(*) AS n FROM import_map').get() as { n: number }).n).toBe(0);
    } finally {
      await h2.close();
    }
  });

  it('copies every table: counts in = counts out', () => {
    for (const t of [
      'entities',
      'memories',
      'relations',
      'readings',
      'schedule_events',
      'sessions',
      'session_turns',
      'working_memory_tasks',
      'working_memory_slots',
      'intentions',
      'locations',
      'promoted_patterns',
    ] as const) {
      const inSource = sn(`SELECT count(*) AS n FROM ${t}`);
      expect(first.counts[t], t).toEqual({ source: inSource, imported: inSource, already: 0, skipped: 0 });
      expect(n(`SELECT count(*) AS n FROM ${t}`), t).toBe(inSource);
    }
    expect(first.warnings).toEqual([]);
  });

  it('keeps trust, confidence, access counts and the supersession chain', () => {
    const trust = q<{ source_trust: number; n: number }>(
      'SELECT source_trust, count(*) AS n FROM memories GROUP BY 1 ORDER BY 1',
    );
    expect(trust.map((r) => [r.source_trust, r.n])).toEqual([
      [1, 4],
      [2, 21],
      [3, 7],
      [4, 6],
      [5, 14],
    ]);
    expect(n("SELECT count(*) AS n FROM memories WHERE status = 'active'")).toBe(48);
    const chain = q<{ old: string; new: string; ot: number; nt: number; vu: number; nc: number }>(
      `SELECT o.fact AS old, m.fact AS new, o.source_trust AS ot, m.source_trust AS nt, o.valid_until AS vu, m.created AS nc
         FROM memories o JOIN memories m ON m.id = o.superseded_by WHERE o.status = 'superseded' ORDER BY o.id`,
    );
    expect(chain).toHaveLength(4);
    expect(chain[0].old).toContain('68 degrees');
    expect(chain[0].new).toContain('66 degrees');
    expect(chain[3]).toMatchObject({ ot: 2, nt: 4 });
    for (const c of chain) expect(c.vu).toBe(c.nc);
    // raw float confidences survive as stored
    const srcConf = src
      .prepare('SELECT confidence FROM memories ORDER BY id')
      .all()
      .map((r: any) => r.confidence);
    expect(q('SELECT confidence FROM memories ORDER BY id').map((r) => r.confidence)).toEqual(srcConf);
    expect(n('SELECT count(*) AS n FROM memories WHERE access_count > 0 AND last_accessed IS NOT NULL')).toBe(6);
    expect(n("SELECT count(*) AS n FROM memories WHERE embed_state = 'ok'")).toBe(52);
  });

  it('keeps relation validity, entity types and meta', () => {
    const ended = q(
      'SELECT a.name AS a, b.name AS b, r.rel_type FROM relations r JOIN entities a ON a.id = r.entity_a JOIN entities b ON b.id = r.entity_b WHERE r.valid_until IS NOT NULL',
    );
    expect(ended).toEqual([{ a: 'Brian', b: 'thermostat', rel_type: 'uses' }]);
    expect(n('SELECT count(*) AS n FROM relations WHERE valid_from IS NOT NULL')).toBe(6);
    expect(hub.services.entities.find('thermostat')).toMatchObject({ type: 'device', meta: { model: 'ecobee3 lite' } });
    expect(hub.services.entities.find('Sarah')?.meta).toMatchObject({ import_source: 'jsonl' });
  });

  it('keeps all three reading value types, composite parts linked to their parent', () => {
    const byType = q<{ value_type: string; n: number }>(
      'SELECT s.value_type, count(*) AS n FROM readings r JOIN series s ON s.id = r.series_id GROUP BY 1 ORDER BY 1',
    );
    expect(byType).toEqual([
      { value_type: 'categorical', n: 658 },
      { value_type: 'composite', n: 160 },
      { value_type: 'numeric', n: 1241 },
    ]);
    expect(n('SELECT count(*) AS n FROM readings WHERE parent_id IS NOT NULL')).toBe(440);
    const last = q(
      "SELECT r.value_num FROM readings r JOIN series s ON s.id = r.series_id WHERE s.metric = 'temperature' ORDER BY r.ts_ms DESC LIMIT 1",
    );
    expect(last[0].value_num).toBe(84.6);
  });

  it('rebuilds rollups exactly from the readings (hour and day buckets match the source in UTC)', () => {
    for (const bucket of ['hour', 'day']) {
      const mine = n(
        `SELECT count(*) AS n FROM reading_rollups r JOIN series s ON s.id = r.series_id WHERE r.bucket_type = '${bucket}' AND s.value_type != 'composite'`,
      );
      expect(mine, bucket).toBe(
        sn(
          `SELECT count(*) AS n FROM reading_rollups WHERE bucket_type = '${bucket}' AND metric NOT IN ('mood', 'energy')`,
        ),
      );
    }
    expect(
      n(
        "SELECT sum(count) AS n FROM reading_rollups r JOIN series s ON s.id = r.series_id WHERE bucket_type = 'hour' AND s.metric = 'heart_rate'",
      ),
    ).toBe(240);
  });

  it('keeps schedule, sessions and turns, working memory, intentions and locations', () => {
    expect(q('SELECT title, recurrence FROM schedule_events ORDER BY id')).toEqual([
      { title: 'Morning workout', recurrence: 'daily' },
      { title: 'Dentist appointment', recurrence: null },
    ]);
    expect(q('SELECT status, summary IS NOT NULL AS s FROM sessions ORDER BY id')).toEqual([
      { status: 'closed', s: 1 },
      { status: 'open', s: 0 },
    ]);
    expect(q('SELECT name, status, promoted_memory_id IS NOT NULL AS p FROM working_memory_tasks ORDER BY id')).toEqual(
      [
        { name: 'plan grocery run', status: 'closed', p: 1 },
        { name: 'draft thermostat schedule', status: 'open', p: 0 },
      ],
    );
    expect(q("SELECT value FROM working_memory_slots WHERE key = 'weekend_wake'")).toEqual([{ value: '"08:00"' }]);
    expect(q('SELECT active, fired_count FROM intentions ORDER BY id')).toEqual([
      { active: 1, fired_count: 1 },
      { active: 1, fired_count: 0 },
      { active: 0, fired_count: 0 },
    ]);
    expect(q('SELECT container_name FROM locations WHERE active = 1 ORDER BY id').map((r) => r.container_name)).toEqual(
      ['bedroom', 'living_room'],
    );
  });

  it('answers recall, find and check_intentions from imported data', async () => {
    const r = await post(hub, '/recall', {
      query: 'what temperature does Brian like the bedroom at night',
      entity_name: 'Brian',
    });
    expect(r.status).toBe(200);
    expect(r.body.results[0].fact).toContain('66 degrees');
    const f = await post(hub, '/find', { entity_name: 'keys' });
    expect(f.body).toMatchObject({ found: true, container_name: 'bedroom' });
    const c = await post(hub, '/check_intentions', {
      text: 'I am going grocery shopping for oat milk',
      entity_name: 'Brian',
    });
    expect(c.body.triggered.map((t: any) => t.action_text)).toContain('Remind Brian to buy oat milk');
  });

  it('a second run imports nothing and changes no row', async () => {
    const before =
      n('SELECT count(*) AS n FROM memories') +
      n('SELECT count(*) AS n FROM readings') +
      n('SELECT count(*) AS n FROM audit');
    const again = await hub.services.memoryMcpImport.run(path);
    expect(again.imported).toBe(0);
    for (const c of Object.values(again.counts)) expect(c.imported).toBe(0);
    expect(again.counts.readings.already).toBe(2059);
    expect(
      n('SELECT count(*) AS n FROM memories') +
        n('SELECT count(*) AS n FROM readings') +
        n('SELECT count(*) AS n FROM audit'),
    ).toBe(before);
  });

  it('refuses a file that is not a memory-mcp database with a 4xx-style error', async () => {
    await expect(hub.services.memoryMcpImport.run(join(hub.dir, 'nope.db'))).rejects.toMatchObject({ code: 'invalid' });
  });
});
