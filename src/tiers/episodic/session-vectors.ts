/**
 * The semantic path of `search_sessions`: one vector per conversation turn, so "the daughter's
 * celebration" finds the session about "Maya's birthday". Vectors are derived data kept in
 * `turn_vectors` (episodic.repo.ts `createTurnVectorsRepo`: created on first use like the vec0 tables,
 * rebuildable from `session_turns`), stamped with the embedder's fingerprint. A logged turn is embedded in the background soon after (as a write,
 * so questions go first; `backfill`), the scheduler's embed job catches up on what that missed (an
 * outage, an import, a model change), and a search embeds at most SEARCH_LIMIT still missing turns
 * itself, newest first — so a search never waits for a day's transcripts. A household has thousands
 * of turns, not millions: cosine is computed in JS over the scoped turns (512-d × 10k turns ≈ 5 M
 * multiply-adds, a few ms).
 *
 * A session's vector score is its best turn's cosine; which sessions count is decided by the same
 * evidence gate as recall (memory/evidence-gate.ts) on those per-session scores, calibrated per
 * provider on eval/sessions-tune.json (see SESSION_GATE).
 */
import type { Embedder } from '../../ai/types.js';
import type { Db } from '../../db/open.js';
import type { VectorGate } from '../memory/evidence-gate.js';
import { createTurnVectorsRepo, type TurnHit } from './episodic.repo.js';

/** Missing turns a search embeds itself (as a query), newest first; the rest is left to `backfill`. */
const SEARCH_LIMIT = 64;
/** Turns per background batch. */
const BATCH = 64;

/**
 * Per provider, tuned on eval/sessions-tune.json only (`node dist/scripts/eval-tiers.js --sweep
 * --sessions`; eval/sessions.json is held out and only reported): the setting with the best mean of
 * hit@3 and no-match abstention. use-lite: floor 0.5, accept 0.6, margin 0.15 → hit@3 60 %, paraphrase
 * hit@3 6/20, abstention 17/17 (the earlier floor 0.45, set on what is now the held-out set, let 10 of
 * the 17 no-match questions through). `local` is off (floor above 1): its lexical vectors add nothing
 * the keyword path does not already see. `default` (Ollama/OpenAI, which cannot run here) is use-lite's
 * point raised 0.05, a guess.
 */
export const SESSION_GATE: Record<string, VectorGate> = {
  local: { floor: 1.01, accept: 1.01, margin: 1, band: 0, support: 1.01, kwAlone: 0, confirm: 0 },
  'use-lite': { floor: 0.5, accept: 0.6, margin: 0.15, band: 0.05, support: 0.35, kwAlone: 0.6, confirm: 0.5 },
  default: { floor: 0.55, accept: 0.65, margin: 0.15, band: 0.05, support: 0.35, kwAlone: 0.6, confirm: 0.5 },
};

/**
 * The `possible` tier of `search_sessions` (episodic.service.ts): conversations the gate did not accept
 * but the question may still be about, listed low-confidence, ordered by `pair` (the mean of a
 * session's two best turns, which ranks the asked-about session first more often than the best turn
 * alone: 17/20 tuning paraphrases against 13/20, docs/recall-quality.md). A session is listed when its
 * best turn's cosine is at least this floor. Per provider, chosen on eval/sessions-tune.json only
 * (`node dist/scripts/eval-tiers.js --sweep --sessions --possible [--provider local]`): the highest
 * floor whose paraphrase hit@3 (both tiers) is within one question of the best floor's — use-lite
 * 0.35: 17/20 (18/20 at 0.3), possibles offered on 15/17 never-discussed questions; local 0.2: 17/20,
 * 15/17. `default` (Ollama/OpenAI, not runnable here) is use-lite's raised 0.05, a guess.
 */
export const SESSION_POSSIBLE_FLOOR: Record<string, number> = { local: 0.2, 'use-lite': 0.35, default: 0.4 };
/** At most this many possible sessions (fewer when confident ones already fill `limit`). */
export const SESSION_POSSIBLE_MAX = 3;

