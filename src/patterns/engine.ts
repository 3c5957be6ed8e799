/**
 * The pattern engine (SPEC §5): runs every detector over a read-only context, isolates failures
 * (one failing detector is logged by name, the others run), and promotes findings to trust-3
 * memories with `fact_key = pattern_key`. Because keys name the pattern and not its value, a
 * drifted value supersedes the old memory; a finding that still holds reinforces it; a pattern
 * that stopped holding is simply not confirmed again and fades by decay-on-read.
 * Runs never overlap: a run requested while one is going returns that run's report.
 */
import { z } from 'zod';
import { TRUST_LABELS } from '../lib/trust.js';
import type { Clock } from '../lib/clock.js';
import { HubError } from '../lib/errors.js';
import { check, describeIssues } from '../lib/validation.js';
import type { MemoryService } from '../tiers/memory/memory.service.js';
import { RememberInput } from '../tiers/memory/memory.schemas.js';
import { createPatternContext } from './context.js';
import { loadDetectorDir } from './load.js';
import type { Detector, Finding } from './detector.js';
import type { PatternsRunInput } from './patterns.schemas.js';
import type { PatternReads, PatternsRepo } from '../tiers/patterns/patterns.repo.js';

/** Pattern-engine memories are trust tier 3, `system` — one constant (the seed's docs said 3, its code 2). */
export const PATTERN_TRUST = TRUST_LABELS.system;

export interface RunReport {
  result: string;
  found: (Finding & { detector: string })[];
  promoted: { pattern_key: string; memory_id: number; action: string; fact: string }[];
  errors: { detector: string; message: string }[];
  duration_ms: number;
}

/** A finding that became (or changed) a memory: the `pattern_promoted` event. */
export interface PatternPromoted {
  pattern_key: string;
  detector: string;
  entity_name: string;
  metric: string;
  fact: string;
  memory_id: number;
  action: string;
  confidence: number;
}

interface Loaded {
  detector: Detector;
  opts: Record<string, unknown>;
  /** Loaded from `patterns.detectors_dir` (the detector thread loads it from there too). */
  fromDir: boolean;
}

/**
 * Where detectors run off the event loop (services/detector-lane.ts: a worker thread on a read-only
 * connection). `has` says which it can run; the others run in process.
 */
export interface DetectorLane {
  has(detector: Detector, fromDir: boolean): boolean;
  run(
    jobs: { name: string; opts: Record<string, unknown> }[],
    now: number,
  ): Promise<{ name: string; findings?: Finding[]; error?: string }[]>;
  close(): Promise<void>;
}

