/**
 * An inverted index of series names for `cross_query` / context matching (issue #10 item 12): one row
 * per (word of "<entity> <metric>", series), with `n` = that series' distinct words, the score's
 * denominator — so the best matches of a word are a prefix of its index range, and 100k series cost
 * a few index look-ups instead of a scan. Filled from `series.id > counters.series_terms_upto` by
 * `tiers/timeseries/series-index.ts` (series ids are AUTOINCREMENT, so that watermark is exact);
 * derived and rebuildable: deleting every row and the counter re-indexes on the next query.
 */
export default `
CREATE TABLE series_terms (
  term       TEXT NOT NULL,
  n          INTEGER NOT NULL,
  series_id  INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,
  PRIMARY KEY (term, n, series_id)
) WITHOUT ROWID;
CREATE INDEX series_terms_series ON series_terms(series_id);
INSERT INTO counters (name, n) VALUES ('series_terms_upto', 0);
`;
