/**
 * The benchmarks and evals cannot rot: `bench --help`, a quick bench and the evals run here (e2e tier,
 * against the dist/ its setup has just built) and must finish and print their tables. Timings are
 * not asserted — the machines are shared; the ratios are for people to read.
 * The bench runs the quick sizes of recall, rollup, scale, patterns and ask; ingest and neural take
 * minutes even at --quick and are left to `npm run bench -- --quick`.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function run(script: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [`dist/scripts/${script}`, ...args], {
    env: { ...process.env, MEMORY_AI_BASE_URL: 'http://127.0.0.1:9' }, // no Ollama: its rows are skipped, quickly
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const tail = (s: string) => s.split('\n').slice(-15).join('\n');

describe('bench and eval smoke', () => {
  it('bench --help prints the options and exits 0; an unknown option is one line and exit 2', async () => {
    const help = await run('bench.js', ['--help']);
    expect(help.code, help.stderr).toBe(0);
    for (const o of ['--quick', '--only', '--fresh', '--pi', '--help']) expect(help.stdout).toContain(o);
    const bad = await run('bench.js', ['--nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^bench: Unknown option '--nope'/);
    expect(bad.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('bench --quick completes and prints a row for every part it ran', async () => {
    const parts = ['recall', 'rollup', 'scale', 'patterns', 'ask', 'doors', 'stopwatch'];
    const r = await run('bench.js', ['--quick', '--only', parts.join(',')]);
    expect(r.code, tail(r.stderr)).toBe(0);
    expect(r.stdout).toContain('| part | measurement | value | baseline (same run) | ratio | target | met |');
    for (const p of parts) expect(r.stdout, `no ${p} rows`).toMatch(new RegExp(`^\\| ${p} \\|`, 'm'));
  }, 600_000);

  it('the evals complete and print their tables', async () => {
    const recall = await run('eval-recall.js', ['--provider', 'local']);
    expect(recall.code, tail(recall.stderr)).toBe(0);
    expect(recall.stdout).toMatch(/^\| mode \| recall@5 \| MRR \|/m);
    expect(recall.stdout).toMatch(/^\| hybrid \| \d+\.\d%/m);
    const tiers = await run('eval-tiers.js', []);
    expect(tiers.code, tail(tiers.stderr)).toBe(0);
    expect(tiers.stdout).toMatch(/^intentions, held-out \(local embedder\): \d+ cases/m);
    expect(tiers.stdout).toMatch(/^spatial( \([^)]*\))?: \d+ questions/m);
    expect(tiers.stdout).toMatch(/^sessions, held-out \(local embedder\):/m);
    const ask = await run('eval-ask.js', []);
    expect(ask.code, tail(ask.stderr)).toBe(0);
    expect(ask.stdout).toMatch(/^ask, tuning part: \d+ questions, correct \d+\/\d+/m);
    expect(ask.stdout).toMatch(/^ask, held-out part: \d+ questions, correct \d+\/\d+ .* wrong while sure \d+/m);
  }, 600_000);
});
