/**
 * Fits recall's confidence model (src/tiers/memory/confidence.ts) for one embedder on the two
 * calibration households ONLY (eval/household.json, 134 facts, and eval/household-b.json, 48 facts:
 * each in its own store), and prints its cross-validated figures, with the held-out set's beside
 * (eval/household-heldout.json is scored with the finished model, never used to choose anything).
 *
 *   npx tsc -p tsconfig.json && node dist/scripts/calibrate-gate.js --provider use-lite [--folds 10] [--write]
 *
 * 1. Stores the facts, gathers every question's candidates and signals once (recall's own
 *    gatherCandidates/signalsOf), labels each candidate: answers the question or not.
 * 2. Prints each signal's AUROC (answerable vs never-stated, from the question's best candidate; the
 *    margin is against the non-restating runner-up, as recall reads it).
 * 3. Fits the logistic model by L2-regularised Newton steps on each question's strongest candidates
 *    (--train-top by cosine and by keyword coverage); k-fold cross-validation by question.
 * 4. Chooses the threshold from a short list (0.30 … 0.90) on the out-of-fold p's: the highest
 *    confident recall@5 with abstention ≥ --min-abstention and wrong-confident ≤ --max-wrong; the
 *    possible floor: the highest from a short list that keeps first-5 recall within 0.5 point of no floor.
 *    --min-abstention defaults to 0.9, the target (#25); --max-wrong to 0.03.
 * 5. Reports questions scoped to an entity (scoped cases, supersessions, never-stated questions asked
 *    of the entity they name) at the chosen threshold.
 * 6. --write puts the weights into confidence.ts (between the BEGIN/END fitted markers).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { RecallInput, RememberInput } from '../src/tiers/memory/memory.schemas.js';
import { DEFAULT_TUNING, gatherCandidates, judge, type Candidates } from '../src/tiers/memory/recall.js';
import { featureVector, FEATURES, type ConfidenceModel } from '../src/tiers/memory/confidence.js';
import { scratchServices } from './lib/eval-hub.js';
import type { EvalFact, EvalQuery, EvalSet } from './lib/eval-data.js';
import { namedInQuery } from '../src/tiers/memory/named.js';
import { cachedEmbedder, embedderFor } from './eval-recall.js';
import { fitLogistic, replay, type Gathered } from './lib/eval-confidence.js';
import { internals } from '../src/internals.js';

const { values } = parseArgs({
  options: {
    provider: { type: 'string', default: 'use-lite' },
    folds: { type: 'string', default: '10' },
    write: { type: 'boolean' },
    'min-abstention': { type: 'string', default: '0.9' },
    'max-wrong': { type: 'string', default: '0.03' },
    lambda: { type: 'string', default: '1' },
    'train-top': { type: 'string', default: '5' },
  },
});
const provider = values.provider!;
const raw = await embedderFor(provider);
const embedder = cachedEmbedder(raw);

/**
 * Stores a set's facts in a scratch hub and gathers each question's candidates (hybrid, top_k 5); then
 * the scoped questions (asked with entity_name): the set's `scoped` cases, each never-stated question
 * asked of the entity it names, and its `supersessions` (the newer fact is the answer).
 */
