/**
 * Tier 4 — prospective memory (intentions) and tier 5 — spatial memory (locations), SPEC §3.
 *
 * `intention_fts` follows tier 1 (001-memory.ts): a standalone FTS5 table keyed by intention id
 * holding *normalised* trigger terms from our own tokenizer, so a query is built from our tokens as
 * quoted literals and user text never reaches FTS syntax.
 *
 * Trigger vectors are a BLOB column (`embedding`, float32, L2-normalised) fingerprinted by
 * `embed_model`, not a sqlite-vec table: a household has tens, at most a few hundred, active
 * intentions, so a cosine over all of them in JS costs microseconds and needs no index sized by the
 * embedder's dimension. A vector made by another model is never compared: it is re-made lazily
 * on the next check (see prospective.service.ts).
 *
 * `intentions.id` is AUTOINCREMENT so an id — and with it an FTS rowid — is never reused after a
 * delete; the trigger drops the FTS row whenever an intention goes, including through the
 * `ON DELETE CASCADE` of a forgotten entity (SQLite runs triggers for foreign-key actions).
 *
 * `locations` keeps every sighting; exactly one row per object is `active` (partial unique index).
 * `container_name` is kept beside `container_id` so history still reads after a container entity
 * is forgotten. Confidence is stored as confirmed and decayed on read, never written back.
 */
export default `
CREATE TABLE intentions (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  entity_id     INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  trigger_text  TEXT NOT NULL,
  action_text   TEXT NOT NULL,
  active        INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  once          INTEGER NOT NULL DEFAULT 1 CHECK (once IN (0, 1)),
  expires_at    REAL,
  created       REAL NOT NULL,
  fired_count   INTEGER NOT NULL DEFAULT 0,
  last_fired    REAL,
  embedding     BLOB,
  embed_model   TEXT
);
CREATE INDEX intentions_active ON intentions(active, entity_id);

CREATE VIRTUAL TABLE intention_fts USING fts5(terms, tokenize = 'unicode61 remove_diacritics 2');
CREATE TRIGGER intentions_fts_delete AFTER DELETE ON intentions BEGIN
  DELETE FROM intention_fts WHERE rowid = old.id;
END;

CREATE TABLE locations (
  id                 INTEGER PRIMARY KEY,
  entity_id          INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  container_id       INTEGER REFERENCES entities(id) ON DELETE SET NULL,
  container_name     TEXT NOT NULL,
  confidence         REAL NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
  last_confirmed_ts  REAL NOT NULL,
  active             INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  source             TEXT,
  note               TEXT,
  created            REAL NOT NULL
);
CREATE UNIQUE INDEX locations_one_active ON locations(entity_id) WHERE active = 1;
CREATE INDEX locations_history ON locations(entity_id, created);
CREATE INDEX locations_container ON locations(container_id) WHERE active = 1;
`;
