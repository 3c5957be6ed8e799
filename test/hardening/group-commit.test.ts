/**
 * Group commit (src/db/group-commit.ts): concurrent writes share one transaction, each in its own
 * savepoint; callers hear back only after the COMMIT; one failing write is rolled back alone.
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGroupCommit } from '../../src/db/group-commit.js';
import { openDatabase, type Db } from '../../src/db/open.js';
import { RememberInput } from '../../src/tiers/memory/memory.schemas.js';
import { buildTestHub, tempDir } from '../helpers/hub.js';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = tempDir();
  db = openDatabase({ dataDir: dir, keptCheck: false });
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)');
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('group commit', () => {
  it('answers each write after the shared COMMIT; a failing write is rolled back alone', async () => {
    const group = createGroupCommit(db);
    const other = new Database(join(dir, 'hearth.db'), { readonly: true });
    const visible = (v: string) => !!other.prepare('SELECT 1 FROM t WHERE v = ?').get(v);
    const seenAtAnswer: boolean[] = [];
    const jobs = Array.from({ length: 40 }, (_, i) =>
      group
        .run(() => {
          db.prepare('INSERT INTO t (v) VALUES (?)').run(`row ${i}`);
          if (i === 7) {
            db.prepare('INSERT INTO t (v) VALUES (?)').run('row 8-to-be'); // written, then undone with the savepoint
            throw new Error('item 7 refused');
          }
          return i;
        })
        .then((v) => (seenAtAnswer.push(visible(`row ${i}`)), v)),
    );
    const out = await Promise.allSettled(jobs);
    expect(out.filter((r) => r.status === 'fulfilled')).toHaveLength(39);
    expect(out[7]).toEqual({ status: 'rejected', reason: new Error('item 7 refused') });
    expect(seenAtAnswer.every(Boolean)).toBe(true); // on disk (another connection sees it) when answered
    expect(db.prepare('SELECT count(*) n FROM t').get()).toEqual({ n: 39 });
    expect(visible('row 7') || visible('row 8-to-be')).toBe(false);
    other.close();
  });

  it('a failed COMMIT rejects every write of the group and keeps none', async () => {
    const group = createGroupCommit(db);
    db.exec(
      'CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (p INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)',
    );
    const a = group.run(() => db.prepare('INSERT INTO t (v) VALUES (?)').run('kept?'));
    const b = group.run(() => db.prepare('INSERT INTO child (p) VALUES (42)').run()); // fails only at COMMIT
    const out = await Promise.allSettled([a, b]);
    expect(out.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(db.prepare('SELECT count(*) n FROM t').get()).toEqual({ n: 0 });
  });
});

describe('remember under concurrency', () => {
  it('32 at once: every fact stored once, and a duplicate within the group reinforces', async () => {
    const hub = await buildTestHub();
    try {
      const facts = Array.from({ length: 31 }, (_, i) => ({
        entity_name: `Person ${i % 5}`,
        fact: `Person ${i % 5} waters plant number ${i} on Sundays`,
      }));
      facts.push({ ...facts[3] });
      const out = await Promise.all(facts.map((f) => hub.services.memory.remember(RememberInput.parse(f))));
      expect(out.filter((r) => r.action === 'added')).toHaveLength(31);
      expect(out[31]).toMatchObject({ action: 'reinforced', id: out[3].id });
      expect(new Set(out.map((r) => r.id)).size).toBe(31);
      expect(hub.db.prepare("SELECT count(*) n FROM memories WHERE embed_state = 'ok'").get()).toEqual({ n: 31 });
    } finally {
      await hub.close();
    }
  });
});