/**
 * The low-confidence tier: sessions not among `results` whose best turn's cosine is ≥ `floor`,
 * ordered by their two best turns, up to SESSION_POSSIBLE_MAX and what `limit` leaves.
 */
export function possibleSessions(
  ranked: readonly (TurnHit & { similarity: number; pair: number })[],
  results: readonly { session_id: number }[],
  limit: number,
  floor: number,
) {
  const shown = new Set(results.map((r) => r.session_id));
  const room = Math.max(0, Math.min(SESSION_POSSIBLE_MAX, limit - shown.size));
  return ranked
    .filter((b) => b.similarity >= floor && !shown.has(b.session_id))
    .sort((a, b) => b.pair - a.pair)
    .slice(0, room)
    .map(({ content: _c, pair: _p, ...b }) => ({
      ...b,
      similarity: Math.round(b.similarity * 1000) / 1000,
      low_confidence: true as const,
    }));
}

export function createSessionVectors(db: Db, embedder: Embedder) {
  const vectors = createTurnVectorsRepo(db);

  /** Embeds up to `limit` turns that have no vector of this model, newest first; returns how many it embedded. */
  async function embedMissing(limit: number, write: boolean): Promise<number> {
    const rows = vectors.missing(embedder.fingerprint, limit);
    if (!rows.length) return 0;
    const vecs = await embedder.embed(
      rows.map((r) => r.content),
      { write },
    );
    if (!db.open) return 0;
    db.transaction(() =>
      rows.forEach((r, i) =>
        vectors.put(r.id, embedder.fingerprint, Buffer.from(vecs[i].buffer, vecs[i].byteOffset, vecs[i].byteLength)),
      ),
    )();
    return rows.length;
  }
  let running: Promise<number> | undefined;
  let again = false;

  return {
    /** At search time: embeds up to SEARCH_LIMIT missing turns; true when some are still missing after. */
    async fill(): Promise<boolean> {
      const n = await embedMissing(SEARCH_LIMIT, false);
      return n === SEARCH_LIMIT && vectors.missing(embedder.fingerprint, 1).length > 0;
    },
    /**
     * Embeds every missing turn in batches, as writes; one run at a time (a call during a run makes
     * it look again before it ends). Resolves with the number embedded by the run.
     */
    backfill(): Promise<number> {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        let total = 0;
        do {
          again = false;
          for (let n = BATCH; n === BATCH; total += n) n = await embedMissing(BATCH, true);
        } while (again);
        return total;
      })().finally(() => (running = undefined));
      return running;
    },
    /**
     * Each scoped session's best turn by cosine with `q`, best first (as hits with the turn's text as
     * snippet); `pair` is the mean of its two best turns' cosines (its best turn's alone when it has one).
     */
    best(q: Float32Array, entityId: number | null): (TurnHit & { similarity: number; pair: number })[] {
      const bySession = new Map<number, TurnHit & { similarity: number; pair: number; second: number }>();
      for (const r of vectors.scoped(embedder.fingerprint, entityId)) {
        const v = new Float32Array(
          r.embedding.buffer.slice(r.embedding.byteOffset, r.embedding.byteOffset + r.embedding.byteLength),
        );
        let s = 0;
        for (let i = 0; i < v.length; i++) s += v[i] * q[i];
        const prev = bySession.get(r.session_id);
        if (!prev || s > prev.similarity) {
          const { embedding: _e, ...turn } = r;
          const second = prev ? prev.similarity : -Infinity;
          bySession.set(r.session_id, {
            ...turn,
            snippet: turn.content.length > 160 ? `${turn.content.slice(0, 159)}…` : turn.content,
            score: 0,
            similarity: s,
            second,
            pair: 0,
          });
        } else if (s > prev.second) prev.second = s;
      }
      return [...bySession.values()]
        .map(({ second, ...b }) => ({ ...b, pair: second === -Infinity ? b.similarity : (b.similarity + second) / 2 }))
        .sort((a, b) => b.similarity - a.similarity);
    },
  };
}
export type SessionVectors = ReturnType<typeof createSessionVectors>;
