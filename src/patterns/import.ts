/**
 * Promoted patterns from an importer (io/memory-mcp): kept under their own detector name and a key
 * that names where they came from, so Hearth's detectors promote their own beside them. The same key
 * twice is one pattern (the id of the one already there).
 */
import type { Db } from '../db/open.js';
import type { EntitiesRepo } from '../tiers/entities/entities.repo.js';

export interface ImportedPattern {
  entity_name: string;
  metric: string;
  pattern_key: string;
  detector: string;
  memory_id: number | null;
  detected: number;
  evidence: Record<string, unknown>;
}

export function createPatternsImport(deps: { db: Db; entities: EntitiesRepo }) {
  const { db, entities } = deps;
  const insert = db.prepare(
    'INSERT OR IGNORE INTO promoted_patterns (entity_id, metric, pattern_key, detector, memory_id, detected, evidence) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const byKey = db.prepare('SELECT id FROM promoted_patterns WHERE pattern_key = ?').pluck();
  return {
    promoted(p: ImportedPattern): number {
      const e = entities.get(p.entity_name);
      const res = insert.run(
        e.id,
        p.metric,
        p.pattern_key,
        p.detector,
        p.memory_id,
        p.detected,
        JSON.stringify(p.evidence),
      );
      return res.changes ? Number(res.lastInsertRowid) : (byKey.get(p.pattern_key) as number);
    },
  };
}
export type PatternsImport = ReturnType<typeof createPatternsImport>;
