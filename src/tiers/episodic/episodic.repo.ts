/** SQL for sessions, their append-only turns and the turn keyword index. Callers own transactions. */
import type { Db } from '../../db/open.js';
import { STOPWORDS } from '../../ai/text.js';
import type { Role } from './episodic.schemas.js';

export interface SessionRow {
  id: number;
  entity_id: number;
  entity_name: string;
  started_at: number;
  ended_at: number | null;
  summary: string | null;
  meta: Record<string, unknown>;
  status: 'open' | 'closed';
  turn_count: number;
}

export interface TurnRow {
  id: number;
  session_id: number;
  role: Role;
  content: string;
  ts: number;
}

export interface TurnHit {
  turn_id: number;
  session_id: number;
  entity_name: string;
  role: Role;
  ts: number;
  snippet: string;
  content: string;
  /** −bm25: higher is better */
  score: number;
  session_status: 'open' | 'closed';
}

/** Cap on OR-ed terms: a pasted paragraph must not become a query FTS5 spends seconds on. */
const MAX_QUERY_TERMS = 32;
// What unicode61 treats as a token character (letters, digits, marks); everything else separates.
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * The FTS5 MATCH for a user query: its words, each a quoted literal (`"` doubled), OR-ed. User text
 * never reaches FTS syntax, so `"a" OR b*`, `NEAR(`, `col:x` or `*` are searched as plain words
 * (or nothing). Stopwords are dropped unless nothing else is left, so "what did we say about the
 * garden" ranks by "garden" instead of matching every turn containing "the". Null: no words.
 */
export function turnsMatch(query: string): string | null {
  const words = [...new Set((query.toLowerCase().match(TOKEN) ?? []).filter((w) => w.length > 1 || /\d/.test(w)))];
  const content = words.filter((w) => !STOPWORDS.has(w));
  const chosen = (content.length ? content : words).slice(0, MAX_QUERY_TERMS);
  return chosen.length ? chosen.map((w) => `"${w.replaceAll('"', '""')}"`).join(' OR ') : null;
}

const SESSION = `SELECT s.*, e.name AS entity_name, (SELECT count(*) FROM session_turns t WHERE t.session_id = s.id) AS turn_count
                   FROM sessions s JOIN entities e ON e.id = s.entity_id`;

type RawSession = Omit<SessionRow, 'meta'> & { meta: string };
const parse = (r: RawSession | undefined): SessionRow | undefined =>
  r && { ...r, meta: JSON.parse(r.meta) as Record<string, unknown> };

