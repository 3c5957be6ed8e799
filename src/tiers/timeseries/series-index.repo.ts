/**
 * The series index's SQL (series-index.ts, migration 009; issue #36: repositories own their tables'
 * SQL): `series_terms`, its watermark in `counters`, and the series it has yet to index. Callers own
 * transactions.
 */
import type { Db } from '../../db/open.js';

/** A series with its entity's name, as the index words it. */
export interface NamedSeries {
  id: number;
  entity_name: string;
  metric: string;
}

export function createSeriesIndexRepo(db: Db) {
  // counters: every series with id ≤ this is indexed
  const upto = db.prepare("SELECT n FROM counters WHERE name = 'series_terms_upto'").pluck();
  const setUpto = db.prepare("UPDATE counters SET n = max(n, ?) WHERE name = 'series_terms_upto'");

  // series
  const topId = db.prepare('SELECT coalesce(max(id), 0) FROM series').pluck();
  const unindexed = db.prepare(
    'SELECT s.id, e.name AS entity_name, s.metric FROM series s JOIN entities e ON e.id = s.entity_id WHERE s.id > ? ORDER BY s.id LIMIT ?',
  );

  // series_terms
  const add = db.prepare('INSERT OR IGNORE INTO series_terms (term, n, series_id) VALUES (?, ?, ?)');
  const postings = db
    .prepare('SELECT series_id FROM series_terms WHERE term = ? ORDER BY n, series_id LIMIT ?')
    .pluck();
  const overlap = db.prepare(
    `SELECT series_id AS id, count(*) AS shared, max(n) AS n FROM series_terms
      WHERE series_id IN (SELECT value FROM json_each(?)) AND term IN (SELECT value FROM json_each(?)) GROUP BY series_id`,
  );

  return {
    /** The index's watermark: the highest series id below which every series is indexed. */
    upto: () => upto.get() as number,
    /** Moves the watermark up to `id` (never down). */
    setUpto: (id: number) => {
      setUpto.run(id);
    },
    /** The highest series id (0 when there is none). */
    topSeriesId: () => topId.get() as number,
    /** Up to `limit` series with id > `after`, by id. */
    unindexed: (after: number, limit: number) => unindexed.all(after, limit) as NamedSeries[],
    /** Adds one word of a series that has `n` words (kept when already there). */
    addTerm: (term: string, n: number, seriesId: number) => {
      add.run(term, n, seriesId);
    },
    /** Up to `limit` series holding `term`, those with the fewest words first. */
    postings: (term: string, limit: number) => postings.all(term, limit) as number[],
    /** For each of `seriesIds`: how many of `terms` it holds, and its word count. */
    overlap: (seriesIds: number[], terms: string[]) =>
      overlap.all(JSON.stringify(seriesIds), JSON.stringify(terms)) as { id: number; shared: number; n: number }[],
  };
}
export type SeriesIndexRepo = ReturnType<typeof createSeriesIndexRepo>;
