/**
 * Tier 4/5 evals: `evalIntentions()` on eval/intentions.json (does check_intentions fire exactly
 * the intentions a person would expect?) and `evalSpatial()` on eval/spatial.json (does find answer
 * natural questions with the right object, offer candidates when ambiguous, and nothing when
 * nothing fits?). Tier 1.5: `evalSessions()` on eval/sessions.json (does search_sessions find the
 * conversation a later question is about, and nothing when no conversation is?). Each builds a
 * scratch database, so it runs offline with the local embedder.
 * `node dist/scripts/eval-tiers.js [--sweep] [--intentions] [-v]` prints all three (`--intentions`: that eval
 * only); `--sweep` grids the intention thresholds.
 * The evals live in scripts/eval-tiers/ (one file each, the scratch database in common.ts, the
 * `--sweep` grids in sweeps.ts); this file prints the report.
 */
import { parseArgs } from 'node:util';
import { createLocalEmbedder } from '../src/ai/local-embedder.js';
import { createUseLiteEmbedder } from '../src/ai/use-lite.js';
import { cachedEmbedder } from './eval-recall.js';
import { pct, TIER_SETS } from './eval-tiers/common.js';
import { evalIntentions } from './eval-tiers/intentions.js';
import { evalSessions } from './eval-tiers/sessions.js';
import { evalSpatial } from './eval-tiers/spatial.js';
import { sweep } from './eval-tiers/sweeps.js';

export { TIER_SETS } from './eval-tiers/common.js';
export { evalIntentions, type IntentionScores } from './eval-tiers/intentions.js';
export { evalSessions, type SessionScores } from './eval-tiers/sessions.js';
export { evalSpatial, type SpatialScores } from './eval-tiers/spatial.js';

const SETS = [
  ['tuning set', 'tuning'],
  ['held-out', 'heldOut'],
] as const;

async function main() {
  const { values } = parseArgs({
    options: {
      sweep: { type: 'boolean' },
      sessions: { type: 'boolean' },
      intentions: { type: 'boolean' },
      possible: { type: 'boolean' },
      verbose: { type: 'boolean', short: 'v' },
      provider: { type: 'string' },
    },
  });
  const neural = createUseLiteEmbedder();
  const useLite = (await neural.ready) ? cachedEmbedder(neural) : null;
  try {
    // Sweeps run on the tuning sets only.
    if (values.sweep) {
      await sweep(values, useLite);
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
    if (values.intentions) return; // --intentions: the intention sets only
    // eval/spatial.json tuned the matcher's constants; spatial-synonyms.json (find by meaning) is held out.
    for (const [file, label] of [
      ['eval/spatial.json', 'spatial'],
      ['eval/spatial-synonyms.json', 'spatial synonyms, held out'],
    ] as const) {
      for (const [how, wordnet, embedder] of [
        ['WordNet', undefined, undefined],
        ['spelling only', null, undefined],
        ['WordNet, then the use-lite encoder', undefined, useLite ?? undefined],
      ] as const) {
        if (how.includes('encoder') && !embedder) continue;
        const s = await evalSpatial({ file, wordnet, embedder });
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
