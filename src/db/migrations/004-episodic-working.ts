/**
 * Tier 1.5 — episodic memory (sessions and their turns) and tier 1.75 — working memory (task
 * scratchpads), SPEC §3.
 *
 * Turns are append-only, enforced in the database rather than by convention, so no door, script
 * or future service can rewrite a transcript:
 *   - `session_turns_no_update` aborts every UPDATE of a turn;
 *   - `session_turns_no_delete` aborts a DELETE of a turn while its session still exists. Deleting
 *     the session (or its entity, via `forget`) cascades: SQLite removes the parent row before the
 *     child's trigger runs, so the `EXISTS` test is false and the cascade goes through;
 *   - `session_turns_closed` refuses a turn for a closed session (the service answers 409 first;
 *     this is the backstop).
 *
 * `session_turns_fts` is an external-content FTS5 index (rowid = turn id) over the raw content with
 * the porter tokenizer, so `snippet()` can quote the stored text. The insert/delete triggers keep it
 * in sync, including cascaded deletes. Queries are built from quoted literals only (episodic.repo.ts).
 *
 * `working_memory_tasks.promoted_memory_id` goes beyond the logical model: it records which
 * long-term memory a promote-on-close wrote, so `wm_get` on a closed task can say so.
 */
export default `
CREATE TABLE sessions (
  id          INTEGER PRIMARY KEY,
  entity_id   INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  started_at  REAL NOT NULL,
  ended_at    REAL,
  summary     TEXT,
  meta        TEXT NOT NULL DEFAULT '{}',
  status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open','closed'))
);
CREATE INDEX sessions_entity ON sessions(entity_id, started_at);

CREATE TABLE session_turns (
  id          INTEGER PRIMARY KEY,
  session_id  INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  role        TEXT NOT NULL CHECK (role IN ('user','assistant','system')),
  content     TEXT NOT NULL,
  ts          REAL NOT NULL
);
CREATE INDEX session_turns_session ON session_turns(session_id, ts, id);

CREATE VIRTUAL TABLE session_turns_fts USING fts5(
  content, content = 'session_turns', content_rowid = 'id', tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER session_turns_fts_insert AFTER INSERT ON session_turns BEGIN
  INSERT INTO session_turns_fts (rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER session_turns_fts_delete AFTER DELETE ON session_turns BEGIN
  INSERT INTO session_turns_fts (session_turns_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER session_turns_no_update BEFORE UPDATE ON session_turns BEGIN
  SELECT RAISE(ABORT, 'session_turns are append-only');
END;
CREATE TRIGGER session_turns_no_delete BEFORE DELETE ON session_turns
  WHEN EXISTS (SELECT 1 FROM sessions WHERE id = old.session_id)
BEGIN
  SELECT RAISE(ABORT, 'session_turns are append-only; delete the whole session instead');
END;
CREATE TRIGGER session_turns_closed BEFORE INSERT ON session_turns
  WHEN (SELECT status FROM sessions WHERE id = new.session_id) = 'closed'
BEGIN
  SELECT RAISE(ABORT, 'session is closed');
END;

CREATE TABLE working_memory_tasks (
  id                  INTEGER PRIMARY KEY,
  name                TEXT NOT NULL,
  entity_id           INTEGER REFERENCES entities(id) ON DELETE CASCADE,
  status              TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open','closed','expired')),
  ttl_ts              REAL,
  created             REAL NOT NULL,
  closed_at           REAL,
  promoted_memory_id  INTEGER REFERENCES memories(id) ON DELETE SET NULL
);
-- expiry sweep and wm_list by status; entity-scoped listing
CREATE INDEX wm_tasks_status ON working_memory_tasks(status, ttl_ts);
CREATE INDEX wm_tasks_entity ON working_memory_tasks(entity_id, status);

CREATE TABLE working_memory_slots (
  id       INTEGER PRIMARY KEY,
  task_id  INTEGER NOT NULL REFERENCES working_memory_tasks(id) ON DELETE CASCADE,
  key      TEXT NOT NULL,
  value    TEXT NOT NULL,
  created  REAL NOT NULL,
  updated  REAL NOT NULL,
  UNIQUE (task_id, key)
);
`;
