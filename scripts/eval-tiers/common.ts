/**
 * Shared pieces of the tier evals (scripts/eval-tiers.ts): a scratch database per eval, the data-set
 * reader, ratios and percentages, and which data sets are for tuning and which are held out.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../src/db/open.js';
import prospectiveSpatialSql from '../../src/db/migrations/005-prospective-spatial.js';
import { manualClock } from '../../src/lib/clock.js';
import { createAuditRepo } from '../../src/tiers/audit/audit.repo.js';
import { createEntitiesRepo } from '../../src/tiers/entities/entities.repo.js';

/** A scratch database with the tier 4/5 tables (until the migration list includes them). */
export function scratch() {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-eval-tiers-'));
  const db: Db = openDatabase({ dataDir: join(dir, 'data') });
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'intentions'").get()) db.exec(prospectiveSpatialSql);
  const clock = manualClock();
  const entities = createEntitiesRepo(db, clock);
  const audit = createAuditRepo(db, clock);
  return { db, clock, entities, audit, close: () => (db.close(), rmSync(dir, { recursive: true, force: true })) };
}

export const read = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
export const ratio = (a: number, b: number) => (b ? a / b : 1);
export const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Tuning sets (thresholds and rules are chosen on these) and the held-out sets (reported only). */
export const TIER_SETS = {
  intentions: { tuning: 'eval/intentions-tune.json', heldOut: 'eval/intentions.json' },
  sessions: { tuning: 'eval/sessions-tune.json', heldOut: 'eval/sessions.json' },
} as const;
