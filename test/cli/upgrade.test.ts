/**
 * #13.3 upgrades that cannot eat data: a database made by schema version 1 (migration 001 run by
 * hand) is copied beside itself before it is migrated, the copy is logged and named by doctor,
 * N copies are kept, and a migration that fails leaves the file at its old version.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { backupBeforeMigration, KEEP_PRE_MIGRATION, preMigrationBackups } from '../../src/db/premigration.js';
import { tempDir } from '../helpers/hub.js';
import { cliEnv, oneLine, runCli } from '../helpers/cli.js';

/** A data dir holding a schema-version-1 database with one entity and one memory; extra SQL after 001. */
function version1(extra = ''): { dir: string; path: string } {
  const dir = join(tempDir(), 'data');
  mkdirSync(dir);
  const path = join(dir, 'hearth.db');
  const db = new Database(path);
  db.exec(MIGRATIONS[0]);
  db.pragma('user_version = 1');
  db.prepare(
    "INSERT INTO entities (id, name, type, meta, created, updated) VALUES (1, 'Brian', 'person', '{}', 0, 0)",
  ).run();
  db.prepare(
    "INSERT INTO memories (entity_id, fact, category, confidence, source, source_trust, created, updated, last_confirmed, valid_from) VALUES (1, 'Brian likes jazz', 'preference', 1, 'manual', 5, 0, 0, 0, 0)",
  ).run();
  if (extra) db.exec(extra);
  db.close();
  return { dir, path };
}

const facts = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return {
      version: db.pragma('user_version', { simple: true }),
      facts: (db.prepare('SELECT fact FROM memories').all() as { fact: string }[]).map((r) => r.fact),
    };
  } finally {
    db.close();
  }
};

describe('schema upgrades', () => {
  it('copies a version-1 database beside itself before migrating, logs it, and doctor names it', async () => {
    const { dir, path } = version1();
    const r = await runCli(['doctor'], cliEnv(dir));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const [copy] = preMigrationBackups(path);
    expect(copy).toMatchObject({ fromVersion: 1 });
    expect(r.stderr).toContain(
      `upgrading ${path} from schema version 1 to ${MIGRATIONS.length}; a copy of the old database is kept as ${copy.path}`,
    );
    expect(r.stdout).toMatch(
      new RegExp(
        `ok {3}schema {8}version ${MIGRATIONS.length} of ${MIGRATIONS.length}; last pre-migration backup ${copy.path} \\(version 1, `,
      ),
    );
    expect(r.stdout).toMatch(/1 entities, 1 memories/);
    expect(facts(copy.path)).toEqual({ version: 1, facts: ['Brian likes jazz'] });
    expect(facts(path)).toEqual({ version: MIGRATIONS.length, facts: ['Brian likes jazz'] });
    // Already current: no further copy.
    await runCli(['doctor'], cliEnv(dir));
    expect(preMigrationBackups(path)).toHaveLength(1);
  }, 60_000);

  it(`keeps the newest ${KEEP_PRE_MIGRATION} copies`, async () => {
    const { path } = version1();
    const db = new Database(path);
    for (let i = 0; i < KEEP_PRE_MIGRATION + 2; i++) {
      backupBeforeMigration(db, path, 1);
      await new Promise((r) => setTimeout(r, 5));
    }
    db.close();
    expect(preMigrationBackups(path)).toHaveLength(KEEP_PRE_MIGRATION);
  });

  it('a migration that fails leaves the database at its old version with its data, in one line', async () => {
    // A table in the way of migration 002 makes it fail half-way.
    const { dir, path } = version1('CREATE TABLE readings (x INTEGER);');
    const r = await runCli(['serve'], cliEnv(dir, { HEARTH_HTTP_PORT: '0' }));
    expect(r.code).toBe(1);
    const last = r.stderr.trim().split('\n').pop()!;
    expect(oneLine(last)).toBe(true);
    expect(last).toMatch(
      new RegExp(
        `schema migration 2 of ${MIGRATIONS.length} failed .*the database ${path} is unchanged at version 1, and a copy is kept as ${path}\\.pre-migration-v1-`,
      ),
    );
    expect(facts(path)).toEqual({ version: 1, facts: ['Brian likes jazz'] });
    const db = new Database(path, { readonly: true });
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
      (t) => t.name,
    );
    db.close();
    expect(tables).not.toContain('series'); // nothing of migrations 2.. was kept
    expect(readdirSync(dir).filter((n) => n.includes('pre-migration-v1-'))).toHaveLength(1);
  }, 60_000);
});