async function gather(file: string): Promise<{ open: Gathered[]; scoped: Gathered[] }> {
  const data: EvalSet = JSON.parse(readFileSync(file, 'utf8'));
  const h = scratchServices(embedder);
  const s = h.services;
  const idOf = new Map<number, string>();
  const remember = async (f: Omit<EvalFact, 'id'> & { fact_key?: string }) => {
    h.clock.advance(3600);
    return s.memory.remember(RememberInput.parse(f));
  };
  for (const { id, ...f } of data.facts) idOf.set((await remember(f)).id, id);
  const entityNamed = (x: string) => {
    const e = s.entities.find(x);
    return e && { id: e.id, name: e.name, type: e.type };
  };
  const deps = {
    repo: internals(s).memoryRepo,
    vectors: internals(s).vectors,
    embedder,
    clock: h.clock,
    decay: s.config.memory,
    entityId: (x: string) => s.entities.find(x)?.id,
    entityNamed,
    wordnet: s.wordnet,
  };
  const ask = async (q: EvalQuery, gold: Set<number>, entityName?: string): Promise<Gathered> => {
    const input = RecallInput.parse({ query: q.query, top_k: 5, mode: 'hybrid', entity_name: entityName });
    const entityId = entityName === undefined ? undefined : s.entities.find(entityName)?.id;
    return { q, c: await gatherCandidates(deps, input, { entityId }, 60, []), gold };
  };
  const goldOf = (relevant: string[]) => new Set([...idOf].filter(([, f]) => relevant.includes(f)).map(([id]) => id));
  const open: Gathered[] = [];
  for (const q of data.queries) open.push(await ask(q as EvalQuery, goldOf(q.relevant)));
  // The supersessions are stored first, so the scoped questions below meet the newer facts too (a
  // never-stated question about Kwame must not be answered by his updated lunch).
  const newer: { u: (typeof data.supersessions & {})[number]; id: number }[] = [];
  for (const u of data.supersessions ?? []) {
    const base = { entity_name: u.entity_name, entity_type: u.entity_type, category: u.category, fact_key: u.fact_key };
    await remember({ ...base, fact: u.old });
    newer.push({ u, id: (await remember({ ...base, fact: u.new })).id });
  }
  const scoped: Gathered[] = [];
  for (const q of data.scoped ?? [])
    scoped.push(await ask({ ...q, kind: 'paraphrase', entity_name: q.entity_name }, goldOf(q.relevant), q.entity_name));
  for (const q of data.queries.filter((x) => x.kind === 'no_evidence')) {
    const [named] = namedInQuery(entityNamed, q.query, { anyType: true });
    if (named) scoped.push(await ask(q as EvalQuery, new Set(), s.entities.byId(named.id)!.name));
  }
  for (const { u, id } of newer) {
    const q: EvalQuery = { id: u.id, query: u.query, kind: 'paraphrase', entity_name: u.entity_name, relevant: [] };
    scoped.push(await ask(q, new Set([id]), u.entity_name));
  }
  h.close();
  return { open, scoped };
}

// The calibration households: two stores, as two homes would be (questions of one are never asked of the other).
const sets = [await gather('eval/household.json'), await gather('eval/household-b.json')];
const calib = sets.flatMap((x) => x.open);
const calibScoped = sets.flatMap((x) => x.scoped);
// What the model is fitted and its threshold chosen on: the open questions, then the scoped ones.
const pool = [...calib, ...calibScoped];
const heldoutSets = await gather('eval/household-heldout.json');
const heldout = heldoutSets.open;
const lambda = Number(values.lambda);
const TRAIN_TOP = Number(values['train-top']);
// The rival floor: the 10th percentile of the non-restating runner-up cosine over the calibration
// questions — it binds for one question in ten in a household's store, and for every question in a
// store (or scope) of one or two facts, whose margin would otherwise be the whole cosine.
const runnerUps = calib
  .map(({ c }) => {
    const group = new Set(c.vectorHits.length ? [c.vectorHits[0].memory_id, ...c.sameAsTop] : []);
    return c.vectorHits.find((h) => !group.has(h.memory_id))?.similarity ?? 0;
  })
  .sort((a, b) => a - b);
const rival = Number(runnerUps[Math.floor(runnerUps.length / 10)].toFixed(3));
const placeholder: ConfidenceModel = {
  bias: 0,
  weights: FEATURES.map(() => 0),
  rival,
  threshold: 0.5,
  floor: 0,
  fitted: '',
};

/** Training rows: every candidate the model judges (those with a cosine), labelled. */
function rowsOf(g: Gathered[]) {
  const X: number[][] = [];
  const y: number[] = [];
  for (const { c, gold } of g) {
    // The decision that matters is about the question's strongest candidates: the rank-20 vector hit is
    // an easy negative that would teach ranking, not whether the question is answered.
    const judged = [...judge(c, placeholder, DEFAULT_TUNING.keywordMin)].filter(([id]) => c.sims.has(id));
    const top = new Set(
      [...judged]
        .sort((a, b) => b[1].signals.cos - a[1].signals.cos)
        .slice(0, TRAIN_TOP)
        .map(([id]) => id),
    );
    for (const [id] of [...judged].sort((a, b) => b[1].signals.cov - a[1].signals.cov).slice(0, TRAIN_TOP)) top.add(id);
    for (const [id, j] of judged) {
      if (!top.has(id)) continue;
      X.push(featureVector(j.signals));
      y.push(gold.has(id) ? 1 : 0);
    }
  }
  return { X, y };
}

