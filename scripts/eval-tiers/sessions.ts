/**
 * Tier 1.5 eval: `evalSessions()` on eval/sessions.json (does search_sessions find the conversation a
 * later question is about, and nothing when no conversation is?), on a scratch database.
 */
import type { Embedder } from '../../src/ai/types.js';
import {
  LogTurnInput,
  OpenSessionInput,
  SearchSessionsInput,
  type Role,
} from '../../src/tiers/episodic/episodic.schemas.js';
import { createEpisodicService } from '../../src/tiers/episodic/episodic.service.js';
import type { VectorGate } from '../../src/tiers/memory/evidence-gate.js';
import { ratio, read, scratch } from './common.js';

interface SessionsData {
  sessions: {
    id: string;
    entity_name: string;
    meta?: Record<string, unknown>;
    turns: { role: Role; content: string }[];
  }[];
  queries: { query: string; entity_name?: string; kind: string; expect: string[] }[];
}

export interface SessionScores {
  /** Queries with an expected session (every kind but nomatch). */
  queries: number;
  /** Share of those whose best-ranked session (confident first, then possible) is an expected one. */
  hit_at_1: number;
  /** Share of those with an expected session among the first 3 distinct sessions of both tiers. */
  hit_at_3: number;
  /** The same over the confident tier (`results`) alone. */
  confident_hit_at_3: number;
  /**
   * Per kind: n, hits at 1 and 3 over both tiers, `conf3` over `results` alone (for nomatch:
   * `abstained`, the queries with no confident result, and `offered`, those given possibles).
   */
  by_kind: Record<string, { n: number; hit1: number; hit3: number; conf3: number; abstained: number; offered: number }>;
  /** No-match queries: share with no confident result (every one would be a wrong session). */
  nomatch: number;
  abstention: number;
  /** No-match queries given possibles (labelled low confidence: not a wrong answer, but noise). */
  nomatch_offered: number;
  misses: string[];
}

/**
 * Logs every conversation (turns 20 s apart, sessions a day apart), closes it, then asks every
 * question through `searchSessions`. Turns are ranked by the service; the ranked *sessions* are their
 * distinct session ids in order of first appearance.
 */
export async function evalSessions(
  opts: {
    file?: string;
    embedder?: Embedder | null;
    sessionGate?: Record<string, VectorGate>;
    minCoverage?: number;
    possibleFloor?: Record<string, number>;
  } = {},
): Promise<SessionScores> {
  const data = read<SessionsData>(opts.file ?? 'eval/sessions.json');
  const h = scratch();
  const svc = createEpisodicService({
    db: h.db,
    clock: h.clock,
    entities: h.entities,
    audit: h.audit,
    llm: null,
    embedder: opts.embedder ?? null,
    sessionGate: opts.sessionGate,
    minCoverage: opts.minCoverage,
    possibleFloor: opts.possibleFloor,
  });
  const label = new Map<number, string>();
  try {
    for (const s of data.sessions) {
      const { session_id } = svc.openSession(OpenSessionInput.parse({ entity_name: s.entity_name, meta: s.meta }));
      label.set(session_id, s.id);
      for (const t of s.turns) {
        h.clock.advance(20);
        svc.logTurn(LogTurnInput.parse({ session_id, role: t.role, content: t.content }));
      }
      await svc.closeSession({ session_id });
      h.clock.advance(86_400);
    }
    await svc.embedTurns(); // what the background does between logging and asking
    const byKind: SessionScores['by_kind'] = {};
    const misses: string[] = [];
    let positives = 0,
      hit1 = 0,
      hit3 = 0,
      conf3 = 0,
      negatives = 0,
      abstained = 0,
      offered = 0;
    for (const q of data.queries) {
      const out = await svc.searchSessions(
        SearchSessionsInput.parse({ query: q.query, entity_name: q.entity_name, limit: 100 }),
      );
      const confident = [...new Set(out.results.map((r) => label.get(r.session_id)!))];
      const ranked = [...new Set([...confident, ...out.possible.map((r) => label.get(r.session_id)!)])];
      const k = (byKind[q.kind] ??= { n: 0, hit1: 0, hit3: 0, conf3: 0, abstained: 0, offered: 0 });
      k.n++;
      const who = q.entity_name ? ` (${q.entity_name})` : '';
      if (!q.expect.length) {
        negatives++;
        if (out.possible.length) offered++, k.offered++;
        if (!confident.length) abstained++, k.abstained++;
        else
          misses.push(
            `[${q.kind}] "${q.query}"${who}: returned [${confident.slice(0, 3).join(', ')}${confident.length > 3 ? ', …' : ''}] (${confident.length} sessions), expected nothing`,
          );
        continue;
      }
      positives++;
      const at1 = q.expect.includes(ranked[0] ?? '');
      const at3 = ranked.slice(0, 3).some((id) => q.expect.includes(id));
      if (at1) hit1++, k.hit1++;
      if (at3) hit3++, k.hit3++;
      if (confident.slice(0, 3).some((id) => q.expect.includes(id))) conf3++, k.conf3++;
      if (!at1)
        misses.push(
          `[${q.kind}] "${q.query}"${who}: top [${confident.slice(0, 3).join(', ')} | possible ${ranked.slice(confident.length, confident.length + 3).join(', ')}], expected [${q.expect.join(', ')}]${at3 ? ' (hit@3)' : ''}`,
        );
    }
    return {
      queries: positives,
      hit_at_1: ratio(hit1, positives),
      hit_at_3: ratio(hit3, positives),
      confident_hit_at_3: ratio(conf3, positives),
      by_kind: byKind,
      nomatch: negatives,
      abstention: ratio(abstained, negatives),
      nomatch_offered: ratio(offered, negatives),
      misses,
    };
  } finally {
    h.close();
  }
}
