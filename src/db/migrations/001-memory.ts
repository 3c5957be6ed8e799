/**
 * Tier 1 — semantic memory (SPEC §3). Vectors live in a sqlite-vec table created by
 * `vectors.ts` once the embedder's dimension is known; `embed_meta` fingerprints it.
 *
 * `memory_fts` is a standalone FTS5 table keyed by memory id holding *normalised* terms (stemmed,
 * stopwords removed — the same tokenizer as the local embedder), so keyword queries are built from
 * our own tokens and quoted as literals; user text never reaches FTS syntax. `memory_vocab` gives
 * document frequencies for the evidence gate in recall.
 */
export default `
CREATE TABLE entities (
  id       INTEGER PRIMARY KEY,
  name     TEXT NOT NULL UNIQUE COLLATE NOCASE,
  type     TEXT NOT NULL DEFAULT 'person',
  meta     TEXT NOT NULL DEFAULT '{}',
  created  REAL NOT NULL,
  updated  REAL NOT NULL
);

CREATE TABLE memories (
  id              INTEGER PRIMARY KEY,
  entity_id       INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  fact            TEXT NOT NULL,
  category        TEXT NOT NULL,
  confidence      REAL NOT NULL,
  source          TEXT NOT NULL,
  source_trust    INTEGER NOT NULL,
  fact_key        TEXT,
  created         REAL NOT NULL,
  updated         REAL NOT NULL,
  last_confirmed  REAL NOT NULL,
  last_accessed   REAL,
  access_count    INTEGER NOT NULL DEFAULT 0,
  superseded_by   INTEGER REFERENCES memories(id) ON DELETE SET NULL,
  valid_from      REAL NOT NULL,
  valid_until     REAL,
  status          TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','superseded','contested')),
  -- 'ok' once a vector of the current embed_meta model is stored, else 'pending' (filled by reembed)
  embed_state     TEXT NOT NULL DEFAULT 'pending' CHECK (embed_state IN ('ok','pending'))
);
CREATE INDEX memories_entity ON memories(entity_id, status);
CREATE INDEX memories_fact_key ON memories(entity_id, fact_key) WHERE fact_key IS NOT NULL;
CREATE INDEX memories_pending ON memories(embed_state) WHERE embed_state = 'pending';
CREATE INDEX memories_superseded_by ON memories(superseded_by) WHERE superseded_by IS NOT NULL;

CREATE VIRTUAL TABLE memory_fts USING fts5(terms, tokenize = 'unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE memory_vocab USING fts5vocab(memory_fts, 'row');

CREATE TABLE embed_meta (
  id        INTEGER PRIMARY KEY CHECK (id = 1),
  provider  TEXT NOT NULL,
  model     TEXT NOT NULL,
  dim       INTEGER NOT NULL,
  updated   REAL NOT NULL
);

CREATE TABLE relations (
  id           INTEGER PRIMARY KEY,
  entity_a     INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  entity_b     INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  rel_type     TEXT NOT NULL,
  meta         TEXT NOT NULL DEFAULT '{}',
  created      REAL NOT NULL,
  valid_from   REAL NOT NULL,
  valid_until  REAL
);
CREATE INDEX relations_a ON relations(entity_a, valid_until);
CREATE INDEX relations_b ON relations(entity_b, valid_until);

CREATE TABLE audit (
  id      INTEGER PRIMARY KEY,
  ts      REAL NOT NULL,
  actor   TEXT NOT NULL,
  op      TEXT NOT NULL,
  target  TEXT,
  before  TEXT,
  after   TEXT
);
CREATE INDEX audit_ts ON audit(ts);
`;
