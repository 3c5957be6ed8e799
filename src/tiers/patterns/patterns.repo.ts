/**
 * The pattern engine's SQL (issue #36: repositories own their tables' SQL): the read-only series,
 * rollup and raw reads a detector's context makes, and the `promoted_patterns` table — the engine's
 * upsert, the importer's insert, the list the doors show. The engine (src/patterns/) holds no Db.
 */
import type { Db } from '../../db/open.js';
import { nameKey } from '../../lib/names.js';
import { entityIdByKey } from '../entities/entities.repo.js';
import type { RollupRow as WindowRollupRow } from '../timeseries/window.reader.js';

export interface SeriesRow {
  id: number;
  entity: string;
  entity_type: string;
  metric: string;
  unit: string | null;
  value_type: 'numeric' | 'categorical';
}
/** An hour/day/week bucket as a detector reads it: the ask tier's row with the percentiles. */
export interface RollupRow extends WindowRollupRow {
  p10: number | null;
  p90: number | null;
}
export interface RawRow {
  ts_ms: number;
  value_num: number | null;
  value_cat: string | null;
}

/** What a detector's context reads (prepared SELECTs only): safe on a read-only connection. */
export interface PatternReads {
  series(): SeriesRow[];
  rollups(seriesId: number, bucket: string, fromTs: number, toTs: number): RollupRow[];
  raw(seriesId: number, fromMs: number, toMs: number): RawRow[];
}

export function createPatternReads(db: Db): PatternReads {
  const seriesStmt = db.prepare(
    `SELECT s.id, e.name AS entity, e.type AS entity_type, s.metric, s.unit, s.value_type
       FROM series s JOIN entities e ON e.id = s.entity_id WHERE s.value_type != 'composite' ORDER BY s.id`,
  );
  const rollupStmt = db.prepare(
    `SELECT bucket_ts, count, avg_num AS avg, min_num AS min, max_num AS max, p10_num AS p10, p90_num AS p90, mode_cat AS mode
       FROM reading_rollups WHERE series_id = ? AND bucket_type = ? AND bucket_ts >= ? AND bucket_ts < ? ORDER BY bucket_ts`,
  );
  const rawStmt = db.prepare(
    'SELECT ts_ms, value_num, value_cat FROM readings WHERE series_id = ? AND ts_ms >= ? AND ts_ms < ? ORDER BY ts_ms',
  );
  return {
    series: () => seriesStmt.all() as SeriesRow[],
    rollups: (seriesId, bucket, fromTs, toTs) => rollupStmt.all(seriesId, bucket, fromTs, toTs) as RollupRow[],
    raw: (seriesId, fromMs, toMs) => rawStmt.all(seriesId, fromMs, toMs) as RawRow[],
  };
}

export interface PromotedRow {
  pattern_key: string;
  detector: string;
  metric: string;
  memory_id: number | null;
  detected: number;
  evidence: Record<string, unknown>;
  entity_name: string | null;
  fact: string | null;
  status: string | null;
  confidence: number | null;
}

export function createPatternsRepo(db: Db) {
  const upsert = db.prepare(
    `INSERT INTO promoted_patterns (entity_id, metric, pattern_key, detector, memory_id, detected, evidence)
     VALUES (${entityIdByKey('@key')}, @metric, @pattern_key, @detector, @memory_id, @detected, @evidence)
     ON CONFLICT(pattern_key) DO UPDATE SET memory_id = excluded.memory_id, detected = excluded.detected,
       evidence = excluded.evidence, detector = excluded.detector`,
  );
  const insert = db.prepare(
    'INSERT OR IGNORE INTO promoted_patterns (entity_id, metric, pattern_key, detector, memory_id, detected, evidence) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const byKey = db.prepare('SELECT id FROM promoted_patterns WHERE pattern_key = ?').pluck();
  const list = db.prepare(
    `SELECT p.pattern_key, p.detector, p.metric, p.memory_id, p.detected, p.evidence, e.name AS entity_name, m.fact, m.status, m.confidence
       FROM promoted_patterns p LEFT JOIN entities e ON e.id = p.entity_id LEFT JOIN memories m ON m.id = p.memory_id
      WHERE (@key IS NULL OR p.entity_id = ${entityIdByKey('@key')}) ORDER BY p.detected DESC`,
  );
  return {
    /** The engine's promotion: a key names the pattern, so a drifted value updates the same row. */
    promote(p: {
      entity: string;
      metric: string;
      pattern_key: string;
      detector: string;
      memory_id: number;
      detected: number;
      evidence: Record<string, unknown>;
    }): void {
      upsert.run({
        key: nameKey(p.entity),
        metric: p.metric,
        pattern_key: p.pattern_key,
        detector: p.detector,
        memory_id: p.memory_id,
        detected: p.detected,
        evidence: JSON.stringify(p.evidence),
      });
    },
    /** An importer's pattern: the same key twice is one row (the id of the one already there). */
    imported(entityId: number, p: Omit<PromotedRow, 'entity_name' | 'fact' | 'status' | 'confidence'>): number {
      const res = insert.run(
        entityId,
        p.metric,
        p.pattern_key,
        p.detector,
        p.memory_id,
        p.detected,
        JSON.stringify(p.evidence),
      );
      return res.changes ? Number(res.lastInsertRowid) : (byKey.get(p.pattern_key) as number);
    },
    promoted(entityName?: string): PromotedRow[] {
      const rows = list.all({ key: entityName === undefined ? null : nameKey(entityName) }) as (Omit<
        PromotedRow,
        'evidence'
      > & { evidence: string })[];
      return rows.map((row) => ({ ...row, evidence: JSON.parse(row.evidence) as Record<string, unknown> }));
    },
  };
}
export type PatternsRepo = ReturnType<typeof createPatternsRepo>;
