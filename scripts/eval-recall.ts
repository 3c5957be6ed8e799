/**
 * `npm run eval`: retrieval quality per embedder on both household sets — eval/household.json (the
 * set the gate is calibrated on) and eval/household-heldout.json (held out: never tuned on) —
 * recall@5, MRR and abstention per mode, split by query kind, plus the held-out set's supersessions.
 * Providers: `local`, `use-lite`, and `ollama` when one answers at MEMORY_AI_BASE_URL
 * (`--provider a,b` to choose; `--data file` for one set; `-v` lists misses).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { aiConfigOf, createAi } from '../src/ai/providers.js';
import { pingOllama } from '../src/ai/ollama.js';
import { loadConfig } from '../src/config/load.js';
import type { Embedder } from '../src/ai/types.js';
import { RecallInput, RememberInput, type RecallMode } from '../src/tiers/memory/memory.schemas.js';
import { DEFAULT_TUNING, type RecallTuning } from '../src/tiers/memory/recall.js';
import { createMemoryService } from '../src/tiers/memory/memory.service.js';
import { scratchServices } from './lib/eval-hub.js';
import type { EvalSet } from './lib/eval-data.js';
import { figures, type TierFigures } from './lib/eval-confidence.js';
import { internals } from '../src/internals.js';

export interface Scores {
  recall5: number;
  mrr: number;
  answered: number;
  n: number;
}
export interface ModeReport {
  mode: RecallMode;
  byKind: Record<string, Scores>;
  abstention: number;
  falseAbstention: number;
  overall: Scores;
  tiers: TierFigures;
}
export interface SetReport {
  modes: ModeReport[];
  supersessions: { right: number; n: number; wrong: string[] };
  scoped: { right: number; n: number; wrong: string[] };
}

const K = 5;

/** Remembers every text's vector once per process: sweeps and repeated modes re-embed nothing. */
export function cachedEmbedder(e: Embedder): Embedder {
  const cache = new Map<string, Float32Array>();
  return {
    ...e,
    async embed(texts: string[]) {
      const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
      if (missing.length) (await e.embed(missing)).forEach((v, i) => cache.set(missing[i], v));
      return texts.map((t) => cache.get(t)!);
    },
    ping: () => e.ping(),
  };
}

