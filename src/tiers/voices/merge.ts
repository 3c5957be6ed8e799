/**
 * Moves everything that belongs to one entity onto another, in the caller's transaction, then
 * deletes the emptied entity. Used by POST /voices/merge (a provisional speaker turns out to be an
 * enrolled person).
 *
 * Every column that references `entities(id)` is found from the schema (`pragma_foreign_key_list`),
 * so a table a later migration adds is moved too, never silently cascaded away. Where a move would
 * break a rule, the rule wins without losing a row:
 * - series (one per entity and metric): the source series' readings join the target's series, whose
 *   rollups are dropped and rebuilt from the raw rows;
 * - locations (one active row per object): the more recently confirmed stays active, the other is archived;
 * - memories with the same `fact_key`: the newest stays active, older ones are superseded by it;
 * - relations that became duplicates or self-relations are ended (`valid_until`), not deleted;
 * - voice prints: averaged, weighted by their sample counts.
 */
import type { Db } from '../../db/open.js';
import { nameKey } from '../../lib/names.js';
import { indexText, terms } from '../memory/text-match.js';
import { vectorsChanged, vectorTables } from '../../db/vectors.js';
import { blend, type PrintStore } from './prints.js';

export interface MergeCounts {
  [tableColumn: string]: { source: number; target: number };
}

/** `table.column` pairs that reference entities(id). */
export function entityReferences(db: Db): { table: string; column: string }[] {
  return db
    .prepare(
      `SELECT m.name AS "table", p."from" AS "column" FROM sqlite_master m, pragma_foreign_key_list(m.name) p
      WHERE m.type = 'table' AND p."table" = 'entities' ORDER BY 1, 2`,
    )
    .all() as { table: string; column: string }[];
}

export function countReferences(db: Db, entityId: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { table, column } of entityReferences(db)) {
    out[`${table}.${column}`] = (
      db.prepare(`SELECT count(*) AS n FROM "${table}" WHERE "${column}" = ?`).get(entityId) as { n: number }
    ).n;
  }
  out['readings'] = (
    db
      .prepare('SELECT count(*) AS n FROM readings r JOIN series s ON s.id = r.series_id WHERE s.entity_id = ?')
      .get(entityId) as { n: number }
  ).n;
  return out;
}

