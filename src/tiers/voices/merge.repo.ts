/**
 * SQL of moving, renaming and counting everything of one entity (merge.ts): a merge is one unit of
 * work across every table that references an entity, so its statements live together here, grouped
 * by table. Columns that reference `entities(id)` come from the schema (`pragma_foreign_key_list`);
 * their statements, and those on the vector tables, are compiled once per table. Callers own transactions.
 */
import type { Db } from '../../db/open.js';
import { statementCache } from '../../db/statements.js';
import { vectorsChanged, vectorTables } from '../../db/vectors.js';
import { deleteEntityStatement, updateEntityStatement } from '../entities/entities.repo.js';
import { supersedeStatement } from '../memory/memory.repo.js';
import { archiveLocationStatement } from '../spatial/spatial.repo.js';

export function createMergeRepo(db: Db) {
  const prepared = statementCache(db);
  const references = db.prepare(
    `SELECT m.name AS "table", p."from" AS "column" FROM sqlite_master m, pragma_foreign_key_list(m.name) p
      WHERE m.type = 'table' AND p."table" = 'entities' ORDER BY 1, 2`,
  );
  // entities
  const rename = updateEntityStatement(db, 'name', 'name_key');
  const renameWithMeta = updateEntityStatement(db, 'name', 'name_key', 'meta');
  const removeEntity = deleteEntityStatement(db);
  // memories and their keyword terms
  const factsOf = db.prepare(
    "SELECT id, fact, status FROM memories WHERE entity_id = ? ORDER BY status = 'active' DESC, id LIMIT 50",
  );
  const memoriesOf = db.prepare('SELECT id, fact FROM memories WHERE entity_id = ?');
  const markPending = db.prepare("UPDATE memories SET embed_state = 'pending' WHERE entity_id = ?");
  const setTerms = db.prepare('UPDATE memory_fts SET terms = ? WHERE rowid = ?');
  const sharedKeys = db.prepare(
    "SELECT fact_key FROM memories WHERE entity_id = ? AND status = 'active' AND fact_key IS NOT NULL GROUP BY fact_key HAVING count(*) > 1",
  );
  const activeOfKey = db.prepare(
    "SELECT id FROM memories WHERE entity_id = ? AND fact_key = ? AND status = 'active' ORDER BY valid_from DESC, id DESC",
  );
  const supersede = supersedeStatement(db);
  // series, readings and their derived tables
  const readingsOf = db.prepare(
    'SELECT count(*) AS n FROM readings r JOIN series s ON s.id = r.series_id WHERE s.entity_id = ?',
  );
  const clashes = db.prepare(
    'SELECT s.id AS src_series, t.id AS dst_series FROM series s JOIN series t ON t.metric = s.metric AND t.entity_id = ? WHERE s.entity_id = ?',
  );
  const moveReadings = db.prepare('UPDATE readings SET series_id = ? WHERE series_id = ?');
  const dropRollups = db.prepare('DELETE FROM reading_rollups WHERE series_id IN (?, ?)');
  const dropWatermarks = db.prepare('DELETE FROM rollup_watermarks WHERE series_id IN (?, ?)');
  const dropSeries = db.prepare('DELETE FROM series WHERE id = ?');
  const readingsDeleted = db.prepare("UPDATE counters SET n = n + 1 WHERE name = 'readings_deleted'");
  const hasSeries = db.prepare('SELECT 1 FROM series WHERE entity_id = ?');
  const clearSeriesTerms = db.prepare('DELETE FROM series_terms');
  const seriesTermsUpto = db.prepare("UPDATE counters SET n = 0 WHERE name = 'series_terms_upto'");
  // locations
  const activeLocation = db.prepare('SELECT id, last_confirmed_ts FROM locations WHERE entity_id = ? AND active = 1');
  const archiveLocation = archiveLocationStatement(db);
  const containerName = db.prepare('UPDATE locations SET container_name = ? WHERE container_id = ?');
  // relations
  const endSelf = db.prepare(
    'UPDATE relations SET valid_until = ? WHERE entity_a = ? AND entity_b = ? AND valid_until IS NULL',
  );
  const endDuplicates = db.prepare(
    `UPDATE relations SET valid_until = ? WHERE valid_until IS NULL AND (entity_a = ? OR entity_b = ?) AND id NOT IN (
         SELECT min(id) FROM relations WHERE valid_until IS NULL AND (entity_a = ? OR entity_b = ?) GROUP BY entity_a, entity_b, rel_type)`,
  );
  // import_map
  const remapImports = db.prepare("UPDATE import_map SET dst_id = ? WHERE tbl = 'entities' AND dst_id = ?");

  return {
    /** `table.column` pairs that reference entities(id). */
    references: () => references.all() as { table: string; column: string }[],
    /** Rows of `table` whose `column` is the entity. */
    countRefs: (table: string, column: string, entityId: number) =>
      (prepared(`SELECT count(*) AS n FROM "${table}" WHERE "${column}" = ?`).get(entityId) as { n: number }).n,
    /** Points `column` of `table` at `dst` wherever it was `src`: the rows moved. */
    moveRefs: (table: string, column: string, src: number, dst: number) =>
      prepared(`UPDATE "${table}" SET "${column}" = ? WHERE "${column}" = ?`).run(dst, src).changes,
    /** Renames the entity row; with `meta` (JSON text) its meta too. */
    rename(id: number, name: string, key: string, now: number, meta?: string): void {
      if (meta === undefined) rename.run(name, key, now, id);
      else renameWithMeta.run(name, key, meta, now, id);
    },
    removeEntity: (id: number) => void removeEntity.run(id),

    /** Its facts, current first, at most 50 (what a merge or delete preview lists). */
    factsOf: (entityId: number) => factsOf.all(entityId) as { id: number; fact: string; status: string }[],
    memoriesOf: (entityId: number) => memoriesOf.all(entityId) as { id: number; fact: string }[],
    /** Its memories' vectors carry its name: they are re-embedded after commit. */
    markPending: (entityId: number) => void markPending.run(entityId),
    setTerms: (memoryId: number, terms: string) => void setTerms.run(terms, memoryId),
    /** fact_keys the entity holds more than one active memory of. */
    sharedKeys: (entityId: number) => (sharedKeys.all(entityId) as { fact_key: string }[]).map((r) => r.fact_key),
    /** Active memories of one fact_key, newest first. */
    activeOfKey: (entityId: number, key: string) =>
      (activeOfKey.all(entityId, key) as { id: number }[]).map((r) => r.id),
    supersede: (id: number, by: number, now: number) => void supersede.run(by, now, now, id),

    /** The live vector table and one being built beside it. */
    vectorTables: () => vectorTables(db),
    setVectorEntity: (table: string, memoryId: number, entityId: number) =>
      void prepared(`UPDATE ${table} SET entity_id = ? WHERE memory_id = ?`).run(BigInt(entityId), BigInt(memoryId)),
    deactivateVector: (table: string, memoryId: number) =>
      void prepared(`UPDATE ${table} SET active = 0 WHERE memory_id = ?`).run(BigInt(memoryId)),
    vectorsChanged: (memoryIds: number[]) => vectorsChanged(db, memoryIds),

    readingsOf: (entityId: number) => (readingsOf.get(entityId) as { n: number }).n,
    /** Pairs of the source's and the target's series of one metric. */
    seriesClashes: (src: number, dst: number) => clashes.all(dst, src) as { src_series: number; dst_series: number }[],
    /** Moves the readings of one series into another and drops the source series; both lose their rollups. */
    mergeSeries(srcSeries: number, dstSeries: number): void {
      moveReadings.run(dstSeries, srcSeries);
      dropRollups.run(dstSeries, srcSeries);
      dropWatermarks.run(dstSeries, srcSeries);
      dropSeries.run(srcSeries);
    },
    /** The rollup job keeps the latest day/week in memory; this counter tells it to re-read (migration 007). */
    readingsDeleted: () => void readingsDeleted.run(),
    /** Drops the series-name index (derived, rebuilt on the next query, migration 009) if the entity has series. */
    resetSeriesTerms(entityId: number): void {
      if (hasSeries.get(entityId)) {
        clearSeriesTerms.run();
        seriesTermsUpto.run();
      }
    },

    activeLocation: (entityId: number) =>
      activeLocation.get(entityId) as { id: number; last_confirmed_ts: number } | undefined,
    archiveLocation: (id: number) => void archiveLocation.run(id),
    /** A container keeps its name beside its id (for history after a forget). */
    containerName: (containerId: number, name: string) => void containerName.run(name, containerId),

    /** Ends the entity's relations to itself, then duplicates of a current relation: how many. */
    endSelfAndDuplicates: (id: number, now: number) =>
      endSelf.run(now, id, id).changes + endDuplicates.run(now, id, id, id, id).changes,

    /** Later imports of the source entity go to the target. */
    remapImports: (src: number, dst: number) => void remapImports.run(dst, src),
  };
}
export type MergeRepo = ReturnType<typeof createMergeRepo>;