export async function evaluate(
  embedder: Embedder,
  data: EvalSet,
  tuning: RecallTuning = DEFAULT_TUNING,
  verbose = false,
): Promise<SetReport> {
  const h = scratchServices(embedder);
  const s = h.services;
  const memory = createMemoryService({
    db: h.db,
    clock: h.clock,
    embedder,
    vectors: internals(s).vectors,
    entities: internals(s).entities,
    audit: internals(s).audit,
    config: s.config.memory,
    tuning,
    wordnet: s.wordnet,
  });
  const idOf = new Map<number, string>();
  for (const f of data.facts) {
    h.clock.advance(3600);
    const r = await memory.remember(
      RememberInput.parse({
        entity_name: f.entity_name,
        entity_type: f.entity_type,
        category: f.category,
        fact: f.fact,
      }),
    );
    if (r.action !== 'added') throw new Error(`fact ${f.id} was ${r.action}, expected added`);
    idOf.set(r.id, f.id);
  }
  const modes: ModeReport[] = [];
  for (const mode of ['vector', 'keyword', 'hybrid'] as RecallMode[]) {
    const byKind: Record<string, { r: number[]; rr: number[]; answered: number }> = {};
    let abstained = 0;
    let noEvidence = 0;
    let falseAbst = 0;
    let answerable = 0;
    const tierRows: Parameters<typeof figures<string>>[0] = [];
    for (const q of data.queries) {
      const out = await memory.recall(
        RecallInput.parse({ query: q.query, top_k: K, mode, ...(q.entity_name && { entity_name: q.entity_name }) }),
      );
      const got = out.results.map((r) => idOf.get(r.id)!);
      tierRows.push({ q, gold: new Set(q.relevant), results: got, possible: out.possible.map((r) => idOf.get(r.id)!) });
      if (q.kind === 'no_evidence') {
        noEvidence++;
        if (!got.length) abstained++;
        else if (verbose) console.log(`  [${mode}] ${q.id} should abstain: "${q.query}" → ${out.results[0].fact}`);
        continue;
      }
      answerable++;
      if (!got.length) falseAbst++;
      const k = (byKind[q.kind] ??= { r: [], rr: [], answered: 0 });
      const hits = q.relevant.filter((id) => got.includes(id)).length;
      k.r.push(hits / q.relevant.length);
      const first = got.findIndex((id) => q.relevant.includes(id));
      k.rr.push(first < 0 ? 0 : 1 / (first + 1));
      if (got.length) k.answered++;
      if (verbose && first !== 0)
        console.log(
          `  [${mode}] ${q.id} ${q.kind} rank ${first < 0 ? '-' : first + 1}: "${q.query}" → ${out.results[0]?.fact ?? '(nothing)'}`,
        );
    }
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
    const scores = Object.fromEntries(
      Object.entries(byKind).map(([kind, v]) => [
        kind,
        { recall5: mean(v.r), mrr: mean(v.rr), answered: v.answered, n: v.r.length },
      ]),
    );
    const all = Object.values(byKind);
    modes.push({
      mode,
      byKind: scores,
      abstention: noEvidence ? abstained / noEvidence : 1,
      falseAbstention: answerable ? falseAbst / answerable : 0,
      overall: {
        recall5: mean(all.flatMap((v) => v.r)),
        mrr: mean(all.flatMap((v) => v.rr)),
        answered: answerable - falseAbst,
        n: answerable,
      },
      tiers: figures(tierRows),
    });
  }
  // Scoped questions (an entity with few facts, other words): the answer among the first five of both tiers.
  const scopedWrong: string[] = [];
  for (const q of data.scoped ?? []) {
    const out = await memory.recall(RecallInput.parse({ query: q.query, top_k: K, entity_name: q.entity_name }));
    const first = [...out.results, ...out.possible].slice(0, K).map((r) => idOf.get(r.id)!);
    if (!q.relevant.some((id) => first.includes(id))) scopedWrong.push(q.id);
    if (verbose && scopedWrong.at(-1) === q.id)
      console.log(`  [scoped] ${q.id}: "${q.query}" → ${first.join(', ') || '(nothing)'}`);
  }
  // Supersessions: the newer fact answers (hybrid, scoped to the entity), the replaced one never does, not even as possible.
  const wrong: string[] = [];
  for (const u of data.supersessions ?? []) {
    const base = { entity_name: u.entity_name, entity_type: u.entity_type, category: u.category, fact_key: u.fact_key };
    h.clock.advance(3600);
    const old = await memory.remember(RememberInput.parse({ ...base, fact: u.old }));
    h.clock.advance(3600);
    const neu = await memory.remember(RememberInput.parse({ ...base, fact: u.new }));
    const out = await memory.recall(RecallInput.parse({ query: u.query, top_k: K, entity_name: u.entity_name }));
    const ids = out.results.map((r) => r.id);
    if (
      neu.action !== 'superseded' ||
      !ids.includes(neu.id) ||
      ids.includes(old.id) ||
      out.possible.some((r) => r.id === old.id)
    )
      wrong.push(u.id);
  }
  h.close();
  const n = data.scoped?.length ?? 0;
  return {
    modes,
    supersessions: {
      right: (data.supersessions?.length ?? 0) - wrong.length,
      n: data.supersessions?.length ?? 0,
      wrong,
    },
    scoped: { right: n - scopedWrong.length, n, wrong: scopedWrong },
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function table(reports: ModeReport[]): string {
  const rows = [
    '| mode | recall@5 | MRR | recall@5 lexical | recall@5 paraphrase | abstention (no-evidence → empty) | answerable left empty |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of reports) {
    rows.push(
      `| ${r.mode} | ${pct(r.overall.recall5)} | ${r.overall.mrr.toFixed(3)} | ${pct(r.byKind.lexical?.recall5 ?? 0)} | ${pct(r.byKind.paraphrase?.recall5 ?? 0)} | ${pct(r.abstention)} | ${pct(r.falseAbstention)} |`,
    );
  }
  return rows.join('\n');
}

/** Both tiers: first-5 of results then possible, the confident tier alone, and what never-stated questions get. */
export function tierTable(reports: ModeReport[]): string {
  const rows = [
    '| mode | first-5 R@5 (both tiers) | lexical | paraphrase | confident R@5 | confident paraphrase | abstention (no confident result) | wrong-confident | never-stated with possibles |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { mode, tiers: t } of reports) {
    rows.push(
      `| ${mode} | ${pct(t.firstR5)} | ${pct(t.firstLexical)} | ${pct(t.firstParaphrase)} | ${pct(t.confidentR5)} | ${pct(t.confidentParaphrase)} | ${pct(t.abstention)} | ${pct(t.wrongConfident)} | ${pct(t.neverStatedPossible)} |`,
    );
  }
  return rows.join('\n');
}

/** Builds one provider's embedder the way the hub does (MEMORY_AI_* env for remote ones). */
export async function embedderFor(provider: string): Promise<Embedder> {
  const { config } = loadConfig({ overrides: { 'ai.provider': provider } });
  const ai = await createAi(aiConfigOf(config.ai));
  for (const w of ai.warnings) console.error(w);
  return ai.embedder;
}

const SETS = [
  ['eval/household.json', 'calibration set'],
  ['eval/household-b.json', 'calibration set, second household'],
  ['eval/household-heldout.json', 'held out, never tuned on'],
] as const;

async function main() {
  const { values } = parseArgs({
    options: { verbose: { type: 'boolean', short: 'v' }, provider: { type: 'string' }, data: { type: 'string' } },
  });
  let providers = values.provider?.split(',');
  if (!providers) {
    providers = ['local', 'use-lite'];
    const { config } = loadConfig({});
    if (await pingOllama(config.ai.base_url)) providers.push('ollama');
    else console.log(`(no Ollama answered at ${config.ai.base_url}: its rows are skipped)\n`);
  }
  const sets = values.data ? [[values.data, '']] : SETS;
  for (const provider of providers) {
    const raw = await embedderFor(provider);
    const embedder = cachedEmbedder(raw);
    for (const [file, label] of sets) {
      const data: EvalSet = JSON.parse(readFileSync(file, 'utf8'));
      const kinds = data.queries.reduce((m: Record<string, number>, q) => ((m[q.kind] = (m[q.kind] ?? 0) + 1), m), {});
      console.log(`### ${provider} — ${file}${label ? ` (${label})` : ''}\n`);
      console.log(
        `${data.facts.length} facts, ${data.queries.length} queries (${Object.entries(kinds)
          .map(([k, n]) => `${n} ${k}`)
          .join(', ')}); embedder ${embedder.fingerprint}; top_k ${K}\n`,
      );
      const r = await evaluate(embedder, data, DEFAULT_TUNING, values.verbose);
      console.log(tierTable(r.modes));
      console.log('\nconfident tier (`results`) alone:\n');
      console.log(table(r.modes));
      if (r.scoped.n)
        console.log(
          `\nscoped questions (entity with ≤ 30 facts, other words; answer in the first five of both tiers): ${r.scoped.right}/${r.scoped.n}${r.scoped.wrong.length ? ` — wrong: ${r.scoped.wrong.join(', ')}` : ''}`,
        );
      if (r.supersessions.n)
        console.log(
          `\nsupersessions (hybrid, newer fact found, replaced one absent from both tiers): ${r.supersessions.right}/${r.supersessions.n}${r.supersessions.wrong.length ? ` — wrong: ${r.supersessions.wrong.join(', ')}` : ''}`,
        );
      console.log('');
    }
    await raw.close?.();
  }
}

if (process.argv[1]?.endsWith('eval-recall.js')) await main();
