/** Tier 3 — promoted patterns (SPEC §3): what the pattern engine turned into memories, with evidence. */
export default `
CREATE TABLE promoted_patterns (
  id           INTEGER PRIMARY KEY,
  entity_id    INTEGER REFERENCES entities(id) ON DELETE CASCADE,
  metric       TEXT NOT NULL,
  pattern_key  TEXT NOT NULL UNIQUE,
  detector     TEXT NOT NULL,
  memory_id    INTEGER REFERENCES memories(id) ON DELETE SET NULL,
  detected     REAL NOT NULL,
  evidence     TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX promoted_patterns_entity ON promoted_patterns(entity_id);
`;