export function createPatternEngine(deps: {
  /** The detectors' reads and the promoted_patterns table (tiers/patterns/patterns.repo.ts). */
  reads: PatternReads;
  repo: PatternsRepo;
  clock: Clock;
  timeZone: string;
  memory: MemoryService;
  /** Called after a finding became or changed a memory (wired to the `pattern_promoted` event). */
  onPromoted?: (p: PatternPromoted) => void;
  detectors: Detector[];
  config: { detectors: Record<string, Record<string, unknown>>; detectors_dir: string };
  /** Runs detectors off the event loop; absent: every detector runs in process. */
  lane?: DetectorLane | null;
  /** Brings rollups up to date before detectors read them. */
  beforeRun?: () => unknown;
  log: (msg: string) => void;
}) {
  const { reads, repo, clock, memory, log } = deps;
  let loaded: Loaded[] = [];
  let running: Promise<RunReport> | null = null;
  /** The latest finished run in this process (the admin dashboard shows it). */
  let last: (RunReport & { at: number; dry_run: boolean }) | null = null;

  /** Validates every detector's options from config; throws one line naming the key. */
  function configure(all: Detector[], fromDir: Set<Detector>): Loaded[] {
    const names = new Set(all.map((d) => d.name));
    for (const name of Object.keys(deps.config.detectors)) {
      if (!names.has(name)) throw new HubError('invalid', `patterns.detectors.${name}: no detector named ${name}`);
    }
    const out: Loaded[] = [];
    for (const detector of all) {
      const { enabled = true, ...raw } = deps.config.detectors[detector.name] ?? {};
      if (enabled === false) continue;
      // A user's plain-JS detector may have no zod options: it then takes none.
      const parsed = (detector.options ?? z.object({}).strict()).safeParse(raw);
      if (!parsed.success)
        throw new HubError('invalid', `patterns.detectors.${detector.name}.${describeIssues(parsed.error.issues)}`);
      out.push({ detector, opts: parsed.data as Record<string, unknown>, fromDir: fromDir.has(detector) });
    }
    return out;
  }

  async function run(input: PatternsRunInput): Promise<RunReport> {
    const started = performance.now();
    await deps.beforeRun?.();
    const ctx = createPatternContext(reads, deps.timeZone, clock.now());
    const report: RunReport = { result: '', found: [], promoted: [], errors: [], duration_ms: 0 };
    const selected = input.detectors ? loaded.filter((l) => input.detectors!.includes(l.detector.name)) : loaded;
    const failed = (detector: string, message: string) => {
      report.errors.push({ detector, message });
      log(`patterns: detector ${detector} failed: ${message}`);
    };
    const lane = deps.lane;
    const away = lane ? selected.filter((l) => lane.has(l.detector, l.fromDir)) : [];
    if (lane && away.length) {
      try {
        const jobs = away.map((l) => ({ name: l.detector.name, opts: l.opts }));
        for (const r of await lane.run(jobs, ctx.now)) {
          if (r.error !== undefined) failed(r.name, r.error);
          else report.found.push(...(r.findings ?? []).map((f) => ({ ...f, detector: r.name })));
        }
      } catch (e) {
        for (const l of away) failed(l.detector.name, (e as Error).message);
      }
    }
    for (const { detector, opts } of selected.filter((l) => !away.includes(l))) {
      try {
        const findings = await detector.detect(ctx, opts);
        report.found.push(...findings.map((f) => ({ ...f, detector: detector.name })));
      } catch (e) {
        failed(detector.name, (e as Error).message);
      }
    }
    if (!input.dry_run) {
      for (const f of report.found) {
        const parsed = check(
          RememberInput,
          {
            entity_name: f.entity,
            fact: f.fact,
            category: f.category,
            confidence: Math.min(1, Math.max(0, f.confidence)),
            source: 'pattern_engine',
            source_trust: PATTERN_TRUST,
            fact_key: f.pattern_key,
          },
          'finding',
        );
        if (!parsed.success) {
          report.errors.push({ detector: f.detector, message: `finding ${f.pattern_key}: ${parsed.message}` });
          continue;
        }
        const r = await memory.remember(parsed.data, 'pattern_engine');
        repo.promote({ ...f, memory_id: r.id, detected: clock.now() });
        if (r.action === 'added' || r.action === 'superseded') {
          report.promoted.push({ pattern_key: f.pattern_key, memory_id: r.id, action: r.action, fact: f.fact });
          deps.onPromoted?.({
            pattern_key: f.pattern_key,
            detector: f.detector,
            entity_name: f.entity,
            metric: f.metric,
            fact: f.fact,
            memory_id: r.id,
            action: r.action,
            confidence: f.confidence,
          });
        }
      }
    }
    report.duration_ms = Math.round(performance.now() - started);
    report.result = report.promoted.length
      ? `Found ${report.found.length} patterns; new or changed:\n${report.promoted.map((p) => `- ${p.fact}`).join('\n')}`
      : `Found ${report.found.length} patterns; nothing new to remember.`;
    last = { ...report, at: clock.now(), dry_run: input.dry_run };
    return report;
  }

  return {
    /** Validates config and loads the user's detectors; call once at start-up. */
    async load(): Promise<void> {
      const all = [...deps.detectors];
      const dir = deps.config.detectors_dir;
      const own = dir ? await loadDetectorDir(dir, all, log) : [];
      loaded = configure([...all, ...own], new Set(own));
    },
    lastRun: () => last,
    /** Stops the detector thread, if one was started. */
    close: async () => deps.lane?.close(),
    detectors: () =>
      loaded.map((l) => ({ name: l.detector.name, description: l.detector.description, options: l.opts })),
    run(input: PatternsRunInput = { dry_run: false }): Promise<RunReport> {
      running ??= run(input).finally(() => (running = null));
      return running;
    },
    promoted: (entityName?: string) => repo.promoted(entityName),
  };
}
export type PatternEngine = ReturnType<typeof createPatternEngine>;
