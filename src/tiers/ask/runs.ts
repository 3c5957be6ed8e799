/**
 * Runs of a two-state series (open/closed, on/off, home/away): built from the last reading before a
 * window and the window's own readings — bounded reads only (timeseries/window.reader.ts). A step back
 * through history ("when did the kettle last run?") reads at most MAX_BACK readings, and a power
 * series first jumps to the latest hour whose rollup maximum says it ran.
 */
import type { Point, WindowReads } from '../timeseries/window.reader.js';
import type { SubjectSeries } from './subject.js';
import { isActive, POWER_ON_W, sideValues } from './two-state.js';

export interface Run {
  from: number;
  to: number;
  active: boolean;
}

/** Readings of one window read for runs; more is cut off (and the answer says it is not sure). */
export const MAX_WINDOW = 50_000;
/** Readings read stepping back for the last/first time (in chunks of CHUNK). */
export const MAX_BACK = 20_000;
const CHUNK = 1000;

export interface WindowRuns {
  /** The runs overlapping [from, to], clipped to it, oldest first; the state before the first reading is unknown. */
  runs: Run[];
  /** Readings read (the one before the window included). */
  readings: number;
  /** The window held more than MAX_WINDOW readings. */
  truncated: boolean;
  /** The state at `from` is known (a reading at or before it). */
  knownAtStart: boolean;
}

/** Runs over [from, to] (a moment when from === to: the run it falls in, from its reading). */
export function stateRuns(reads: WindowReads, s: SubjectSeries, from: number, to: number): WindowRuns {
  const prev = reads.atOrBefore(s.id, from);
  const pts = from < to ? reads.between(s.id, from, to, MAX_WINDOW) : [];
  const runs: Run[] = [];
  const push = (ts: number, active: boolean) => {
    const last = runs[runs.length - 1];
    if (last && last.active === active) return;
    if (last) last.to = ts;
    runs.push({ from: ts, to, active });
  };
  const prevActive = prev ? isActive(s, prev.value) : null;
  if (prevActive !== null) push(from === to ? prev!.ts : from, prevActive);
  for (const p of pts) {
    const a = isActive(s, p.value);
    if (a !== null) push(p.ts, a);
  }
  return {
    runs,
    readings: pts.length + (prev ? 1 : 0),
    truncated: pts.length >= MAX_WINDOW,
    knownAtStart: prevActive !== null,
  };
}

/** Readings before `ts`, newest first, in chunks, at most MAX_BACK. */
function* backward(reads: WindowReads, id: number, ts: number): Generator<Point> {
  let cursor = ts;
  for (let read = 0; read < MAX_BACK; ) {
    const chunk = reads.before(id, cursor, CHUNK);
    for (const p of chunk) yield p;
    if (chunk.length < CHUNK) return;
    read += chunk.length;
    cursor = chunk[chunk.length - 1].ts;
  }
}

export interface FoundRun {
  /** When the run began; undefined when it began before the readings reach back. */
  from?: number;
  /** When it ended; undefined while it goes on at `before`. */
  to?: number;
  /** Readings read. */
  readings: number;
}

/**
 * The latest run of the `want` side that began before `before`, or null (none within the readings
 * read; `exhausted` says the step back stopped at MAX_BACK rather than at the first reading).
 */
export function lastRun(
  reads: WindowReads,
  s: SubjectSeries,
  before: number,
  want: boolean,
): { run: FoundRun | null; exhausted: boolean; readings: number } {
  let from = before;
  if (want && s.concept === 'power' && s.value_type === 'numeric') {
    // A power series: jump to the latest hour whose maximum says it ran (one rollup seek).
    const hour = reads.lastHourAbove(s.id, before, POWER_ON_W);
    if (hour === undefined) return { run: null, exhausted: false, readings: 0 };
    from = Math.min(before, hour + 7200);
  }
  const bySql = categoricalLastRun(reads, s, before, want);
  if (bySql) return bySql;
  let readings = 0;
  let newerOther: number | undefined; // the other side's reading just after the run: its end
  let inRun = false;
  let end: number | undefined;
  let runStart = 0;
  for (const p of backward(reads, s.id, from + 0.001)) {
    readings++;
    const a = isActive(s, p.value);
    if (a === null) continue;
    if (a === want) {
      if (!inRun) [inRun, end] = [true, newerOther];
      runStart = p.ts;
    } else if (inRun) return { run: { from: runStart, to: end, readings }, exhausted: false, readings };
    else newerOther = p.ts;
  }
  const exhausted = readings >= MAX_BACK;
  // The step back reached the series' first reading (the run began with it) or stopped at MAX_BACK (unknown).
  if (inRun) return { run: { from: exhausted ? undefined : runStart, to: end, readings }, exhausted, readings };
  return { run: null, exhausted, readings };
}

/** How far back a categorical series is searched for the last time a side held (an index walk in SQL). */
export const LAST_FLOOR_S = 366 * 86_400;

/**
 * The last run of a categorical series, found in SQL: its latest reading of the side, the other side's
 * first reading after it (the run's end) and latest before it (the reading after which the run began).
 */
function categoricalLastRun(reads: WindowReads, s: SubjectSeries, before: number, want: boolean) {
  const [mine, other] = [sideValues(s, want), sideValues(s, !want)];
  if (!mine || !other) return null;
  const floor = before - LAST_FLOOR_S;
  const hit = reads.lastOfSide(s.id, before + 0.001, floor, mine.values, mine.inside);
  if (!hit) return { run: null, exhausted: (reads.first(s.id)?.ts ?? before) < floor, readings: 0 };
  const end = reads.firstOfSide(s.id, hit.ts, before, other.values, other.inside);
  const prior = reads.lastOfSide(s.id, hit.ts, floor, other.values, other.inside);
  const start = prior ? reads.between(s.id, prior.ts, hit.ts, 1)[0] : reads.first(s.id);
  const known = prior !== undefined || (start !== undefined && start.ts >= floor);
  return { run: { from: known ? start?.ts : undefined, to: end?.ts, readings: 4 }, exhausted: !known, readings: 4 };
}

/** The first change into the `want` side in (from, to] — or `from` itself when it already held — or null. */
export function firstRun(
  reads: WindowReads,
  s: SubjectSeries,
  from: number,
  to: number,
  want: boolean,
): { at: number | null; readings: number } {
  const prev = reads.atOrBefore(s.id, from);
  if (prev && isActive(s, prev.value) === want) return { at: from, readings: 1 };
  let start = from;
  if (want && s.concept === 'power' && s.value_type === 'numeric') {
    const hour = reads.firstHourAbove(s.id, from - 3600, to, POWER_ON_W);
    if (hour === undefined) return { at: null, readings: 1 };
    start = Math.max(from, hour - 0.001); // `between` reads after its start: the hour's first reading counts
  }
  const pts = reads.between(s.id, start, to, MAX_BACK);
  const hit = pts.find((p) => isActive(s, p.value) === want);
  return { at: hit ? hit.ts : null, readings: pts.length + 1 };
}

/** Seconds the `active` side held within the runs. */
export const heldFor = (runs: Run[], active: boolean) =>
  runs.filter((r) => r.active === active).reduce((a, r) => a + (r.to - r.from), 0);

/** Changes into the `active` side within the runs (a run already going at the window's start is not one). */
export const changesInto = (runs: Run[], active: boolean, from: number, knownAtStart: boolean) =>
  runs.filter((r, i) => r.active === active && (r.from > from || (i === 0 && !knownAtStart))).length;
