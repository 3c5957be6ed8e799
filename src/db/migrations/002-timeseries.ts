/**
 * Tier 2 — time series (SPEC §3). Readings are keyed by a `series` row (entity, metric) instead of
 * repeating those strings on every reading, with `ts` in integer milliseconds, so a raw numeric
 * reading costs ~50 bytes on disk with its index. The API answers in epoch seconds as if these were
 * the logical `readings(entity_id, metric, unit, …, source, ts)` table.
 *
 * Rollups are keyed by series and bucket; `rollup_watermarks.last_id` is the highest reading id
 * already rolled up, so any reading inserted since — on time or late — marks its buckets for an
 * exact re-computation from the raw rows.
 */
export default `
CREATE TABLE sources (
  id    INTEGER PRIMARY KEY,
  name  TEXT NOT NULL UNIQUE
);

CREATE TABLE series (
  id          INTEGER PRIMARY KEY,
  entity_id   INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  metric      TEXT NOT NULL,
  unit        TEXT,
  value_type  TEXT NOT NULL CHECK (value_type IN ('numeric','categorical','composite')),
  created     REAL NOT NULL,
  UNIQUE (entity_id, metric)
);

-- AUTOINCREMENT: ids are never reused after deletes, so "id > watermark" always means "not rolled up yet".
CREATE TABLE readings (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  series_id  INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,
  ts_ms      INTEGER NOT NULL,
  value_num  REAL,
  value_cat  TEXT,
  value_json TEXT,
  source_id  INTEGER REFERENCES sources(id),
  parent_id  INTEGER
);
CREATE INDEX readings_series_ts ON readings(series_id, ts_ms);

CREATE TABLE reading_rollups (
  series_id    INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,
  bucket_type  TEXT NOT NULL CHECK (bucket_type IN ('hour','day','week')),
  bucket_ts    REAL NOT NULL,
  count        INTEGER NOT NULL,
  avg_num      REAL,
  min_num      REAL,
  max_num      REAL,
  p10_num      REAL,
  p90_num      REAL,
  mode_cat     TEXT,
  PRIMARY KEY (series_id, bucket_type, bucket_ts)
) WITHOUT ROWID;

CREATE TABLE rollup_watermarks (
  series_id  INTEGER PRIMARY KEY REFERENCES series(id) ON DELETE CASCADE,
  last_id    INTEGER NOT NULL,
  last_ts    REAL
);

CREATE TABLE schedule_events (
  id          INTEGER PRIMARY KEY,
  entity_id   INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  title       TEXT NOT NULL,
  start_ts    REAL NOT NULL,
  end_ts      REAL,
  recurrence  TEXT,
  meta        TEXT NOT NULL DEFAULT '{}',
  created     REAL NOT NULL
);
CREATE INDEX schedule_entity ON schedule_events(entity_id, start_ts);
`;
