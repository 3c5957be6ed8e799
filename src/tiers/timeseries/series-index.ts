/**
 * Which series a question is about, without reading every series (migration 009). A series'
 * words are the tokens of "<entity name> <metric>" (dots and underscores as spaces), stemmed as
 * every other text match; its score for a query is shared words / its words, as before the index.
 */
import type { Db } from '../../db/open.js';
import { tokenize } from '../../ai/text.js';

/** Postings read per query word, best (fewest words) first: bounds the work whatever the house size. */
const PER_TERM = 200;
/** Series indexed per transaction when catching up (a first query after an upgrade, or after a bulk load). */
const INDEX_CHUNK = 5000;

export const seriesWords = (entityName: string, metric: string) => [
  ...new Set(tokenize(`${entityName} ${metric.replace(/[._]/g, ' ')}`)),
];

export interface SeriesMatch {
  id: number;
  score: number;
}

export function createSeriesIndex(db: Db) {
  const upto = db.prepare("SELECT n FROM counters WHERE name = 'series_terms_upto'").pluck();
  const topId = db.prepare('SELECT coalesce(max(id), 0) FROM series').pluck();
  const unindexed = db.prepare(
    'SELECT s.id, e.name AS entity_name, s.metric FROM series s JOIN entities e ON e.id = s.entity_id WHERE s.id > ? ORDER BY s.id LIMIT ?',
  );
  const add = db.prepare('INSERT OR IGNORE INTO series_terms (term, n, series_id) VALUES (?, ?, ?)');
  const setUpto = db.prepare("UPDATE counters SET n = max(n, ?) WHERE name = 'series_terms_upto'");
  const postings = db
    .prepare('SELECT series_id FROM series_terms WHERE term = ? ORDER BY n, series_id LIMIT ?')
    .pluck();
  const overlap = db.prepare(
    `SELECT series_id AS id, count(*) AS shared, max(n) AS n FROM series_terms
      WHERE series_id IN (SELECT value FROM json_each(?)) AND term IN (SELECT value FROM json_each(?)) GROUP BY series_id`,
  );

  const index = (id: number, entityName: string, metric: string) => {
    const words = seriesWords(entityName, metric);
    for (const w of words) add.run(w, words.length, id);
  };

  /** Indexes series created since the last call (by this or any other process). */
  const catchUp = db.transaction(() => {
    const from = upto.get() as number;
    const rows = unindexed.all(from, INDEX_CHUNK) as { id: number; entity_name: string; metric: string }[];
    for (const r of rows) index(r.id, r.entity_name, r.metric);
    if (rows.length) setUpto.run(rows[rows.length - 1].id);
    return rows.length;
  });

  return {
    /**
     * Indexes a series as it is created (inside its transaction, by the ingest writer), so a bulk
     * load does not leave the work to the next question. The watermark moves only when every
     * older series is indexed too; otherwise `refresh` catches up from it (INSERT OR IGNORE).
     */
    added(id: number, entityName: string, metric: string): void {
      index(id, entityName, metric);
      if ((upto.get() as number) === id - 1) setUpto.run(id);
    },
    refresh(): void {
      while ((topId.get() as number) > (upto.get() as number) && catchUp.immediate() > 0);
    },
    /** Series sharing words with `query`, best first (ties: oldest series first). */
    match(query: string): SeriesMatch[] {
      const q = [...new Set(tokenize(query))];
      if (!q.length) return [];
      this.refresh();
      const candidates = [...new Set(q.flatMap((t) => postings.all(t, PER_TERM) as number[]))];
      if (!candidates.length) return [];
      const rows = overlap.all(JSON.stringify(candidates), JSON.stringify(q)) as {
        id: number;
        shared: number;
        n: number;
      }[];
      return rows
        .map((r) => ({ id: r.id, score: r.shared / Math.max(1, r.n) }))
        .sort((a, b) => b.score - a.score || a.id - b.id);
    },
  };
}
export type SeriesIndex = ReturnType<typeof createSeriesIndex>;
