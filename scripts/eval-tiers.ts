/**
 * Tier 4/5 evals: `evalIntentions()` on eval/intentions.json (does check_intentions fire exactly
 * the intentions a person would expect?) and `evalSpatial()` on eval/spatial.json (does find answer
 * natural questions with the right object, offer candidates when ambiguous, and nothing when
 * nothing fits?). Tier 1.5: `evalSessions()` on eval/sessions.json (does search_sessions find the
 * conversation a later question is about, and nothing when no conversation is?). Each builds a
 * scratch database, so it runs offline with the local embedder.
 * `node dist/scripts/eval-tiers.js [--sweep] [-v]` prints all three; `--sweep` grids the intention thresholds.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLocalEmbedder } from '../src/ai/local-embedder.js';
import { createUseLiteEmbedder } from '../src/ai/use-lite.js';
import { cachedEmbedder } from './eval-recall.js';
import type { VectorGate } from '../src/tiers/memory/evidence-gate.js';
import { SESSION_GATE, SESSION_POSSIBLE_FLOOR } from '../src/tiers/episodic/session-vectors.js';
import type { Embedder } from '../src/ai/types.js';
import { openDatabase, type Db } from '../src/db/open.js';
import prospectiveSpatialSql from '../src/db/migrations/005-prospective-spatial.js';
import { manualClock } from '../src/lib/clock.js';
import { createAuditRepo } from '../src/tiers/audit/audit.repo.js';
import { createEntitiesRepo } from '../src/tiers/entities/entities.repo.js';
import {
  LogTurnInput,
  OpenSessionInput,
  SearchSessionsInput,
  type Role,
} from '../src/tiers/episodic/episodic.schemas.js';
import { createEpisodicService } from '../src/tiers/episodic/episodic.service.js';
import { CheckIntentionsInput, IntendInput } from '../src/tiers/prospective/prospective.schemas.js';
import {
  createProspectiveService,
  DEFAULT_INTENTION_TUNING,
  type IntentionTuning,
} from '../src/tiers/prospective/prospective.service.js';
import { FindInput, LocateInput } from '../src/tiers/spatial/spatial.schemas.js';
import { createSpatialService } from '../src/tiers/spatial/spatial.service.js';
import { sharedWordNet, type WordNet } from '../src/ai/wordnet.js';

interface IntentionData {
  intentions: { id: string; entity_name: string; trigger_text: string; action_text: string }[];
  cases: { text: string; entity_name?: string; kind: string; fire: string[] }[];
}
interface SpatialData {
  objects: { entity_name: string; container_name: string }[];
  queries: { query: string; expect?: string | null; ambiguous?: string[] }[];
}

interface SessionsData {
  sessions: {
    id: string;
    entity_name: string;
    meta?: Record<string, unknown>;
    turns: { role: Role; content: string }[];
  }[];
  queries: { query: string; entity_name?: string; kind: string; expect: string[] }[];
}

export interface IntentionScores {
  cases: number;
  /** Cases whose fired set is exactly the expected one. */
  exact: number;
  /** Share of expected firings that fired. */
  fire_recall: number;
  /** Share of firings that were expected. */
  fire_precision: number;
  /** Share of should-not-fire cases that fired nothing. */
  quiet_rate: number;
  by_kind: Record<string, { n: number; exact: number }>;
  misses: string[];
}

