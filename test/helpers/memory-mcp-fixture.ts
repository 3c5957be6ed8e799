/** Changed copies of the memory-mcp fixture (`test/fixtures/memory-mcp/household.db`) for the import tests. */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { FIXTURE } from '../io/fixture.js';

/** A time on the fixture's days (2025-11-30). */
export const FIXTURE_NOW = 1_764_465_000;

/** A copy of the fixture at `dir/name`, changed by `edit` (the source's own schema and triggers apply); returns its path. */
export function editedFixture(dir: string, name: string, edit: (db: Database.Database) => void): string {
  const path = join(dir, name);
  copyFileSync(FIXTURE, path);
  const db = new Database(path);
  try {
    edit(db);
  } finally {
    db.close();
  }
  return path;
}
