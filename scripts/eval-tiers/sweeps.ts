/**
 * The `--sweep` grids of scripts/eval-tiers.ts, each printed as a markdown table. Sweeps run on the
 * tuning sets only (TIER_SETS), so the held-out sets stay unseen by every threshold chosen here.
 */
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import type { Embedder } from '../../src/ai/types.js';
import { SESSION_GATE, SESSION_POSSIBLE_FLOOR } from '../../src/tiers/episodic/session-vectors.js';
import { DEFAULT_INTENTION_TUNING } from '../../src/tiers/prospective/prospective.service.js';
import { pct, TIER_SETS } from './common.js';
import { evalIntentions } from './intentions.js';
import { evalSessions } from './sessions.js';

export interface SweepOptions {
  /** Sweep search_sessions instead of check_intentions. */
  sessions?: boolean;
  /** With `sessions`: sweep the possible tier's floor instead of the confident gate. */
  possible?: boolean;
  /** `keyword`, `local` or `use-lite` (the default: `local` for intentions, `use-lite` for sessions). */
  provider?: string;
}

/** Runs the sweep the options name; `useLite` is the (cached) use-lite embedder, null when it did not load. */
export async function sweep(opts: SweepOptions, useLite: Embedder | null): Promise<void> {
  if (opts.sessions && opts.provider === 'keyword') return sweepSessionsKeyword();
  if (opts.sessions && opts.possible) return sweepPossibleFloor(opts, useLite);
  if (opts.sessions) return sweepSessionGate(opts, useLite);
  return sweepIntentions(opts, useLite);
}

/** search_sessions without vectors: the keyword coverage a session needs. */
async function sweepSessionsKeyword() {
  console.log(`sessions sweep (keyword only) on ${TIER_SETS.sessions.tuning}`);
  console.log('| min coverage | hit@1 | hit@3 | lexical hit@3 | abstention |\n|---|---|---|---|---|');
  for (const minCoverage of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7]) {
    const e = await evalSessions({ file: TIER_SETS.sessions.tuning, embedder: null, minCoverage });
    console.log(
      `| ${minCoverage} | ${pct(e.hit_at_1)} | ${pct(e.hit_at_3)} | ${e.by_kind.lexical?.hit3}/${e.by_kind.lexical?.n} | ${pct(e.abstention)} |`,
    );
  }
}

/** The possible tier's floor: the gate is fixed (SESSION_GATE), only which near sessions are offered moves. */
async function sweepPossibleFloor(opts: SweepOptions, useLite: Embedder | null) {
  const provider = opts.provider ?? 'use-lite';
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
}

/** The confident tier's vector gate per provider (SESSION_GATE), with the keyword coverage. */
async function sweepSessionGate(opts: SweepOptions, useLite: Embedder | null) {
  const provider = opts.provider ?? 'use-lite';
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
}

/** check_intentions: the keyword and vector thresholds (IntentionTuning). */
async function sweepIntentions(opts: SweepOptions, useLite: Embedder | null) {
  const provider = opts.provider ?? 'local';
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
}
