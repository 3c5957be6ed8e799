/**
 * What WordNet query expansion costs per question of words it has not seen (issue #25: ≤ 2 ms warm).
 * Opens a fresh WordNet, warms it on the first 30 questions of eval/household.json +
 * eval/household-heldout.json, then prepares the other 182 (each mostly new words: every new word
 * reads its synsets from data.*) and prints CPU per question (process.cpuUsage, which a loaded
 * machine inflates less than wall time), wall p50/p95, the slowest questions and the memory held.
 * `node dist/scripts/eval-wordnet-cost.js [--runs N]` (runs after the first share the process's stem cache and JIT: the first is a fresh process's figure).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createWordNet } from '../src/ai/wordnet.js';
import { prepareQuery } from '../src/ai/wordnet-coverage.js';

const WARM = 30;

function questions(): string[] {
  const read = (f: string) =>
    (JSON.parse(readFileSync(f, 'utf8')) as { queries: { query: string }[] }).queries.map((q) => q.query);
  return [...read('eval/household.json'), ...read('eval/household-heldout.json')];
}

function run(qs: string[]) {
  const wn = createWordNet();
  const c0 = process.cpuUsage();
  wn.available();
  const open = process.cpuUsage(c0);
  for (const q of qs.slice(0, WARM)) prepareQuery(wn, q);
  const rest = qs.slice(WARM);
  const per: [number, string][] = [];
  const c1 = process.cpuUsage();
  for (const q of rest) {
    const t = performance.now();
    prepareQuery(wn, q);
    per.push([performance.now() - t, q]);
  }
  const cpu = process.cpuUsage(c1);
  const walls = per.map(([ms]) => ms).sort((a, b) => a - b);
  const s = wn.stats();
  wn.close();
  return {
    openMs: (open.user + open.system) / 1000,
    cpuPerQ: (cpu.user + cpu.system) / 1000 / rest.length,
    n: rest.length,
    p50: walls[walls.length >> 1],
    p95: walls[Math.floor(walls.length * 0.95)],
    slowest: per.sort((a, b) => b[0] - a[0]).slice(0, 3),
    heldMb: s.bytes_held / 1048576,
  };
}

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' } } });
const qs = questions();
for (let i = 0; i < Number(values.runs); i++) {
  const r = run(qs);
  console.log(
    `run ${i + 1}: open ${r.openMs.toFixed(0)} ms CPU; ${r.n} questions: ${r.cpuPerQ.toFixed(2)} ms CPU each on average, wall p50 ${r.p50.toFixed(2)} / p95 ${r.p95.toFixed(2)} ms; held ${r.heldMb.toFixed(1)} MB; slowest ${r.slowest.map(([ms, q]) => `"${q}" ${ms.toFixed(1)} ms`).join(', ')}`,
  );
}