// 2. Signals: AUROC of the question's best candidate's signal, answerable vs never stated.
function auroc(pos: number[], neg: number[]) {
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}
const best = (c: Candidates, f: (x: number[]) => number) =>
  Math.max(
    0,
    ...[...judge(c, placeholder, 1)].filter(([id]) => c.sims.has(id)).map(([, j]) => f(featureVector(j.signals))),
  );
console.log(
  `${embedder.fingerprint} — eval/household.json + household-b.json: ${calib.length} questions, ${rowsOf(calib).X.length} candidates\n`,
);
console.log(
  "AUROC of the best candidate's signal, answerable vs never stated; and of a paraphrase's gold fact vs a never-stated question's best candidate (what a confident paraphrase needs):",
);
const bestGold = (g: Gathered, i: number) =>
  Math.max(
    0,
    ...[...judge(g.c, placeholder, 1)]
      .filter(([id]) => g.c.sims.has(id) && g.gold.has(id))
      .map(([, j]) => featureVector(j.signals)[i]),
  );
for (const [i, name] of FEATURES.entries()) {
  const pos = calib.filter((g) => g.q.kind !== 'no_evidence').map((g) => best(g.c, (x) => x[i]));
  const neg = calib.filter((g) => g.q.kind === 'no_evidence').map((g) => best(g.c, (x) => x[i]));
  const para = calib.filter((g) => g.q.kind === 'paraphrase').map((g) => bestGold(g, i));
  console.log(
    `  ${name.padEnd(8)} ${auroc(pos, neg).toFixed(3)}   paraphrase gold vs never-stated best: ${auroc(para, neg).toFixed(3)}`,
  );
}

// 3. k-fold by question: out-of-fold p for every candidate of every question.
const k = Number(values.folds);
const oofModels: ConfidenceModel[] = [];
for (let f = 0; f < k; f++) {
  const { X, y } = rowsOf(pool.filter((_, i) => i % k !== f));
  oofModels.push({ ...placeholder, ...fitLogistic(X, y, lambda) });
}
const modelOfQuestion = (i: number) => oofModels[i % k];

// 4. Threshold and floor on the out-of-fold p's.
const THRESHOLDS = [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9];
const FLOORS = [0, 0.01, 0.02, 0.03, 0.05, 0.08, 0.1, 0.15];
const minAbst = Number(values['min-abstention']);
const maxWrong = Number(values['max-wrong']);
const cv = (threshold: number, floor: number) => replay(pool, (i) => ({ ...modelOfQuestion(i), threshold, floor }));
console.log(`\n${k}-fold cross-validated on the calibration set (threshold × figures, floor 0):`);
console.log(table(THRESHOLDS.map((t) => [`p ≥ ${t}`, cv(t, 0)])));
// Abstention is required of the open questions and of the scoped ones, each (a scoped question is the
// easier to abstain on: pooled, they would hide a shortfall on the open ones).
const cvPart = (part: Gathered[], offset: number, t: number) =>
  replay(part, (i) => ({ ...modelOfQuestion(i + offset), threshold: t, floor: 0 }));
const ok = THRESHOLDS.map((t) => ({ t, r: cv(t, 0) })).filter(
  (x) =>
    cvPart(calib, 0, x.t).abstention >= minAbst &&
    cvPart(calibScoped, calib.length, x.t).abstention >= minAbst &&
    x.r.wrongConfident <= maxWrong,
);
const threshold = ok.sort((a, b) => b.r.confidentR5 - a.r.confidentR5 || a.t - b.t)[0]?.t ?? 0.9;
const noFloor = cv(threshold, 0).firstR5;
const floor = Math.max(...FLOORS.filter((fl) => cv(threshold, fl).firstR5 >= noFloor - 0.005));
console.log(
  `\nchosen: threshold ${threshold} (abstention ≥ ${minAbst}, wrong-confident ≤ ${maxWrong}), possible floor ${floor}`,
);