export function createEpisodicRepo(db: Db) {
  const insertSession = db.prepare(
    "INSERT INTO sessions (entity_id, started_at, meta, status) VALUES (?, ?, ?, 'open')",
  );
  const byId = db.prepare(`${SESSION} WHERE s.id = ?`);
  const insertTurn = db.prepare('INSERT INTO session_turns (session_id, role, content, ts) VALUES (?, ?, ?, ?)');
  const turns = db.prepare(
    'SELECT id, session_id, role, content, ts FROM session_turns WHERE session_id = ? ORDER BY ts, id',
  );
  const close = db.prepare(
    "UPDATE sessions SET status = 'closed', ended_at = ?, summary = ? WHERE id = ? AND status = 'open'",
  );
  // An importer's session: open (so its turns can be appended) with its original start and summary.
  const insertImported = db.prepare(
    "INSERT INTO sessions (entity_id, started_at, ended_at, summary, meta, status) VALUES (?, ?, NULL, ?, ?, 'open')",
  );
  const closeImported = db.prepare(
    "UPDATE sessions SET status = 'closed', ended_at = ? WHERE id = ? AND status = 'open'",
  );
  // snippet(): column 0, [ ] around matches, … at cuts, about 16 tokens around the best match.
  const search = db.prepare(
    `SELECT t.id AS turn_id, t.session_id, e.name AS entity_name, t.role, t.ts, t.content, s.status AS session_status,
            snippet(session_turns_fts, 0, '[', ']', '…', 16) AS snippet, -bm25(session_turns_fts) AS score
       FROM session_turns_fts
       JOIN session_turns t ON t.id = session_turns_fts.rowid
       JOIN sessions s ON s.id = t.session_id
       JOIN entities e ON e.id = s.entity_id
      WHERE session_turns_fts MATCH @match AND (@entity_id IS NULL OR s.entity_id = @entity_id)
      ORDER BY bm25(session_turns_fts), t.ts DESC, t.id DESC
      LIMIT @limit`,
  );

  const docs = db.prepare('SELECT count(*) AS n FROM session_turns');
  return {
    /** Document frequency of each (Porter-stemmed) term among turns, and the number of turns. */
    docFreq(terms: string[]): { df: Map<string, number>; n: number } {
      const n = (docs.get() as { n: number }).n;
      if (!terms.length) return { df: new Map(), n };
      const rows = db
        .prepare(`SELECT term, doc FROM session_turns_vocab WHERE term IN (${terms.map(() => '?').join(',')})`)
        .all(...terms) as { term: string; doc: number }[];
      return { df: new Map(rows.map((r) => [r.term, r.doc])), n };
    },
    insertSession: (entityId: number, startedAt: number, meta: Record<string, unknown>) =>
      Number(insertSession.run(entityId, startedAt, JSON.stringify(meta)).lastInsertRowid),
    get: (id: number) => parse(byId.get(id) as RawSession | undefined),
    insertTurn: (sessionId: number, role: Role, content: string, ts: number) =>
      Number(insertTurn.run(sessionId, role, content, ts).lastInsertRowid),
    turns: (sessionId: number) => turns.all(sessionId) as TurnRow[],
    /** Closes an open session; false when it was already closed (a concurrent close won). */
    close: (id: number, endedAt: number, summary: string | null) => close.run(endedAt, summary, id).changes === 1,
    /** An imported session, open, with its original start and summary kept. */
    insertImported: (entityId: number, startedAt: number, summary: string | null, meta: Record<string, unknown>) =>
      Number(insertImported.run(entityId, startedAt, summary, JSON.stringify(meta)).lastInsertRowid),
    /** Ends an imported session at its original time, keeping its summary; false when it was not open. */
    closeImported: (id: number, endedAt: number) => closeImported.run(endedAt, id).changes === 1,
    /** BM25-ranked turns; `match` must come from `turnsMatch`. */
    search: (match: string, limit: number, entityId: number | null) =>
      (search.all({ match, limit, entity_id: entityId }) as TurnHit[]).map((h) => ({
        ...h,
        score: Number(h.score.toPrecision(6)),
      })),
  };
}
export type EpisodicRepo = ReturnType<typeof createEpisodicRepo>;

export interface TurnVectorRow extends Omit<TurnHit, 'snippet' | 'score'> {
  embedding: Buffer;
}

/**
 * `turn_vectors`: one vector per turn and embedder fingerprint, derived data (rebuildable from
 * `session_turns`), created here on first use like the vec0 tables (session-vectors.ts).
 */
export function createTurnVectorsRepo(db: Db) {
  db.exec(
    'CREATE TABLE IF NOT EXISTS turn_vectors (turn_id INTEGER PRIMARY KEY, model TEXT NOT NULL, embedding BLOB NOT NULL)',
  );
  const missing = db.prepare(
    `SELECT t.id, t.content FROM session_turns t LEFT JOIN turn_vectors v ON v.turn_id = t.id AND v.model = ?
      WHERE v.turn_id IS NULL ORDER BY t.id DESC LIMIT ?`,
  );
  const put = db.prepare('INSERT OR REPLACE INTO turn_vectors (turn_id, model, embedding) VALUES (?, ?, ?)');
  const scoped = db.prepare(
    `SELECT t.id AS turn_id, t.session_id, e.name AS entity_name, t.role, t.ts, t.content, s.status AS session_status, v.embedding
       FROM turn_vectors v JOIN session_turns t ON t.id = v.turn_id JOIN sessions s ON s.id = t.session_id
       JOIN entities e ON e.id = s.entity_id
      WHERE v.model = @model AND (@entity_id IS NULL OR s.entity_id = @entity_id)`,
  );
  return {
    /** Up to `limit` turns with no vector of `model`, newest first. */
    missing: (model: string, limit: number) => missing.all(model, limit) as { id: number; content: string }[],
    put: (turnId: number, model: string, embedding: Buffer) => void put.run(turnId, model, embedding),
    /** Every turn with a vector of `model` (of one entity's sessions, or everyone's), streamed. */
    scoped: (model: string, entityId: number | null) =>
      scoped.iterate({ model, entity_id: entityId }) as IterableIterator<TurnVectorRow>,
  };
}
export type TurnVectorsRepo = ReturnType<typeof createTurnVectorsRepo>;
