/**
 * Tier 1.5 — episodic memory: conversation sessions with append-only turns, a summary on close,
 * and keyword search over every turn (SPEC §3, §5 "Sessions").
 */
import { tokenize } from '../../ai/text.js';
import type { Embedder, Llm } from '../../ai/types.js';
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { HubError, notFound } from '../../lib/errors.js';
import { toEpoch } from '../../lib/schema.js';
import { plural } from '../../lib/plural.js';
import type { Actor, AuditRepo } from '../audit/audit.repo.js';
import type { EntitiesRepo } from '../entities/entities.repo.js';
import { createEpisodicRepo, turnsMatch, type SessionRow, type TurnHit, type TurnRow } from './episodic.repo.js';
import { coverage } from '../memory/recall.js';
import { fuse, gateVectorHits, type VectorGate } from '../memory/evidence-gate.js';
import { NOT_SURE } from '../memory/recall-text.js';
import { createSessionVectors, possibleSessions, SESSION_GATE, SESSION_POSSIBLE_FLOOR } from './session-vectors.js';

/**
 * Evidence gate for `search_sessions`, like recall's: a conversation answers a query only when its
 * matching turns together cover at least this share of the query's IDF-weighted terms, so one
 * common word ("come", "book") does not drag in every session. Tuned on eval/sessions-tune.json
 * (`node dist/scripts/eval-tiers.js --sweep --sessions --provider keyword`): 0.6 keeps every no-match
 * question out (17/17; 0.35, the earlier value, let 9 through) at hit@3 42 % by keywords alone.
 */
export const SESSION_MIN_COVERAGE = 0.6;
const CANDIDATE_TURNS = 300;
import type {
  CloseSessionInput,
  GetSessionInput,
  LogTurnInput,
  OpenSessionInput,
  SearchSessionsInput,
} from './episodic.schemas.js';

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

export type SummarySource = 'given' | 'llm' | 'extractive' | 'none';

const iso = (ts: number) => new Date(ts * 1000).toISOString().replace('.000Z', 'Z');
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * Extractive summary: the 1–3 most informative user turns (assistant turns when the user said
 * nothing usable), in conversation order. SumBasic-style (Nenkova & Vanderwende 2005): each stemmed
 * content word gets p(w) = its share of all content words in the session, so words the conversation
 * keeps returning to weigh most; a turn scores Σp(w) over its distinct words / √(distinct words), which
 * prefers turns naming several topic words without simply rewarding length. After a pick, the picked
 * words' p(w) is squared so the next pick adds something new. Turns with fewer than two content words
 * ("ok", "thanks!") are never picked. Stops at 3 turns or ~400 characters.
 */
export function extractiveSummary(turns: TurnRow[], speaker: string): string | null {
  const analysed = turns
    .map((t) => ({ t, all: tokenize(t.content) }))
    .map((d) => ({ ...d, words: [...new Set(d.all)] }));
  const p = new Map<string, number>();
  const total = analysed.reduce((n, d) => n + d.all.length, 0);
  for (const d of analysed) for (const w of d.all) p.set(w, (p.get(w) ?? 0) + 1 / total);
  const usable = (role: string) => analysed.filter((d) => d.t.role === role && d.words.length >= 2);
  let pool = usable('user');
  const label = pool.length ? speaker : 'Assistant';
  if (!pool.length) pool = usable('assistant');
  const picked: typeof pool = [];
  let chars = 0;
  while (pool.length && picked.length < 3 && chars < 400) {
    const score = (d: (typeof pool)[number]) =>
      d.words.reduce((s, w) => s + (p.get(w) ?? 0), 0) / Math.sqrt(d.words.length);
    const best = pool.reduce((a, b) => (score(b) > score(a) ? b : a));
    picked.push(best);
    chars += Math.min(200, best.t.content.length); // as clipped in the output
    pool = pool.filter((d) => d !== best);
    for (const w of best.words) p.set(w, (p.get(w) ?? 0) ** 2);
  }
  if (!picked.length) return null;
  picked.sort((a, b) => a.t.ts - b.t.ts || a.t.id - b.t.id);
  return `${label}: ${picked.map((d) => clip(oneLine(d.t.content), 200).replace(/[.!?…]+$/, '')).join(' … ')}.`;
}

