/**
 * Voice prints (SPEC §3 `voiceprints`) and the import map.
 *
 * `voiceprints` holds one L2-normalised float32 embedding per speaker entity, the number of samples
 * averaged into it, and when it last changed. `voice_settings.dim` is the embedding length, fixed by
 * the first print this installation stores: speaker-embedding models differ (ECAPA 192, resemblyzer
 * 256, …) and prints of two models must never be compared.
 *
 * `import_map` records which row of an outside database (`source` names the database, `tbl` its
 * table) became which Hearth row, so a second `hearth import` adds only what is new and never
 * resurrects a row the household deleted after the first import.
 */
export default `
CREATE TABLE voiceprints (
  entity_id  INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
  embedding  BLOB NOT NULL,
  samples    INTEGER NOT NULL DEFAULT 1 CHECK (samples >= 1),
  updated    REAL NOT NULL
);

CREATE TABLE voice_settings (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  dim           INTEGER NOT NULL CHECK (dim > 0),
  -- N of the next provisional speaker \`unknown_speaker_N\`: numbers are never reused after an enrollment
  next_unknown  INTEGER NOT NULL DEFAULT 1,
  created       REAL NOT NULL
);

CREATE TABLE import_map (
  source  TEXT NOT NULL,
  tbl     TEXT NOT NULL,
  src_id  INTEGER NOT NULL,
  dst_id  INTEGER NOT NULL,
  PRIMARY KEY (source, tbl, src_id)
) WITHOUT ROWID;
`;
