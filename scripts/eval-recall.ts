/**
 * `npm run eval`: retrieval quality on eval/household.json — recall@5, MRR and abstention per mode,
 * split by query kind. `--sweep` prints a grid over the evidence thresholds used to tune recall.ts;
 * `--provider ollama|openai` evaluates a real model (MEMORY_AI_* env) instead of the local embedder.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createLocalEmbedder } from '../src/ai/local-embedder.js';
import { createAi } from '../src/ai/providers.js';
import { loadConfig } from '../src/config/load.js';
import type { Embedder } from '../src/ai/types.js';
import { RecallInput, RememberInput, type RecallMode } from '../src/tiers/memory/memory.schemas.js';
import { DEFAULT_TUNING, type RecallTuning } from '../src/tiers/memory/recall.js';
import { createMemoryService } from '../src/tiers/memory/memory.service.js';
import { scratchServices } from './lib/eval-hub.js';

interface Fact { id: string; entity_name: string; entity_type: string; category: string; fact: string }
interface Query { id: string; query: string; kind: 'lexical' | 'paraphrase' | 'no_evidence'; entity_name: string | null; relevant: string[] }
export interface Scores { recall5: number; mrr: number; answered: number; n: number }
export interface ModeReport { mode: RecallMode; byKind: Record<string, Scores>; abstention: number; falseAbstention: number; overall: Scores }

const K = 5;

export async function evaluate(embedder: Embedder, data: { facts: Fact[]; queries: Query[] }, tuning: RecallTuning = DEFAULT_TUNING, verbose = false) {
  const h = scratchServices(embedder);
  const s = h.services;
  const memory = createMemoryService({ db: h.db, clock: h.clock, embedder, vectors: s.vectors, entities: s.entities, audit: s.audit, config: s.config.memory, tuning });
  const idOf = new Map<number, string>();
  for (const f of data.facts) {
    h.clock.advance(3600);
    const r = await memory.remember(RememberInput.parse({ entity_name: f.entity_name, entity_type: f.entity_type, category: f.category, fact: f.fact }));
    if (r.action !== 'added') throw new Error(`fact ${f.id} was ${r.action}, expected added`);
    idOf.set(r.id, f.id);
  }
  const reports: ModeReport[] = [];
  for (const mode of ['vector', 'keyword', 'hybrid'] as RecallMode[]) {
    const byKind: Record<string, { r: number[]; rr: number[]; answered: number }> = {};
    let abstained = 0;
    let noEvidence = 0;
    let falseAbst = 0;
    let answerable = 0;
    for (const q of data.queries) {
      const out = await memory.recall(RecallInput.parse({ query: q.query, top_k: K, mode, ...(q.entity_name && { entity_name: q.entity_name }) }));
      const got = out.results.map((r) => idOf.get(r.id)!);
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
      if (verbose && first !== 0) console.log(`  [${mode}] ${q.id} ${q.kind} rank ${first < 0 ? '-' : first + 1}: "${q.query}" → ${out.results[0]?.fact ?? '(nothing)'}`);
    }
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
    const scores = Object.fromEntries(Object.entries(byKind).map(([kind, v]) => [kind, { recall5: mean(v.r), mrr: mean(v.rr), answered: v.answered, n: v.r.length }]));
    const all = Object.values(byKind);
    reports.push({
      mode,
      byKind: scores,
      abstention: noEvidence ? abstained / noEvidence : 1,
      falseAbstention: answerable ? falseAbst / answerable : 0,
      overall: { recall5: mean(all.flatMap((v) => v.r)), mrr: mean(all.flatMap((v) => v.rr)), answered: answerable - falseAbst, n: answerable },
    });
  }
  h.close();
  return reports;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function table(reports: ModeReport[]): string {
  const rows = ['| mode | recall@5 | MRR | recall@5 lexical | recall@5 paraphrase | abstention (no-evidence → empty) | answerable left empty |', '|---|---|---|---|---|---|---|'];
  for (const r of reports) {
    rows.push(`| ${r.mode} | ${pct(r.overall.recall5)} | ${r.overall.mrr.toFixed(3)} | ${pct(r.byKind.lexical?.recall5 ?? 0)} | ${pct(r.byKind.paraphrase?.recall5 ?? 0)} | ${pct(r.abstention)} | ${pct(r.falseAbstention)} |`);
  }
  return rows.join('\n');
}

async function main() {
  const { values } = parseArgs({ options: { sweep: { type: 'boolean' }, verbose: { type: 'boolean', short: 'v' }, provider: { type: 'string' }, data: { type: 'string' } } });
  const data = JSON.parse(readFileSync(values.data ?? 'eval/household.json', 'utf8'));
  let embedder: Embedder = createLocalEmbedder();
  if (values.provider) {
    const { config } = loadConfig({ overrides: { 'ai.provider': values.provider } });
    const ai = await createAi({ provider: config.ai.provider, baseUrl: config.ai.base_url, llmBaseUrl: config.ai.llm_base_url, apiKey: config.ai.api_key || undefined, embedModel: config.ai.embed_model, embedDim: config.ai.embed_dim, llmModel: config.ai.llm_model, timeoutSeconds: config.ai.timeout });
    embedder = ai.embedder;
  }
  const kinds = data.queries.reduce((m: Record<string, number>, q: Query) => ((m[q.kind] = (m[q.kind] ?? 0) + 1), m), {});
  console.log(`dataset: ${data.facts.length} facts, ${data.queries.length} queries (${Object.entries(kinds).map(([k, n]) => `${n} ${k}`).join(', ')}); embedder ${embedder.fingerprint}; top_k ${K}\n`);
  if (values.sweep) {
    console.log('| keywordMin | vectorMin | hybrid recall@5 | hybrid MRR | hybrid abstention | keyword recall@5 | keyword abstention | vector recall@5 | vector abstention |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    const key = embedder.provider in DEFAULT_TUNING.vectorMin ? embedder.provider : 'default';
    for (const kw of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55]) {
      for (const vm of [0.3, 0.4, 0.45, 0.5, 0.55, 0.6]) {
        const t = { ...DEFAULT_TUNING, keywordMin: kw, vectorMin: { ...DEFAULT_TUNING.vectorMin, [key]: vm } };
        const [v, k, h] = await evaluate(embedder, data, t);
        console.log(`| ${kw} | ${vm} | ${pct(h.overall.recall5)} | ${h.overall.mrr.toFixed(3)} | ${pct(h.abstention)} | ${pct(k.overall.recall5)} | ${pct(k.abstention)} | ${pct(v.overall.recall5)} | ${pct(v.abstention)} |`);
      }
    }
    return;
  }
  const reports = await evaluate(embedder, data, DEFAULT_TUNING, values.verbose);
  console.log(table(reports));
}

if (process.argv[1]?.endsWith('eval-recall.js')) await main();
