/**
 * A threshold sweep over chosen grids, for tuning recall.ts's DEFAULT_TUNING with the local
 * embedder (the grid built into `npm run eval -- --sweep` stops at vectorMin 0.45):
 *
 *   npx tsc -p tsconfig.json && node dist/scripts/sweep-recall.js --kw 0.4,0.45,0.5 --vm 0.45,0.475,0.5,0.525,0.55
 *
 * Prints one row per (keywordMin, vectorMin) with recall@5, paraphrase recall@5 and abstention per mode.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createLocalEmbedder } from '../src/ai/local-embedder.js';
import { DEFAULT_TUNING } from '../src/tiers/memory/recall.js';
import { evaluate } from './eval-recall.js';

const { values } = parseArgs({
  options: {
    kw: { type: 'string', default: '0.35,0.4,0.45,0.5' },
    vm: { type: 'string', default: '0.4,0.425,0.45,0.475,0.5,0.525,0.55,0.575,0.6' },
    data: { type: 'string', default: 'eval/household.json' },
  },
});
const list = (s: string) => s.split(',').map(Number);
const data = JSON.parse(readFileSync(values.data, 'utf8'));
const embedder = createLocalEmbedder();
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
console.log(`embedder ${embedder.fingerprint}; recall@5 (paraphrase) / abstention per mode\n`);
console.log('| keywordMin | vectorMin.local | hybrid | hybrid abstention | vector | vector abstention | keyword | keyword abstention |');
console.log('|---|---|---|---|---|---|---|---|');
for (const kw of list(values.kw)) {
  for (const vm of list(values.vm)) {
    const tuning = { ...DEFAULT_TUNING, keywordMin: kw, vectorMin: { ...DEFAULT_TUNING.vectorMin, local: vm } };
    const [v, k, h] = await evaluate(embedder, data, tuning);
    const cell = (r: typeof v) => `${pct(r.overall.recall5)} (${pct(r.byKind.paraphrase?.recall5 ?? 0)})`;
    console.log(`| ${kw} | ${vm} | ${cell(h)} | ${pct(h.abstention)} | ${cell(v)} | ${pct(v.abstention)} | ${cell(k)} | ${pct(k.abstention)} |`);
  }
}