export function moveEntity(db: Db, prints: PrintStore, src: number, dst: number, dstName: string, now: number) {
  // series: merge same-metric series first, so the generic move below meets no UNIQUE conflict
  const clashes = db
    .prepare(
      'SELECT s.id AS src_series, t.id AS dst_series FROM series s JOIN series t ON t.metric = s.metric AND t.entity_id = ? WHERE s.entity_id = ?',
    )
    .all(dst, src) as { src_series: number; dst_series: number }[];
  for (const c of clashes) {
    db.prepare('UPDATE readings SET series_id = ? WHERE series_id = ?').run(c.dst_series, c.src_series);
    db.prepare('DELETE FROM reading_rollups WHERE series_id IN (?, ?)').run(c.dst_series, c.src_series);
    db.prepare('DELETE FROM rollup_watermarks WHERE series_id IN (?, ?)').run(c.dst_series, c.src_series);
    db.prepare('DELETE FROM series WHERE id = ?').run(c.src_series);
  }
  // The rollup job keeps the latest day/week in memory; this counter tells it to re-read (migration 007).
  if (clashes.length) db.prepare("UPDATE counters SET n = n + 1 WHERE name = 'readings_deleted'").run();

  // locations: at most one active row per object after the move
  const srcActive = db
    .prepare('SELECT id, last_confirmed_ts FROM locations WHERE entity_id = ? AND active = 1')
    .get(src) as { id: number; last_confirmed_ts: number } | undefined;
  const dstActive = db
    .prepare('SELECT id, last_confirmed_ts FROM locations WHERE entity_id = ? AND active = 1')
    .get(dst) as { id: number; last_confirmed_ts: number } | undefined;
  if (srcActive && dstActive) {
    db.prepare('UPDATE locations SET active = 0 WHERE id = ?').run(
      srcActive.last_confirmed_ts > dstActive.last_confirmed_ts ? dstActive.id : srcActive.id,
    );
  }

  // voice prints: weighted by samples
  const a = prints.get(src);
  const b = prints.get(dst);
  if (a && b)
    prints.put(dst, blend(b.embedding, a.embedding, a.samples / (a.samples + b.samples)), a.samples + b.samples);
  else if (a) prints.put(dst, a.embedding, a.samples);
  if (a) prints.remove(src);

  // a container keeps its name beside its id (for history after a forget): it is the target now
  db.prepare('UPDATE locations SET container_name = ? WHERE container_id = ?').run(dstName, src);

  const moved: Record<string, number> = {};
  for (const { table, column } of entityReferences(db)) {
    if (table === 'voiceprints') continue;
    moved[`${table}.${column}`] = db
      .prepare(`UPDATE "${table}" SET "${column}" = ? WHERE "${column}" = ?`)
      .run(dst, src).changes;
  }
  // The import map points later imports of this entity at the target.
  db.prepare("UPDATE import_map SET dst_id = ? WHERE tbl = 'entities' AND dst_id = ?").run(dst, src);

  // vec0 metadata and keyword terms carry the entity (its id, its name): refresh them.
  const ids = db.prepare('SELECT id, fact FROM memories WHERE entity_id = ?').all(dst) as {
    id: number;
    fact: string;
  }[];
  // (the live index and one being built beside it)
  const vecTables = vectorTables(db);
  for (const m of ids) {
    db.prepare('UPDATE memory_fts SET terms = ? WHERE rowid = ?').run(
      terms(indexText(dstName, m.fact)).join(' '),
      m.id,
    );
    for (const t of vecTables)
      db.prepare(`UPDATE ${t} SET entity_id = ? WHERE memory_id = ?`).run(BigInt(dst), BigInt(m.id));
  }
  vectorsChanged(
    db,
    ids.map((m) => m.id),
  );

  // memories: one active row per fact_key
  const keys = db
    .prepare(
      "SELECT fact_key FROM memories WHERE entity_id = ? AND status = 'active' AND fact_key IS NOT NULL GROUP BY fact_key HAVING count(*) > 1",
    )
    .all(dst) as { fact_key: string }[];
  for (const { fact_key } of keys) {
    const rows = db
      .prepare(
        "SELECT id FROM memories WHERE entity_id = ? AND fact_key = ? AND status = 'active' ORDER BY valid_from DESC, id DESC",
      )
      .all(dst, fact_key) as { id: number }[];
    for (const old of rows.slice(1)) {
      db.prepare(
        "UPDATE memories SET status = 'superseded', superseded_by = ?, valid_until = max(valid_from, ?), updated = ? WHERE id = ?",
      ).run(rows[0].id, now, now, old.id);
      for (const t of vecTables) db.prepare(`UPDATE ${t} SET active = 0 WHERE memory_id = ?`).run(BigInt(old.id));
    }
  }

  // relations: end self-relations and duplicates of a current relation (history kept)
  const ended =
    db
      .prepare('UPDATE relations SET valid_until = ? WHERE entity_a = ? AND entity_b = ? AND valid_until IS NULL')
      .run(now, dst, dst).changes +
    db
      .prepare(
        `UPDATE relations SET valid_until = ? WHERE valid_until IS NULL AND (entity_a = ? OR entity_b = ?) AND id NOT IN (
         SELECT min(id) FROM relations WHERE valid_until IS NULL AND (entity_a = ? OR entity_b = ?) GROUP BY entity_a, entity_b, rel_type)`,
      )
      .run(now, dst, dst, dst, dst).changes;

  db.prepare('DELETE FROM entities WHERE id = ?').run(src);
  return { moved, series_merged: clashes.length, relations_ended: ended, memory_ids: ids.map((m) => m.id) };
}

/**
 * Gives entity `id` the name `name` in every place that carries it beside the id, in the caller's
 * transaction: the entity row (and `meta`, when given), its memories' keyword terms (re-embedded
 * after commit: they are marked pending), the container name of what is located in it, and the
 * series-name index (derived, rebuilt on the next query, migration 009). Used by a rename
 * (manage.service.ts) and by enrolling a provisional speaker (voices.service.ts).
 */
export function renameRows(db: Db, id: number, name: string, now: number, meta?: string): void {
  if (meta === undefined)
    db.prepare('UPDATE entities SET name = ?, name_key = ?, updated = ? WHERE id = ?').run(
      name,
      nameKey(name),
      now,
      id,
    );
  else
    db.prepare('UPDATE entities SET name = ?, name_key = ?, meta = ?, updated = ? WHERE id = ?').run(
      name,
      nameKey(name),
      meta,
      now,
      id,
    );
  const update = db.prepare('UPDATE memory_fts SET terms = ? WHERE rowid = ?');
  for (const m of db.prepare('SELECT id, fact FROM memories WHERE entity_id = ?').all(id) as {
    id: number;
    fact: string;
  }[])
    update.run(terms(indexText(name, m.fact)).join(' '), m.id);
  db.prepare("UPDATE memories SET embed_state = 'pending' WHERE entity_id = ?").run(id);
  db.prepare('UPDATE locations SET container_name = ? WHERE container_id = ?').run(name, id);
  if (db.prepare('SELECT 1 FROM series WHERE entity_id = ?').get(id)) {
    db.prepare('DELETE FROM series_terms').run();
    db.prepare("UPDATE counters SET n = 0 WHERE name = 'series_terms_upto'").run();
  }
}
