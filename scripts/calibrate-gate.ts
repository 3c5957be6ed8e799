/**
 * Calibrates recall's evidence gate (src/tiers/memory/evidence-gate.ts) for one embedder on
 * eval/household.json ONLY — the held-out set is never read here.
 *
 *   npx tsc -p tsconfig.json && node dist/scripts/calibrate-gate.js --provider use-lite [--min-abstention 0.9]
 *
 * Stores the facts once, then replays the hybrid queries under every gate on a grid and prints the
 * best settings: highest recall@5 among those whose abstention on never-stated questions is at
 * least --min-abstention (ties: paraphrase recall, then abstention), plus the AUROC of each signal.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { RecallInput, RememberInput } from '../src/tiers/memory/memory.schemas.js';
import { decideEvidence, DEFAULT_TUNING, gatherCandidates, type Candidates, type RecallTuning } from '../src/tiers/memory/recall.js';
import { createMemoryService } from '../src/tiers/memory/memory.service.js';
import { fuse, type VectorGate } from '../src/tiers/memory/evidence-gate.js';
import { scratchServices } from './lib/eval-hub.js';
import type { EvalSet } from './lib/eval-data.js';
import { cachedEmbedder, embedderFor } from './eval-recall.js';

const { values } = parseArgs({ options: { provider: { type: 'string', default: 'use-lite' }, 'min-abstention': { type: 'string', default: '0.9' } } });
const data: EvalSet = JSON.parse(readFileSync('eval/household.json', 'utf8'));
const raw = await embedderFor(values.provider);
const embedder = cachedEmbedder(raw);
const h = scratchServices(embedder);
const s = h.services;
const service = (tuning: RecallTuning) =>
  createMemoryService({ db: h.db, clock: h.clock, embedder, vectors: s.vectors, entities: s.entities, audit: s.audit, config: s.config.memory, tuning });
const idOf = new Map<number, string>();
for (const f of data.facts) {
  h.clock.advance(3600);
  const r = await service(DEFAULT_TUNING).remember(RememberInput.parse({ entity_name: f.entity_name, entity_type: f.entity_type, category: f.category, fact: f.fact }));
  idOf.set(r.id, f.id);
}
const queries = data.queries.map((q) => ({ q, input: RecallInput.parse({ query: q.query, top_k: 5, mode: 'hybrid', ...(q.entity_name && { entity_name: q.entity_name }) }) }));

// Gather every query's candidates once (termsFloor 0: keyword coverage of all vector hits), then
// replay the gate and fusion of recall.ts for each setting — the same functions, no second copy.
const gathered: { q: (typeof queries)[number]['q']; c: Candidates }[] = [];
for (const { q, input } of queries) {
  const entityId = q.entity_name ? s.entities.find(q.entity_name)?.id : undefined;
  const deps = { repo: s.memory.repo, vectors: s.vectors, embedder, clock: h.clock, decay: s.config.memory, entityId: (x: string) => s.entities.find(x)?.id };
  gathered.push({ q, c: await gatherCandidates(deps, input, { entityId }, 60, 0, []) });
}

// Signal AUROCs (answerable vs never stated) from the ungated vector ranking recall sees.
const sig = gathered.map(({ q, c }) => {
  const [s1, s2] = [c.vectorHits[0]?.similarity ?? 0, c.vectorHits[1]?.similarity ?? 0];
  return { answerable: q.kind !== 'no_evidence', s1, margin: s1 - s2 };
});
const auroc = (key: 's1' | 'margin') => {
  const pos = sig.filter((x) => x.answerable).map((x) => x[key]);
  const neg = sig.filter((x) => !x.answerable).map((x) => x[key]);
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (pos.length * neg.length);
};
console.log(`${embedder.fingerprint}: AUROC answerable vs never-stated — top-1 cosine ${auroc('s1').toFixed(3)}, margin ${auroc('margin').toFixed(3)}\n`);

function score(gate: VectorGate) {
  let r = 0, para = 0, nPara = 0, abst = 0, nNo = 0, n = 0;
  for (const { q, c } of gathered) {
    const { keywordCov, vectorSim } = decideEvidence(c, gate, DEFAULT_TUNING.keywordMin);
    const ids = new Set([...keywordCov.keys(), ...vectorSim.keys()]);
    const ranked = [...ids].map((id) => [id, fuse(keywordCov.get(id) ?? null, vectorSim.get(id) ?? null)] as const).sort((a, b) => b[1] - a[1]);
    const got = ranked.slice(0, 5).map(([id]) => idOf.get(id)!);
    if (q.kind === 'no_evidence') {
      nNo++;
      if (!got.length) abst++;
      continue;
    }
    const rec = q.relevant.filter((id) => got.includes(id)).length / q.relevant.length;
    r += rec;
    n++;
    if (q.kind === 'paraphrase') (para += rec), nPara++;
  }
  return { recall: r / n, paraphrase: para / nPara, abstention: abst / nNo };
}

const grid = {
  floor: [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6],
  accept: [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 1.01],
  margin: [0.02, 0.04, 0.06, 0.08, 0.1, 0.12, 0.15],
  band: [0.03, 0.07, 0.12],
  support: [0.25, 0.35, 0.5],
  kwAlone: [0.4, 0.5, 0.6, 0.7, 0.8, 1.01],
  confirm: [0, 0.2, 0.3, 0.35, 0.4, 0.45, 0.5],
  phrase: [false, true],
};
const rows: { gate: VectorGate; recall: number; paraphrase: number; abstention: number }[] = [];
for (const floor of grid.floor)
  for (const accept of grid.accept.filter((a) => a >= floor))
    for (const margin of grid.margin)
      for (const band of grid.band)
        for (const support of grid.support)
          for (const kwAlone of grid.kwAlone)
            for (const confirm of grid.confirm)
              for (const phrase of grid.phrase) {
                const gate = { floor, accept, margin, band, support, kwAlone, confirm, phrase };
                rows.push({ gate, ...score(gate) });
              }
const min = Number(values['min-abstention']);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const best = rows
  .filter((r) => r.abstention >= min)
  .sort((a, b) => b.recall - a.recall || b.paraphrase - a.paraphrase || b.abstention - a.abstention)
  .slice(0, 15);
console.log(`${rows.length} gates tried; best with abstention ≥ ${min}:\n`);
console.log('| floor | accept | margin | band | support | kwAlone | confirm | phrase | recall@5 | paraphrase | abstention |\n|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of best) {
  const g = r.gate;
  console.log(`| ${g.floor} | ${g.accept} | ${g.margin} | ${g.band} | ${g.support} | ${g.kwAlone} | ${g.confirm} | ${g.phrase} | ${pct(r.recall)} | ${pct(r.paraphrase)} | ${pct(r.abstention)} |`);
}
// The trade-off: the best recall at each level of abstention reached.
console.log('\nfrontier (best recall@5 at each abstention):\n');
console.log('| abstention | recall@5 | paraphrase | gate |\n|---|---|---|---|');
for (const a of [...new Set(rows.map((r) => r.abstention))].sort((x, y) => y - x)) {
  const r = rows.filter((x) => x.abstention >= a).sort((x, y) => y.recall - x.recall || y.paraphrase - x.paraphrase)[0];
  console.log(`| ${pct(a)} | ${pct(r.recall)} | ${pct(r.paraphrase)} | ${JSON.stringify(r.gate)} |`);
}
h.close();
await raw.close?.();