/** The transcript as the LLM sees it: each turn clipped to 600 chars, at most ~12 000 chars from the start. */
function transcriptForLlm(turns: TurnRow[], speaker: string): string {
  const lines: string[] = [];
  let size = 0;
  for (const t of turns) {
    const line = `${t.role === 'user' ? speaker : t.role}: ${clip(oneLine(t.content), 600)}`;
    if (size + line.length > 12_000) break;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** At most the first three sentences of a model answer, without a "Summary:" preamble or wrapping quotes. */
function firstSentences(text: string, n: number): string {
  const t = oneLine(text)
    .replace(/^summary:\s*/i, '')
    .replace(/^["“](.*)["”]$/, '$1');
  const sentences = t.match(/[^.!?]+[.!?]+["”')\]]*/g);
  return clip((sentences ? sentences.slice(0, n).join('') : t).trim(), 1000);
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Keeps the turns of sessions whose matching turns cover enough of the query, ordered by that
 * session coverage, then by each turn's BM25 score.
 */
function gateHits(
  query: string,
  hits: (TurnHit & { content: string })[],
  docFreq: (terms: string[]) => { df: Map<string, number>; n: number },
  minCoverage: number,
) {
  const q = [...new Set(tokenize(query))];
  if (!q.length || !hits.length) return [];
  const { df, n } = docFreq(q);
  const idf = new Map(
    q.map((t) => [t, Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5))] as const),
  );
  const bySession = new Map<number, Set<string>>();
  for (const h of hits) {
    const terms = bySession.get(h.session_id) ?? new Set<string>();
    for (const t of tokenize(h.content)) terms.add(t);
    bySession.set(h.session_id, terms);
  }
  const cov = new Map([...bySession].map(([id, terms]) => [id, coverage(q, terms, idf)]));
  return hits
    .filter((h) => cov.get(h.session_id)! >= minCoverage)
    .sort((a, b) => cov.get(b.session_id)! - cov.get(a.session_id)! || b.score - a.score)
    .map(({ content: _c, ...h }) => ({ ...h, coverage: Math.round(cov.get(h.session_id)! * 1000) / 1000 }));
}

export function createEpisodicService(deps: EpisodicDeps) {
  const { db, clock, entities, audit, llm } = deps;
  const repo = createEpisodicRepo(db);
  const embedder = deps.embedder ?? null;
  const turnVectors = embedder ? createSessionVectors(db, embedder) : null;

  /**
   * Sessions the query means, by turn vectors, gated like recall (top-1, margin, keyword support);
   * null (with a warning) when the embedder can't answer now.
   */
  async function semantic(query: string, entityId: number | null, cov: Map<number, number>, warnings: string[]) {
    if (!embedder || !turnVectors) return null;
    try {
      if (await turnVectors.fill())
        warnings.push('some older turns have no vector yet; they are being embedded in the background');
      const [q] = await embedder.embed([query]);
      const best = turnVectors.best(q, entityId);
      const gates = deps.sessionGate ?? SESSION_GATE;
      const gate = gates[embedder.provider] ?? gates.default;
      const kept = gateVectorHits(
        best.map((b) => ({ memory_id: b.session_id, similarity: b.similarity })),
        gate,
        (id) => cov.get(id) ?? 0,
      );
      return { kept, gate, best: new Map(best.map((b) => [b.session_id, b])), ranked: best };
    } catch (e) {
      warnings.push(
        `semantic search unavailable: embedder ${embedder.provider} failed (${(e as Error).message}); keyword only`,
      );
      return null;
    }
  }

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

  async function llmSummary(turns: TurnRow[], speaker: string): Promise<string> {
    const answer = await withTimeout(
      llm!.chat(
        [
          {
            role: 'system',
            content:
              'Summarise this home-assistant conversation in one to three plain sentences for a household memory. State only what was said or decided; no preamble.',
          },
          { role: 'user', content: transcriptForLlm(turns, speaker) },
        ],
        { temperature: 0.2 },
      ),
      deps.summaryTimeoutMs ?? 20_000,
    );
    const summary = firstSentences(answer, 3);
    if (!summary) throw new Error('empty answer');
    return summary;
  }

  const embedTurns = async (): Promise<number> => (turnVectors && db.open ? turnVectors.backfill() : 0);
  const gate = (query: string, hits: (TurnHit & { content: string })[]) =>
    gateHits(query, hits, repo.docFreq, deps.minCoverage ?? SESSION_MIN_COVERAGE);
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

    /**
     * Vectors for every turn that has none of the current model (background, as writes): after
     * log_turn, and from the scheduler's embed job for what an outage, an import or a model change
     * left. Resolves with how many it embedded.
     */
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
            summary = await llmSummary(turns, s.entity_name);
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

    /**
     * FTS5/BM25 over turn content, gated by session coverage, plus the semantic path (turn
     * vectors) when an embedder is configured; sessions ordered by fused evidence, best first.
     */
    async searchSessions(input: SearchSessionsInput) {
      const match = turnsMatch(input.query);
      let entityId: number | null = null;
      if (input.entity_name !== undefined) {
        const e = entities.find(input.entity_name);
        if (!e)
          return {
            result: `No conversations with "${input.entity_name}": no entity by that name.`,
            results: [],
            possible: [],
            warnings: [`no entity named "${input.entity_name}"`],
          };
        entityId = e.id;
      }
      const warnings: string[] = [];
      let keyword = match ? gate(input.query, repo.search(match, CANDIDATE_TURNS, entityId)) : [];
      const cov = new Map(keyword.map((h) => [h.session_id, h.coverage]));
      const sem = await semantic(input.query, entityId, cov, warnings);
      let results: (Omit<TurnHit, 'content'> & { coverage: number; similarity?: number })[] = keyword;
      if (sem) {
        // Words in common are weak evidence: below kwAlone the session's best turn must also be near in meaning.
        const confirmed = (id: number) =>
          cov.get(id)! >= sem.gate.kwAlone || (sem.best.get(id)?.similarity ?? 0) >= sem.gate.confirm;
        keyword = keyword.filter((h) => confirmed(h.session_id));
        for (const id of [...cov.keys()]) if (!confirmed(id)) cov.delete(id);
        // Vector-only sessions contribute their best turn; every session is ordered by fused evidence.
        const extra = [...sem.kept.keys()]
          .filter((id) => !cov.has(id))
          .map((id) => {
            const { content: _c, pair: _p, ...b } = sem.best.get(id)!;
            return { ...b, similarity: Math.round(b.similarity * 1000) / 1000, coverage: 0 };
          });
        const rank = (id: number) => fuse(cov.get(id) ?? null, sem.kept.get(id) ?? null);
        results = [...keyword, ...extra].sort((a, b) => rank(b.session_id) - rank(a.session_id));
      }
      results = results.slice(0, input.limit);
      if (!match && !sem) warnings.push('the query has no searchable words');
      const floors = deps.possibleFloor ?? SESSION_POSSIBLE_FLOOR;
      const floor = embedder ? (floors[embedder.provider] ?? floors.default) : Infinity;
      const possible = sem && input.possible !== false ? possibleSessions(sem.ranked, results, input.limit, floor) : [];
      const line = (r: Omit<TurnHit, 'content'>) =>
        `- session ${r.session_id} (${r.entity_name}, ${r.role}, ${iso(r.ts)}): ${r.snippet}`;
      // A sentence an assistant can read aloud (not the question echoed in quotes), like recall's.
      const parts = results.length ? results.map(line) : ['Nothing said in past conversations answers that.'];
      if (possible.length) parts.push(NOT_SURE, ...possible.map(line));
      return { result: parts.join('\n'), results, possible, warnings };
    },
  };
}
export type EpisodicService = ReturnType<typeof createEpisodicService>;
