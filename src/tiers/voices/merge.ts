/**
 * Moves everything that belongs to one entity onto another, in the caller's transaction, then
 * deletes the emptied entity. Used by POST /voices/merge (a provisional speaker turns out to be an
 * enrolled person).
 *
 * Every column that references `entities(id)` is found from the schema (`pragma_foreign_key_list`),
 * so a table a later migration adds is moved too, never silently cascaded away (the SQL is
 * merge.repo.ts's). Where a move would break a rule, the rule wins without losing a row:
 * - series (one per entity and metric): the source series' readings join the target's series, whose
 *   rollups are dropped and rebuilt from the raw rows;
 * - locations (one active row per object): the more recently confirmed stays active, the other is archived;
 * - memories with the same `fact_key`: the newest stays active, older ones are superseded by it;
 * - relations that became duplicates or self-relations are ended (`valid_until`), not deleted;
 * - voice prints: averaged, weighted by their sample counts.
 */
import { nameKey } from '../../lib/names.js';
import { indexText, terms } from '../memory/text-match.js';
import type { MergeRepo } from './merge.repo.js';
import { blend, type PrintStore } from './prints.js';

export interface MergeCounts {
  [tableColumn: string]: { source: number; target: number };
}

/** Rows referencing the entity, by `table.column`, and its readings (through its series). */
export function countReferences(repo: MergeRepo, entityId: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { table, column } of repo.references())
    out[`${table}.${column}`] = repo.countRefs(table, column, entityId);
  out.readings = repo.readingsOf(entityId);
  return out;
}

/** Moves everything of `src` onto `dst` (see above) and deletes `src`; its memories are re-embedded after commit. */
export function moveEntity(
  repo: MergeRepo,
  prints: PrintStore,
  src: number,
  dst: number,
  dstName: string,
  now: number,
) {
  repo.markPending(src);
  // series: merge same-metric series first, so the generic move below meets no UNIQUE conflict
  const clashes = repo.seriesClashes(src, dst);
  for (const c of clashes) repo.mergeSeries(c.src_series, c.dst_series);
  if (clashes.length) repo.readingsDeleted();

  // locations: at most one active row per object after the move
  const srcActive = repo.activeLocation(src);
  const dstActive = repo.activeLocation(dst);
  if (srcActive && dstActive)
    repo.archiveLocation(srcActive.last_confirmed_ts > dstActive.last_confirmed_ts ? dstActive.id : srcActive.id);

  // voice prints: weighted by samples
  const a = prints.get(src);
  const b = prints.get(dst);
  if (a && b)
    prints.put(dst, blend(b.embedding, a.embedding, a.samples / (a.samples + b.samples)), a.samples + b.samples);
  else if (a) prints.put(dst, a.embedding, a.samples);
  if (a) prints.remove(src);

  // a container keeps its name beside its id (for history after a forget): it is the target now
  repo.containerName(src, dstName);

  const moved: Record<string, number> = {};
  for (const { table, column } of repo.references()) {
    if (table === 'voiceprints') continue;
    moved[`${table}.${column}`] = repo.moveRefs(table, column, src, dst);
  }
  // The import map points later imports of this entity at the target.
  repo.remapImports(src, dst);

  // vec0 metadata and keyword terms carry the entity (its id, its name): refresh them.
  const ids = repo.memoriesOf(dst);
  // (the live index and one being built beside it)
  const vecTables = repo.vectorTables();
  for (const m of ids) {
    repo.setTerms(m.id, terms(indexText(dstName, m.fact)).join(' '));
    for (const t of vecTables) repo.setVectorEntity(t, m.id, dst);
  }
  repo.vectorsChanged(ids.map((m) => m.id));

  // memories: one active row per fact_key
  for (const key of repo.sharedKeys(dst)) {
    const rows = repo.activeOfKey(dst, key);
    for (const old of rows.slice(1)) {
      repo.supersede(old, rows[0], now);
      for (const t of vecTables) repo.deactivateVector(t, old);
    }
  }

  // relations: end self-relations and duplicates of a current relation (history kept)
  const ended = repo.endSelfAndDuplicates(dst, now);

  repo.removeEntity(src);
  return { moved, series_merged: clashes.length, relations_ended: ended, memory_ids: ids.map((m) => m.id) };
}

/**
 * Gives entity `id` the name `name` in every place that carries it beside the id, in the caller's
 * transaction: the entity row (and `meta`, when given), its memories' keyword terms (re-embedded
 * after commit: they are marked pending), the container name of what is located in it, and the
 * series-name index (derived, rebuilt on the next query, migration 009). Used by a rename
 * (manage.service.ts) and by enrolling a provisional speaker (voices.service.ts).
 */
export function renameRows(repo: MergeRepo, id: number, name: string, now: number, meta?: string): void {
  repo.rename(id, name, nameKey(name), now, meta);
  for (const m of repo.memoriesOf(id)) repo.setTerms(m.id, terms(indexText(name, m.fact)).join(' '));
  repo.markPending(id);
  repo.containerName(id, name);
  repo.resetSeriesTerms(id);
}
