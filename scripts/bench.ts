/**
 * `npm run bench`: speed of the real parts — recall over 1k/10k/50k memories, MQTT and HTTP ingest,
 * bytes per stored reading, incremental rollups. Every figure comes with a baseline measured in the
 * same run (raw sqlite-vec KNN, raw aedes pub→sub, raw better-sqlite3 inserts, a plain table scan),
 * because the machines this runs on are shared and noisy: compare the ratios across runs.
 *
 *   npm run build && npm run bench                # everything (a few minutes on 2 cores)
 *   node dist/scripts/bench.js --quick            # small sizes: a smoke check
 *   node dist/scripts/bench.js --only recall      # one part: recall | ingest | rollup | scale | ask … (comma-separated)
 *   node dist/scripts/bench.js --fresh            # rebuild the cached recall stores (see bench/recall-store.ts)
 *   npm run bench -- --pi                         # Pi profile: hub pinned to one core, 256 MB heap (bench/pi.ts)
 *   npm run bench -- --help                       # the options
 */
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { markdownTable, type BenchOptions, type BenchRow } from './bench/common.js';

// Loaded on demand: `--only recall` does not load the HTTP/MQTT doors it does not use.
const PARTS = {
  recall: async () => (await import('./bench/recall.js')).benchRecall,
  ingest: async () => (await import('./bench/ingest.js')).benchIngest,
  rollup: async () => (await import('./bench/rollup.js')).benchRollup,
  scale: async () => (await import('./bench/scale.js')).benchScale,
  patterns: async () => (await import('./bench/patterns.js')).benchPatterns,
  neural: async () => (await import('./bench/neural.js')).benchNeural,
  doors: async () => (await import('./bench/doors.js')).benchDoors,
  ask: async () => (await import('./bench/ask.js')).benchAsk,
  // The timings the test suite used to assert, each against a same-run baseline (bench/stopwatch.ts).
  stopwatch: async () => (await import('./bench/stopwatch.js')).benchStopwatch,
} as const;
type Part = keyof typeof PARTS;

const USAGE = `usage: npm run bench -- [options]   (runs dist/: npm run build first)

  --quick          smaller sizes (about ten minutes on 2 shared cores; --only to pick parts)
  --only <parts>   some parts only, comma-separated: ${Object.keys(PARTS).join(', ')}
  --fresh          rebuild the cached recall stores (see scripts/bench/recall-store.ts)
  --pi             Pi profile: the hub pinned to one core with a 256 MB heap (scripts/bench/pi.ts)
  -h, --help       this text

Prints one markdown table; every figure has a baseline measured in the same run, so compare ratios.`;

/** The options, or a one-line complaint and exit 2 (a person typed them: no stack trace). */
function options() {
  try {
    const { values } = parseArgs({
      options: {
        quick: { type: 'boolean', default: false },
        fresh: { type: 'boolean', default: false },
        only: { type: 'string' },
        pi: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    const only = values.only?.split(',') as Part[] | undefined;
    for (const p of only ?? [])
      if (!(p in PARTS)) throw new Error(`--only: unknown part "${p}" (${Object.keys(PARTS).join(', ')})`);
    return { ...values, only };
  } catch (e) {
    console.error(`bench: ${(e as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
}

async function main() {
  const values = options();
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const only = values.only;
  const t0 = performance.now();
  const opts: BenchOptions = {
    quick: values.quick,
    fresh: values.fresh,
    log: (msg) => console.error(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${msg}`),
  };
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`;
  opts.log(`bench on ${machine}${opts.quick ? ' (--quick)' : ''}`);
  const rows: BenchRow[] = [];
  const failed: Part[] = [];
  // --pi: the hub as a Raspberry Pi runs it, one core and a 256 MB heap (scripts/bench/pi.ts).
  if (values.pi) rows.push(...(await (await import('./bench/pi.js')).benchPi(opts)));
  else
    for (const [name, load] of Object.entries(PARTS) as [
      Part,
      () => Promise<(o: BenchOptions) => Promise<BenchRow[]>>,
    ][]) {
      if (only && !only.includes(name)) continue;
      opts.log(`— ${name} —`);
      // A part that throws is reported and the others still run: one broken part hides no other rows.
      try {
        rows.push(...(await (await load())(opts)));
      } catch (e) {
        console.error(e);
        failed.push(name);
      }
    }
  const minutes = ((performance.now() - t0) / 60_000).toFixed(1);
  console.log(`\n${markdownTable(rows)}\n`);
  console.log(
    `${new Date().toISOString().slice(0, 10)} · ${machine} · ${minutes} min${opts.quick ? ' · --quick' : ''}`,
  );
  const missed = rows.filter((r) => r.met === false);
  if (missed.length) console.log(`targets missed: ${missed.map((r) => r.what).join('; ')}`);
  if (failed.length) {
    console.log(`parts failed (no rows; the error is above): ${failed.join(', ')}`);
    process.exitCode = 1;
  }
}

await main();
