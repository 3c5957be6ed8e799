/**
 * `npm run eval:patterns`: pattern-engine quality on generated households (scripts/lib/household-generator.ts).
 * For each seed: a real SQLite file, readings inserted with SQL, real rollups, a real PatternContext,
 * every built-in detector with its default options. Scores per detector: recall and precision against
 * the planted keys (match by pattern_key), and findings on control series (noise, near misses),
 * which must be 0. `--seeds N` (default 10), `--verbose` lists misses and extras (and seed 1's facts),
 * `--perf` times the six detectors on 50 entities × 10 metrics × 30 days. Exit code 1 when a planted
 * pattern is missed or a control series produces a finding.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { BUILTIN_DETECTORS } from '../detectors/index.js';
import { openDatabase, type Db } from '../src/db/open.js';
import { createPatternReads } from '../src/tiers/patterns/patterns.repo.js';
import { createPatternContext } from '../src/patterns/context.js';
import type { Detector, Finding } from '../src/patterns/detector.js';
import { generateHousehold, loadHousehold, type Household, type Role } from './lib/household-generator.js';
import { fillPatternFixture } from './bench/patterns.js';

interface Row {
  recall: number[];
  precision: number[];
  planted: number;
  noise: number;
  nearMiss: number;
  ms: number[];
}

function scratch(): { db: Db; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-eval-patterns-'));
  const db = openDatabase({ dataDir: dir });
  return { db, done: () => (db.close(), rmSync(dir, { recursive: true, force: true })) };
}

/** The series a finding is about, as "entity:metric" (a pair for correlations). */
const seriesOf = (f: Finding): string[] =>
  f.pattern_key.startsWith('correlation:') ? [String(f.evidence.a), String(f.evidence.b)] : [`${f.entity}:${f.metric}`];

function roleOf(h: Household, key: string): Role | undefined {
  const [entity, metric] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
  const s = h.series.find((x) => x.entity === entity && (x.metric === metric || metric.startsWith(`${x.metric}.`)));
  return s?.role;
}

export async function runDetectors(db: Db, tz: string, now: number, detectors: Detector[] = BUILTIN_DETECTORS) {
  const ctx = createPatternContext(createPatternReads(db), tz, now);
  const out: { name: string; findings: Finding[]; ms: number }[] = [];
  for (const d of detectors) {
    const t0 = performance.now();
    const findings = await d.detect(ctx, d.options.parse({}));
    out.push({ name: d.name, findings, ms: performance.now() - t0 });
  }
  return out;
}

async function evaluate(seeds: number, verbose: boolean) {
  const rows = new Map<string, Row>(
    BUILTIN_DETECTORS.map((d) => [d.name, { recall: [], precision: [], planted: 0, noise: 0, nearMiss: 0, ms: [] }]),
  );
  for (let seed = 1; seed <= seeds; seed++) {
    const h = generateHousehold(seed);
    const { db, done } = scratch();
    loadHousehold(db, h);
    for (const { name, findings, ms } of await runDetectors(db, h.timeZone, h.now)) {
      const row = rows.get(name)!;
      const want = h.expected.filter((k) => k.startsWith(`${name}:`));
      const got = new Set(findings.map((f) => f.pattern_key));
      const hits = want.filter((k) => got.has(k)).length;
      row.planted = want.length;
      row.recall.push(want.length ? hits / want.length : 1);
      row.precision.push(got.size ? hits / got.size : 1);
      row.ms.push(ms);
      for (const f of findings) {
        const roles = seriesOf(f).map((k) => roleOf(h, k));
        if (roles.includes('noise')) row.noise++;
        else if (roles.includes('near_miss')) row.nearMiss++;
      }
      if (verbose) {
        for (const k of want) if (!got.has(k)) console.log(`  seed ${seed} MISSED ${k}`);
        for (const f of findings)
          if (!want.includes(f.pattern_key))
            console.log(`  seed ${seed} EXTRA  ${f.pattern_key} — ${f.fact} ${JSON.stringify(f.evidence)}`);
        if (seed === 1) for (const f of findings) console.log(`  [${f.confidence}] ${f.fact}`);
      }
    }
    done();
  }
  return rows;
}

const fmt = (x: number) => x.toFixed(2);
const min = (x: number[]) => Math.min(...x);
const avg = (x: number[]) => x.reduce((a, b) => a + b, 0) / x.length;

function table(rows: Map<string, Row>, seeds: number): string {
  const lines = [
    `| detector | planted per seed | recall min / mean | precision min / mean | findings on noise controls | on near misses | ms (mean) |`,
    `|---|---|---|---|---|---|---|`,
  ];
  for (const [name, r] of rows) {
    lines.push(
      `| \`${name}\` | ${r.planted} | ${fmt(min(r.recall))} / ${fmt(avg(r.recall))} | ${fmt(min(r.precision))} / ${fmt(avg(r.precision))} | ${r.noise} | ${r.nearMiss} | ${avg(r.ms).toFixed(1)} |`,
    );
  }
  lines.push(
    '',
    `${seeds} seeds; controls per seed: 8 noise series (2 random walks, uniform and Gaussian noise, random moods, window and presence states) and 6 near misses.`,
  );
  return lines.join('\n');
}

/** 50 entities × 10 metrics (8 numeric, 2 categorical) × 30 days, readings every 15 minutes. */
async function perf() {
  const { db, done } = scratch();
  const now = Date.parse('2025-11-30T21:00:00-05:00') / 1000;
  const t0 = performance.now();
  const n = fillPatternFixture(db, now, 'America/New_York');
  console.log(
    `perf: ${n} readings in 500 series loaded and rolled up in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  for (let i = 0; i < 3; i++) {
    const res = await runDetectors(db, 'America/New_York', now);
    const total = res.reduce((a, x) => a + x.ms, 0);
    console.log(
      `run ${i + 1}: total ${total.toFixed(0)} ms — ${res.map((x) => `${x.name} ${x.ms.toFixed(0)} ms (${x.findings.length})`).join(', ')}`,
    );
  }
  done();
}

async function main() {
  const { values } = parseArgs({
    options: {
      seeds: { type: 'string', default: '10' },
      verbose: { type: 'boolean', default: false },
      perf: { type: 'boolean', default: false },
    },
  });
  if (values.perf) return perf();
  const seeds = Number(values.seeds);
  const rows = await evaluate(seeds, values.verbose);
  console.log(table(rows, seeds));
  const failed = [...rows.values()].some((r) => min(r.recall) < 1 || r.noise > 0 || r.nearMiss > 0);
  if (failed) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
