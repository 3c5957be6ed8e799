/**
 * Counters kept by triggers. `readings_deleted` rises with every deleted reading — retention, a
 * forgotten entity's cascade, or another process such as `hearth prune` — so the rollup job knows
 * its in-memory day/week values may include rows that are gone.
 */
export default `
CREATE TABLE counters (
  name TEXT PRIMARY KEY,
  n    INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
INSERT INTO counters (name, n) VALUES ('readings_deleted', 0);
CREATE TRIGGER readings_deleted AFTER DELETE ON readings
BEGIN
  UPDATE counters SET n = n + 1 WHERE name = 'readings_deleted';
END;
`;