export interface SpatialScores {
  queries: number;
  /** Questions answered as labelled (right object, candidates for an ambiguity, nothing for null). */
  accuracy: number;
  by_kind: Record<'object' | 'ambiguous' | 'unknown', { n: number; correct: number }>;
  misses: string[];
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

/** A scratch database with the tier 4/5 tables (until the migration list includes them). */
function scratch() {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-eval-tiers-'));
  const db: Db = openDatabase({ dataDir: join(dir, 'data') });
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'intentions'").get()) db.exec(prospectiveSpatialSql);
  const clock = manualClock();
  const entities = createEntitiesRepo(db, clock);
  const audit = createAuditRepo(db, clock);
  return { db, clock, entities, audit, close: () => (db.close(), rmSync(dir, { recursive: true, force: true })) };
}

const read = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const ratio = (a: number, b: number) => (b ? a / b : 1);

/** Fires every case against all intentions (`once = false`, so a firing does not hide later cases). */
export async function evalIntentions(
  opts: { embedder?: Embedder | null; tuning?: IntentionTuning; file?: string; wordnet?: WordNet | null } = {},
): Promise<IntentionScores> {
  const data = read<IntentionData>(opts.file ?? 'eval/intentions.json');
  const h = scratch();
  const embedder = opts.embedder === undefined ? createLocalEmbedder() : opts.embedder;
  const wordnet = opts.wordnet === null ? undefined : (opts.wordnet ?? sharedWordNet());
  const svc = createProspectiveService({
    db: h.db,
    clock: h.clock,
    entities: h.entities,
    audit: h.audit,
    embedder,
    tuning: opts.tuning,
    wordnet,
  });
  const label = new Map<number, string>();
  try {
    for (const i of data.intentions) {
      const { id: _label, ...input } = i; // the data set's label is not an input (unknown keys are refused)
      const r = await svc.intend(IntendInput.parse({ ...input, once: false }));
      label.set(r.id, i.id);
    }
    let exact = 0,
      expected = 0,
      hit = 0,
      fired = 0,
      right = 0,
      quiet = 0,
      negatives = 0;
    const byKind: IntentionScores['by_kind'] = {};
    const misses: string[] = [];
    for (const c of data.cases) {
      const out = await svc.check(CheckIntentionsInput.parse({ text: c.text, entity_name: c.entity_name }));
      const got = out.triggered.map((t) => label.get(t.id)!).sort();
      const want = [...c.fire].sort();
      const ok = got.join() === want.join();
      const k = (byKind[c.kind] ??= { n: 0, exact: 0 });
      k.n++;
      if (ok) exact++, k.exact++;
      else
        misses.push(
          `[${c.kind}] "${c.text}"${c.entity_name ? ` (${c.entity_name})` : ''}: fired [${got.join(', ')}], expected [${want.join(', ')}]`,
        );
      expected += want.length;
      hit += want.filter((w) => got.includes(w)).length;
      fired += got.length;
      right += got.filter((g) => want.includes(g)).length;
      if (!want.length) negatives++, got.length || quiet++;
    }
    return {
      cases: data.cases.length,
      exact: ratio(exact, data.cases.length),
      fire_recall: ratio(hit, expected),
      fire_precision: ratio(right, fired),
      quiet_rate: ratio(quiet, negatives),
      by_kind: byKind,
      misses,
    };
  } finally {
    h.close();
  }
}

/** Locates every object, then asks every question through `find({query})`. */
export async function evalSpatial(opts: { file?: string; wordnet?: WordNet | null } = {}): Promise<SpatialScores> {
  const data = read<SpatialData>(opts.file ?? 'eval/spatial.json');
  const h = scratch();
  const wordnet = opts.wordnet === null ? undefined : (opts.wordnet ?? sharedWordNet());
  const svc = createSpatialService({
    db: h.db,
    clock: h.clock,
    entities: h.entities,
    audit: h.audit,
    config: { location_decay_halflife_hours: 24 },
    wordnet,
  });
  try {
    for (const o of data.objects) {
      svc.locate(LocateInput.parse(o));
      h.clock.advance(600);
    }
    const byKind: SpatialScores['by_kind'] = {
      object: { n: 0, correct: 0 },
      ambiguous: { n: 0, correct: 0 },
      unknown: { n: 0, correct: 0 },
    };
    const misses: string[] = [];
    let correct = 0;
    for (const q of data.queries) {
      const out = svc.find(FindInput.parse({ query: q.query }));
      const kind = q.ambiguous ? 'ambiguous' : q.expect ? 'object' : 'unknown';
      const names = out.candidates.map((c) => c.entity_name).sort();
      const ok =
        kind === 'ambiguous'
          ? !out.found && names.join() === [...q.ambiguous!].sort().join()
          : kind === 'object'
            ? out.found && out.entity_name === q.expect
            : !out.found && names.length === 0;
      byKind[kind].n++;
      if (ok) correct++, byKind[kind].correct++;
      else
        misses.push(
          `[${kind}] "${q.query}": ${out.found ? `found ${out.entity_name}` : `not found, candidates [${names.join(', ')}]`}`,
        );
    }
    return { queries: data.queries.length, accuracy: ratio(correct, data.queries.length), by_kind: byKind, misses };
  } finally {
    h.close();
  }
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

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Tuning sets (thresholds and rules are chosen on these) and the held-out sets (reported only). */
export const TIER_SETS = {
  intentions: { tuning: 'eval/intentions-tune.json', heldOut: 'eval/intentions.json' },
  sessions: { tuning: 'eval/sessions-tune.json', heldOut: 'eval/sessions.json' },
} as const;
const SETS = [
  ['tuning set', 'tuning'],
  ['held-out', 'heldOut'],
] as const;

async function main() {
  const { values } = parseArgs({
    options: {
      sweep: { type: 'boolean' },
      sessions: { type: 'boolean' },
      possible: { type: 'boolean' },
      verbose: { type: 'boolean', short: 'v' },
      provider: { type: 'string' },
    },
  });
  const neural = createUseLiteEmbedder();
  const useLite = (await neural.ready) ? cachedEmbedder(neural) : null;
  try {
    // Sweeps run on the tuning sets only.
    if (values.sweep && values.sessions && values.provider === 'keyword') {
      console.log(`sessions sweep (keyword only) on ${TIER_SETS.sessions.tuning}`);
      console.log('| min coverage | hit@1 | hit@3 | lexical hit@3 | abstention |\n|---|---|---|---|---|');
      for (const minCoverage of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7]) {
        const e = await evalSessions({ file: TIER_SETS.sessions.tuning, embedder: null, minCoverage });
        console.log(
          `| ${minCoverage} | ${pct(e.hit_at_1)} | ${pct(e.hit_at_3)} | ${e.by_kind.lexical?.hit3}/${e.by_kind.lexical?.n} | ${pct(e.abstention)} |`,
        );
      }
      return;
    }
    if (values.sweep && values.sessions && values.possible) {
      // The possible tier's floor: the gate is fixed (SESSION_GATE), only which near sessions are offered moves.
      const provider = values.provider ?? 'use-lite';
      const embedder = provider === 'use-lite' ? useLite! : createLocalEmbedder();
      console.log(`sessions possible-floor sweep (${provider}) on ${TIER_SETS.sessions.tuning}`);
      console.log(
        '| floor | hit@1 (both tiers) | hit@3 (both tiers) | paraphrase hit@3 | no-match offered possibles |\n|---|---|---|---|---|',
      );
      for (const floor of [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]) {
        const e = await evalSessions({
          file: TIER_SETS.sessions.tuning,
          embedder,
          possibleFloor: { ...SESSION_POSSIBLE_FLOOR, [provider]: floor },
        });
        console.log(
          `| ${floor} | ${pct(e.hit_at_1)} | ${pct(e.hit_at_3)} | ${e.by_kind.paraphrase?.hit3}/${e.by_kind.paraphrase?.n} | ${pct(e.nomatch_offered)} |`,
        );
      }
      return;
    }
    if (values.sweep && values.sessions) {
      const provider = values.provider ?? 'use-lite';
      const embedder = provider === 'use-lite' ? useLite! : createLocalEmbedder();
      console.log(`sessions sweep (${provider}) on ${TIER_SETS.sessions.tuning}`);
      console.log(
        '| min coverage | floor | accept | margin | kwAlone | confirm | confident hit@3 | paraphrase | abstention |\n|---|---|---|---|---|---|---|---|---|',
      );
      for (const minCoverage of [0.35, 0.5, 0.6])
        for (const floor of [0.4, 0.45, 0.5, 0.55])
          for (const accept of [0.55, 0.6, 0.65, 0.7])
            for (const margin of [0.06, 0.1, 0.15])
              for (const [kwAlone, confirm] of [
                [0.6, 0.4],
                [0.6, 0.5],
                [1.01, 0.5],
              ]) {
                if (accept < floor) continue;
                const g = { floor, accept, margin, band: 0.05, support: 0.35, kwAlone, confirm };
                const e = await evalSessions({
                  file: TIER_SETS.sessions.tuning,
                  embedder,
                  sessionGate: { ...SESSION_GATE, [provider]: g },
                  minCoverage,
                });
                console.log(
                  `| ${minCoverage} | ${floor} | ${accept} | ${margin} | ${kwAlone} | ${confirm} | ${pct(e.confident_hit_at_3)} | ${e.by_kind.paraphrase?.conf3}/${e.by_kind.paraphrase?.n} | ${pct(e.abstention)} |`,
                );
              }
      return;
    }
    if (values.sweep) {
      const provider = values.provider ?? 'local';
      const embedder = provider === 'use-lite' ? useLite! : createLocalEmbedder();
      console.log(`intentions sweep (${provider}) on ${TIER_SETS.intentions.tuning}`);
      console.log(
        `| keywordMin | vectorMin (${provider}) | vectorBelow | vectorLead | exact | paraphrase | fire recall | precision | quiet |\n|---|---|---|---|---|---|---|---|---|`,
      );
      for (const keywordMin of [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8])
        for (const vm of [0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 1.01])
          for (const vectorBelow of vm > 1 ? [1.01] : [0.01, 0.3, 0.4, 0.5, 1.01])
            for (const vectorLead of vm > 1 ? [undefined] : [undefined, -0.05, 0, 0.03, 0.06, 0.1]) {
              const tuning = {
                keywordMin,
                vectorMin: { ...DEFAULT_INTENTION_TUNING.vectorMin, [provider]: vm },
                vectorBelow,
                vectorLead,
              };
              const s = await evalIntentions({ file: TIER_SETS.intentions.tuning, embedder, tuning });
              const p = s.by_kind.paraphrase;
              console.log(
                `| ${keywordMin} | ${vm} | ${vectorBelow} | ${vectorLead ?? '—'} | ${pct(s.exact)} | ${p?.exact}/${p?.n} | ${pct(s.fire_recall)} | ${pct(s.fire_precision)} | ${pct(s.quiet_rate)} |`,
              );
            }
      return;
    }
    const embedders = [
      ['local embedder', createLocalEmbedder()],
      ['use-lite', useLite],
      ['keyword only', null],
    ] as const;
    for (const [setName, key] of SETS) {
      for (const [name, embedder] of embedders) {
        if (name === 'use-lite' && !embedder) continue;
        const i = await evalIntentions({ file: TIER_SETS.intentions[key], embedder });
        console.log(
          `intentions, ${setName} (${name}): ${i.cases} cases, exact ${pct(i.exact)}, fire recall ${pct(i.fire_recall)}, precision ${pct(i.fire_precision)}, quiet on negatives ${pct(i.quiet_rate)}`,
        );
        console.log(
          `  by kind: ${Object.entries(i.by_kind)
            .map(([k, v]) => `${k} ${v.exact}/${v.n}`)
            .join(', ')}`,
        );
        if (values.verbose) for (const m of i.misses) console.log(`  miss ${m}`);
      }
    }
    // eval/spatial.json tuned the matcher's constants; spatial-synonyms.json (find by meaning) is held out.
    for (const [file, label] of [
      ['eval/spatial.json', 'spatial'],
      ['eval/spatial-synonyms.json', 'spatial synonyms, held out'],
    ] as const) {
      for (const [how, wordnet] of [
        ['WordNet', undefined],
        ['spelling only', null],
      ] as const) {
        const s = await evalSpatial({ file, wordnet });
        console.log(
          `${label} (${how}): ${s.queries} questions, accuracy ${pct(s.accuracy)} (${Object.entries(s.by_kind)
            .map(([k, v]) => `${k} ${v.correct}/${v.n}`)
            .join(', ')})`,
        );
        if (values.verbose) for (const m of s.misses) console.log(`  miss ${m}`);
      }
    }
    for (const [setName, key] of SETS) {
      for (const [name, embedder] of embedders) {
        if (name === 'use-lite' && !embedder) continue;
        const e = await evalSessions({ file: TIER_SETS.sessions[key], embedder });
        const kinds = Object.entries(e.by_kind).map(([k, v]) =>
          k === 'nomatch'
            ? `nomatch abstained ${v.abstained}/${v.n}, offered possibles ${v.offered}/${v.n}`
            : `${k} ${v.hit1}/${v.hit3}/${v.conf3}/${v.n}`,
        );
        console.log(
          `sessions, ${setName} (${name}): ${e.queries} questions, both tiers hit@1 ${pct(e.hit_at_1)}, hit@3 ${pct(e.hit_at_3)}; confident hit@3 ${pct(e.confident_hit_at_3)}; ${e.nomatch} no-match, abstention ${pct(e.abstention)}`,
        );
        console.log(`  by kind (hit@1/hit@3 both tiers/hit@3 confident/n): ${kinds.join(', ')}`);
        if (values.verbose) for (const m of e.misses) console.log(`  miss ${m}`);
      }
    }
  } finally {
    await neural.close();
  }
}

if (process.argv[1]?.endsWith('eval-tiers.js')) await main();
