/**
 * `npm run eval` (ask part, #34 "Eval"): the generated home of scripts/eval-ask/home.ts written into a
 * hub as `npm start` builds it — provider `auto` (offline: no Ollama), a fixed clock — then every
 * question of eval/ask-tune.json (tuning: ask may be tuned on it) and eval/ask-heldout.json (held
 * out: never tuned on, reported only) asked through `services.ask.ask({question, now})`.
 * Reported per expected kind: correct, correct "I don't know", wrong while sure.
 *   node dist/scripts/eval-ask.js [--part tune|heldout] [-v]     (-v lists every miss)
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseConfig } from '../src/config/load.js';
import { manualClock } from '../src/lib/clock.js';
import { createHub, type Hub } from '../src/main.js';
import { AliasInput } from '../src/tiers/entities/aliases.schemas.js';
import { RememberInput } from '../src/tiers/memory/memory.schemas.js';
import { IntendInput } from '../src/tiers/prospective/prospective.schemas.js';
import { LocateInput } from '../src/tiers/spatial/spatial.schemas.js';
import { AskInput } from '../src/tiers/ask/ask.schemas.js';
import { tempDir } from './bench/common.js';
import { ALIASES, FACTS, homeReadings, INTENTIONS, NOW, PLACES, type Reading, TZ } from './eval-ask/home.js';
import { type Answer, describe, type Question, type Verdict, verdict } from './eval-ask/score.js';

export const ASK_SETS = { tune: 'eval/ask-tune.json', heldout: 'eval/ask-heldout.json' } as const;

/** A hub holding the generated home, as of its fixed clock. */
export async function askHome(): Promise<{ hub: Hub; readings: Reading[]; close: () => Promise<void> }> {
  const tmp = tempDir('ask-eval');
  const config = parseConfig({
    data_dir: tmp.dir,
    http: { port: 0 },
    mqtt: { mode: 'off' },
    ai: { provider: 'auto', base_url: process.env.MEMORY_AI_BASE_URL ?? 'http://127.0.0.1:9' },
    timeseries: { timezone: TZ, retention_days: 365 },
  });
  const hub = await createHub({ config, clock: manualClock(NOW), scheduler: false, logger: false });
  const s = hub.services;
  const readings = homeReadings();
  for (let i = 0; i < readings.length; i += 5000) {
    const r = await s.timeseries.recordBulk({ readings: readings.slice(i, i + 5000) });
    if (r.inserted !== r.count) throw new Error(`home: ${r.count - r.inserted} readings refused`);
  }
  await s.timeseries.rollupAll();
  for (const f of FACTS) await s.memory.remember(RememberInput.parse(f));
  for (const a of ALIASES) s.aliases.add(AliasInput.parse(a));
  for (const p of PLACES) await s.spatial.locate(LocateInput.parse(p));
  for (const i of INTENTIONS) await s.prospective.intend(IntendInput.parse(i));
  return {
    hub,
    readings,
    close: async () => {
      await hub.stop();
      tmp.remove();
    },
  };
}

export interface KindScore {
  n: number;
  correct: number;
  idk: number;
  wrong_sure: number;
}
export interface PartReport {
  n: number;
  byKind: Record<string, KindScore>;
  correct: number; // correct + correct "I don't know"
  unknowns: number;
  idk: number;
  wrong_sure: number;
  misses: string[];
}

export async function evalAsk(hub: Hub, readings: Reading[], file: string): Promise<PartReport> {
  const { questions } = JSON.parse(readFileSync(file, 'utf8')) as { questions: Question[] };
  const report: PartReport = { n: 0, byKind: {}, correct: 0, unknowns: 0, idk: 0, wrong_sure: 0, misses: [] };
  for (const q of questions) {
    const input = AskInput.parse({ question: q.q, now: NOW, ...(q.speaker ? { speaker: q.speaker } : {}) });
    let a: Answer;
    try {
      a = (await hub.services.ask.ask(input)) as Answer;
    } catch (e) {
      a = { result: `(threw: ${(e as Error).message})`, sure: false, answer: { kind: 'error' } };
    }
    const v: Verdict = verdict(q, a, readings);
    const k = (report.byKind[q.expect.kind] ??= { n: 0, correct: 0, idk: 0, wrong_sure: 0 });
    report.n++;
    k.n++;
    if (q.expect.kind === 'unknown') report.unknowns++;
    if (v === 'correct') k.correct++;
    if (v === 'idk') k.idk++;
    if (v === 'correct' || v === 'idk') report.correct++;
    if (v === 'idk') report.idk++;
    if (v === 'wrong_sure') k.wrong_sure++, report.wrong_sure++;
    if (v !== 'correct' && v !== 'idk') {
      const got = a.answer;
      const shown = { kind: got.kind, value: got.value, at: got.at, seconds: got.seconds, count: got.count };
      report.misses.push(
        `${v.padEnd(12)} "${q.q}" — expected ${describe(q.expect, readings)}; got ${JSON.stringify(shown)}${a.sure ? ' (sure)' : ''}: "${a.result}"`,
      );
    }
  }
  return report;
}

const pct = (a: number, b: number) => `${b ? ((100 * a) / b).toFixed(1) : '0.0'}%`;

export function printAsk(label: string, r: PartReport, verbose: boolean): void {
  console.log(
    `ask, ${label}: ${r.n} questions, correct ${r.correct}/${r.n} (${pct(r.correct, r.n)}), ` +
      `"I don't know" when the home cannot answer ${r.idk}/${r.unknowns}, wrong while sure ${r.wrong_sure} (${pct(r.wrong_sure, r.n)})`,
  );
  const kinds = Object.entries(r.byKind).map(([kind, k]) =>
    kind === 'unknown'
      ? `unknown: I don't know ${k.idk}/${k.n}, wrong while sure ${k.wrong_sure}`
      : `${kind}: ${k.correct}/${k.n}${k.wrong_sure ? `, wrong while sure ${k.wrong_sure}` : ''}`,
  );
  console.log(`  by kind: ${kinds.join('; ')}`);
  if (verbose) for (const m of r.misses) console.log(`  ${m}`);
}

async function main() {
  const { values } = parseArgs({
    options: { part: { type: 'string' }, verbose: { type: 'boolean', short: 'v' } },
  });
  const parts = values.part ? [values.part as keyof typeof ASK_SETS] : (['tune', 'heldout'] as const);
  for (const p of parts) if (!(p in ASK_SETS)) throw new Error(`--part: expected tune or heldout, not ${p}`);
  const home = await askHome();
  try {
    for (const p of parts) {
      const label = p === 'tune' ? 'tuning part' : 'held-out part';
      printAsk(label, await evalAsk(home.hub, home.readings, ASK_SETS[p]), values.verbose ?? false);
    }
  } finally {
    await home.close();
  }
}

if (process.argv[1]?.endsWith('eval-ask.js')) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
