/**
 * Tier 1.5 — episodic memory: conversation sessions with append-only turns, a summary on close,
 * and keyword search over every turn (SPEC §3, §5 "Sessions"). Summaries are written in
 * session-summary.ts, search_sessions runs in session-search.ts.
 */
import type { Embedder, Llm } from '../../ai/types.js';
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { HubError, notFound } from '../../lib/errors.js';
import { plural } from '../../lib/plural.js';
import { toEpoch } from '../../lib/schema.js';
import type { Actor, AuditRepo } from '../audit/audit.repo.js';
import type { EntitiesRepo } from '../entities/entities.repo.js';
import type { VectorGate } from '../memory/evidence-gate.js';
import { createEpisodicRepo, type SessionRow } from './episodic.repo.js';
import type { CloseSessionInput, GetSessionInput, LogTurnInput, OpenSessionInput } from './episodic.schemas.js';
import { createSessionSearch } from './session-search.js';
import { extractiveSummary, iso, llmSummary, type SummarySource } from './session-summary.js';

export { SESSION_MIN_COVERAGE } from './session-search.js';
export { extractiveSummary, type SummarySource } from './session-summary.js';

export interface EpisodicDeps {
  db: Db;
  clock: Clock;
  entities: EntitiesRepo;
  audit: AuditRepo;
  /** Writes close-time summaries when configured; null → extractive summaries only. */
  llm: Llm | null;
  /** Optional: the semantic path of search_sessions (session-vectors.ts); without it, keyword only. */
  embedder?: Embedder | null;
  /** Session gate per provider (defaults in session-vectors.ts; the eval's sweep overrides it). */
  sessionGate?: Record<string, VectorGate>;
  /** Keyword coverage a session needs (default SESSION_MIN_COVERAGE; the eval's sweep overrides it). */
  minCoverage?: number;
  /** Cosine floor of the `possible` tier per provider (default SESSION_POSSIBLE_FLOOR; the eval's sweep overrides it). */
  possibleFloor?: Record<string, number>;
  /** Budget for the LLM summary before falling back (default 20 s): closing must not hang on a slow model. */
  summaryTimeoutMs?: number;
}

export function createEpisodicService(deps: EpisodicDeps) {
  const { db, clock, entities, audit, llm } = deps;
  const repo = createEpisodicRepo(db);
  const search = createSessionSearch(deps, repo);
  const { embedTurns } = search;

  function mustGet(id: number): SessionRow {
    const s = repo.get(id);
    if (!s) throw notFound(`session_id: no session with id ${id}`);
    return s;
  }
  const closedError = (s: SessionRow) =>
    new HubError(
      'conflict',
      `session_id: session ${s.id} was closed at ${iso(s.ended_at ?? 0)}; open a new session with open_session`,
    );

  return {
    repo,

    /** Opens a session with an entity (created on first reference). */
    openSession(input: OpenSessionInput, actor: Actor = 'system') {
      return db.transaction(() => {
        const entity = entities.ensure(input.entity_name, input.entity_type ?? 'person');
        const now = clock.now();
        const id = repo.insertSession(entity.id, now, input.meta ?? {});
        audit.record(actor, 'session.open', id, null, { entity_id: entity.id, meta: input.meta ?? {} });
        return {
          result: `Opened session ${id} with ${entity.name}.`,
          session_id: id,
          entity_id: entity.id,
          entity_name: entity.name,
          started_at: now,
        };
      })();
    },

    /** Appends one turn; a closed session refuses (409). */
    logTurn(input: LogTurnInput, actor: Actor = 'system') {
      const out = db.transaction(() => {
        const s = mustGet(input.session_id);
        if (s.status === 'closed') throw closedError(s);
        const ts = toEpoch(input.ts) ?? clock.now();
        const id = repo.insertTurn(s.id, input.role, input.content, ts);
        // The content is not copied into the audit row: the turn itself is immutable, and a
        // 20 000-char copy per turn would double the transcript's size for nothing.
        audit.record(actor, 'session.turn', id, null, {
          session_id: s.id,
          role: input.role,
          ts,
          chars: input.content.length,
        });
        return {
          result: `Logged ${input.role} turn in session ${s.id}.`,
          turn_id: id,
          session_id: s.id,
          role: input.role,
          ts,
        };
      })();
      // After the commit: its vector is made in the background (a failure is retried by the scheduler).
      setImmediate(() => void embedTurns().catch(() => {}));
      return out;
    },

    /** Vectors for the turns that have none of the current model (session-search.ts); resolves with how many. */
    embedTurns,

    /**
     * Closes a session. Without a summary: the LLM writes 1–3 sentences when configured; on timeout
     * or failure (or with no LLM) an extractive summary is used instead (`summary_source` says which).
     */
    async closeSession(input: CloseSessionInput, actor: Actor = 'system') {
      const s = mustGet(input.session_id);
      if (s.status === 'closed') throw closedError(s);
      const warnings: string[] = [];
      let summary: string | null = input.summary ?? null;
      let source: SummarySource = summary ? 'given' : 'none';
      if (!summary) {
        const turns = repo.turns(s.id);
        if (turns.length && llm) {
          try {
            summary = await llmSummary(llm, turns, s.entity_name, deps.summaryTimeoutMs ?? 20_000);
            source = 'llm';
          } catch (e) {
            warnings.push(`LLM summary failed (${(e as Error).message}); used an extractive summary`);
          }
        }
        if (!summary && turns.length) {
          summary = extractiveSummary(turns, s.entity_name);
          source = summary ? 'extractive' : 'none';
        }
      }
      const now = clock.now();
      db.transaction(() => {
        if (!repo.close(s.id, now, summary)) throw closedError(mustGet(s.id));
        audit.record(
          actor,
          'session.close',
          s.id,
          { status: 'open' },
          { status: 'closed', ended_at: now, summary, summary_source: source },
        );
      })();
      const tail = summary ? ` Summary: ${summary}` : ' No summary (nothing was said).';
      return {
        result: `Closed session ${s.id} with ${s.entity_name}.${tail}`,
        session_id: s.id,
        ended_at: now,
        summary,
        summary_source: source,
        warnings,
      };
    },

    /** The whole transcript, oldest turn first. */
    getSession(input: GetSessionInput) {
      const s = mustGet(input.session_id);
      const turns = repo.turns(s.id);
      const head = `Session ${s.id} with ${s.entity_name} (${s.status}), started ${iso(s.started_at)}${s.ended_at ? `, ended ${iso(s.ended_at)}` : ''}, ${plural(turns.length, 'turn')}.`;
      const lines = [
        head,
        ...(s.summary ? [`Summary: ${s.summary}`] : []),
        ...turns.map((t) => `${t.role}: ${t.content}`),
      ];
      const { turn_count: _n, ...session } = s;
      return { result: lines.join('\n'), session, turns };
    },

    /** search_sessions: keyword and semantic evidence, sessions best first (session-search.ts). */
    searchSessions: search.searchSessions,
  };
}
export type EpisodicService = ReturnType<typeof createEpisodicService>;
