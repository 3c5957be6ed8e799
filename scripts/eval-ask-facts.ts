/**
 * The ask door's fact policy (src/tiers/ask/memory-answers.ts) on the recall eval sets: each question
 * asked as a person would (no entity scope), answered by `answerFact`, and scored as a voice would be
 * heard — stated right / stated wrong, offered right ("I'm not sure, but I remember that …") / offered
 * wrong, "I don't know"; for never-stated questions, how often the answer says it does not know.
 * With `--sweep`, the same for other OFFER_MIN values (from the p recall gives each possible), to
 * choose OFFER_MIN on the calibration sets only — the held-out set is reported, never swept.
 *
 *   npx tsc -p tsconfig.json && node dist/scripts/eval-ask-facts.js [--provider use-lite] [--data file] [--sweep]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { RecallInput, RememberInput } from '../src/tiers/memory/memory.schemas.js';
import { answerFact, OFFER_LEAD, OFFER_MIN } from '../src/tiers/ask/memory-answers.js';
import { scratchServices } from './lib/eval-hub.js';
import type { EvalSet } from './lib/eval-data.js';
import { cachedEmbedder, embedderFor } from './eval-recall.js';

const SETS = [
  ['eval/household.json', 'calibration'],
  ['eval/household-b.json', 'calibration'],
  ['eval/household-heldout.json', 'held out, report only'],
] as const;

interface Row {
  kind: string;
  gold: Set<string>;
  stated?: string;
  /** The possibles a policy may offer (not about another), best first, with p. */
  offers: { id: string; p: number; own: boolean; cos: number | null; kw: number | null }[];
  about: number;
  /** What answerFact said: stated / offered / unknown, and the memory. */
  said: { how: 'stated' | 'offered' | 'unknown'; id?: string };
}

async function run(provider: string, file: string): Promise<Row[]> {
  const data: EvalSet = JSON.parse(readFileSync(file, 'utf8'));
  const embedder = cachedEmbedder(await embedderFor(provider));
  const h = scratchServices(embedder);
  const idOf = new Map<number, string>();
  for (const f of data.facts) {
    h.clock.advance(3600);
    const { id: _, ...fact } = f;
    const r = await h.services.memory.remember(RememberInput.parse(fact));
    idOf.set(r.id, f.id);
  }
  const rows: Row[] = [];
  for (const q of data.queries) {
    const out = await h.services.memory.recall(RecallInput.parse({ query: q.query, explain: true }), { touch: false });
    const reply = await answerFact(h.services, { question: q.query, possible: true, now: h.clock.now() });
    const evidence = reply.evidence[0]?.id;
    rows.push({
      kind: q.kind,
      gold: new Set(q.relevant),
      stated: out.results[0] && idOf.get(out.results[0].id),
      offers: out.possible
        .filter((p) => !p.about_another)
        .map((p) => ({
          id: idOf.get(p.id)!,
          p: p.explain?.p ?? 0,
          own: (out.about ?? []).includes(p.entity_name),
          cos: p.explain?.vector ?? null,
          kw: p.explain?.keyword ?? null,
        })),
      about: out.about?.length ?? 0,
      said: {
        how: reply.answer.kind === 'unknown' ? 'unknown' : reply.sure ? 'stated' : 'offered',
        id: evidence === undefined ? undefined : idOf.get(evidence),
      },
    });
  }
  h.close();
  await embedder.close?.();
  return rows;
}

/** Per kind: stated right/wrong, offered right/wrong, don't know — under OFFER_MIN = min, OFFER_LEAD = lead. */
function score(rows: Row[], min?: number, lead = 0) {
  const out: Record<string, Record<string, number>> = {};
  for (const r of rows) {
    const k = (out[r.kind] ??= { n: 0, statedRight: 0, statedWrong: 0, offeredRight: 0, offeredWrong: 0, dontKnow: 0 });
    k.n++;
    let how = r.said.how;
    let id = r.said.id;
    if (min !== undefined && !r.stated) {
      const best = [...r.offers].sort((a, b) => b.p - a.p);
      const o = best[0] && best[0].p >= min && best[0].p - (best[1]?.p ?? 0) >= lead ? best[0] : undefined;
      how = o ? 'offered' : 'unknown';
      id = o?.id;
    }
    if (how === 'unknown') k.dontKnow++;
    else if (how === 'stated') r.gold.has(id!) ? k.statedRight++ : k.statedWrong++;
    else r.gold.has(id!) ? k.offeredRight++ : k.offeredWrong++;
  }
  return out;
}

function print(label: string, s: ReturnType<typeof score>) {
  console.log(`\n${label}\n`);
  console.log('| kind | n | stated right | stated wrong | offered right | offered wrong | "I don\'t know" |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [kind, k] of Object.entries(s))
    console.log(
      `| ${kind} | ${k.n} | ${k.statedRight} | ${k.statedWrong} | ${k.offeredRight} | ${k.offeredWrong} | ${k.dontKnow} |`,
    );
}

const { values } = parseArgs({
  options: { provider: { type: 'string' }, data: { type: 'string' }, sweep: { type: 'boolean' } },
});
for (const provider of (values.provider ?? 'use-lite').split(',')) {
  for (const [file, label] of values.data ? [[values.data, '']] : SETS) {
    const rows = await run(provider, file);
    if (process.env.DUMP)
      writeFileSync(
        `${process.env.DUMP}-${provider}-${file.split('/').pop()}`,
        JSON.stringify(rows.map((r) => ({ ...r, gold: [...r.gold] }))),
      );
    print(
      `### ${provider} — ${file}${label ? ` (${label})` : ''}, OFFER_MIN ${OFFER_MIN}, OFFER_LEAD ${OFFER_LEAD}`,
      score(rows),
    );
    if (values.sweep && !file.includes('heldout'))
      for (const lead of [0, 0.1])
        for (const min of [0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4])
          print(`OFFER_MIN ${min}, OFFER_LEAD ${lead}`, score(rows, min, lead));
  }
}