// Final model: fitted on the whole calibration set.
const all = rowsOf(pool);
const fitted = `${new Date().toISOString().slice(0, 10)}, eval/household.json + household-b.json, ${k}-fold, λ ${lambda}`;
const model: ConfidenceModel = { ...fitLogistic(all.X, all.y, lambda), rival, threshold, floor, fitted };
console.log(
  `weights (${['bias', ...FEATURES].join(', ')}): ${[model.bias, ...model.weights].map((x) => x.toFixed(3)).join(', ')}; rival ${rival}\n`,
);
{
  // The same comparison for the model's p (out-of-fold): how often a paraphrase's gold fact is judged surer
  // than a never-stated question's best candidate. Below 0.5, no threshold states the one and not the other.
  const pOf = (g: Gathered, i: number, gold: boolean) =>
    Math.max(
      0,
      ...[...judge(g.c, modelOfQuestion(i), 1)]
        .filter(([id]) => g.c.sims.has(id) && (!gold || g.gold.has(id)))
        .map(([, j]) => j.p),
    );
  const para = calib.flatMap((g, i) => (g.q.kind === 'paraphrase' ? [pOf(g, i, true)] : []));
  const neg = calib.flatMap((g, i) => (g.q.kind === 'no_evidence' ? [pOf(g, i, false)] : []));
  console.log(`p (out of fold): paraphrase gold vs never-stated best, AUROC ${auroc(para, neg).toFixed(3)}\n`);
}
console.log(
  table([
    ['calibration (open and scoped), cross-validated', cv(threshold, floor)],
    ['calibration, open questions, in-sample', replay(calib, () => model)],
    ['held out, open questions (report only)', replay(heldout, () => model)],
  ]),
);

// 5. Questions scoped to an entity, at the chosen threshold (they are in the pool the model was fitted on).
console.log(
  `\nscoped to an entity (the scoped cases and supersessions, answerable; the never-stated questions asked of the entity they name):\n${table(
    [
      ['scoped, calibration, in-sample', replay(calibScoped, () => model)],
      ['scoped, held out (report only)', replay(heldoutSets.scoped, () => model)],
    ],
  )}\n`,
);

if (values.write) {
  const file = 'src/tiers/memory/confidence.ts';
  const src = readFileSync(file, 'utf8');
  const r4 = (x: number) => Number(x.toFixed(4));
  // The entry as the formatter lays it out (one field a line), replacing the old one whether it is
  // one line or several.
  const key = provider.includes('-') ? `'${provider}'` : provider;
  const entry = [
    `  ${key}: {`,
    `    bias: ${r4(model.bias)},`,
    `    weights: [${model.weights.map(r4).join(', ')}],`,
    `    rival: ${rival},`,
    `    threshold: ${threshold},`,
    `    floor: ${floor},`,
    `    fitted: '${fitted}',`,
    '  },',
  ].join('\n');
  const re = new RegExp(`^  '?${provider}'?: \\{(?:.*\\},|[\\s\\S]*?\\n  \\},)$`, 'm');
  if (!re.test(src)) throw new Error(`no entry for ${provider} in ${file}`);
  writeFileSync(file, src.replace(re, entry));
  console.log(`\nwrote ${provider} into ${file}`);
}
await raw.close?.();

function table(rows: [string, ReturnType<typeof replay>][]) {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const head =
    '| | first-5 R@5 | lexical | paraphrase | confident R@5 | confident paraphrase | abstention | wrong-confident | never-stated with possibles |\n|---|---|---|---|---|---|---|---|---|';
  return [
    head,
    ...rows.map(
      ([name, r]) =>
        `| ${name} | ${pct(r.firstR5)} | ${pct(r.firstLexical)} | ${pct(r.firstParaphrase)} | ${pct(r.confidentR5)} | ${pct(r.confidentParaphrase)} | ${pct(r.abstention)} | ${pct(r.wrongConfident)} | ${pct(r.neverStatedPossible)} |`,
    ),
  ].join('\n');
}
