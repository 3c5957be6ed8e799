/**
 * Which series a question is about, without reading every series (migration 009). A series'
 * words are the tokens of "<entity name> <metric>" (dots and underscores as spaces), stemmed as
 * every other text match; its score for a query is shared words / its words, as before the index.
 */
import type { Db } from '../../db/open.js';
import { tokenize } from '../../ai/text.js';
import { createSeriesIndexRepo } from './series-index.repo.js';

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
  const repo = createSeriesIndexRepo(db);

  const index = (id: number, entityName: string, metric: string) => {
    const words = seriesWords(entityName, metric);
    for (const w of words) repo.addTerm(w, words.length, id);
  };

  /** Indexes series created since the last call (by this or any other process). */
  const catchUp = db.transaction(() => {
    const from = repo.upto();
    const rows = repo.unindexed(from, INDEX_CHUNK);
    for (const r of rows) index(r.id, r.entity_name, r.metric);
    if (rows.length) repo.setUpto(rows[rows.length - 1].id);
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
      if (repo.upto() === id - 1) repo.setUpto(id);
    },
    refresh(): void {
      while (repo.topSeriesId() > repo.upto() && catchUp.immediate() > 0);
    },
    /** Series sharing words with `query`, best first (ties: oldest series first). */
    match(query: string): SeriesMatch[] {
      const q = [...new Set(tokenize(query))];
      if (!q.length) return [];
      this.refresh();
      const candidates = [...new Set(q.flatMap((t) => repo.postings(t, PER_TERM)))];
      if (!candidates.length) return [];
      return repo
        .overlap(candidates, q)
        .map((r) => ({ id: r.id, score: r.shared / Math.max(1, r.n) }))
        .sort((a, b) => b.score - a.score || a.id - b.id);
    },
  };
}
export type SeriesIndex = ReturnType<typeof createSeriesIndex>;
