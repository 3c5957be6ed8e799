/**
 * Number answers (SPEC §5 Ask): `measure` — how warm / humid / how much over a window (mean, min,
 * max or sum, with the unit), at a moment, or now — and `usual`, the window's mean against the same
 * hours of the seven days before. Whole hours come from the hour rollups; only the part of a window
 * that is not a whole hour is read raw (bounded by the window). "How much energy" is the rise of a
 * cumulative energy meter, or a power series integrated over time.
 */
import { localToUtc, wallTime } from '../../lib/tz.js';
import type { AskOutput, Evidence } from './ask.schemas.js';
import { answerBase, evidenceOf, quietBefore, type ReadingDeps, type ReadingQuestion } from './readings-answer.js';
import { MAX_WINDOW } from './runs.js';
import { sayThing, sayValue, sentence } from './say-value.js';
import { sayClock, sayMoment } from './say-time.js';
import type { Stat } from './shape.js';

const HOUR = 3600;
/** A reading older than this at the moment asked about is not the value then. */
const STALE_S = 2 * HOUR;
/** Days the usual level is taken from, and how many of them must have readings. */
export const USUAL_DAYS = 7;
export const USUAL_MIN_DAYS = 3;

interface Agg {
  count: number;
  sum: number;
  min: number;
  max: number;
  /** Where the minimum and maximum were: a reading's time, or an hour bucket's start (`hour`). */
  minAt?: { ts: number; hour: boolean };
  maxAt?: { ts: number; hour: boolean };
  buckets: number;
  readings: number;
}

/** count/sum/min/max of [from, to): whole hour buckets from the rollups, the rest raw. */
function aggregate(deps: ReadingDeps, id: number, from: number, to: number, onlyRollups = false): Agg {
  const a: Agg = { count: 0, sum: 0, min: Infinity, max: -Infinity, buckets: 0, readings: 0 };
  const take = (v: number, n: number, lo: number, hi: number, ts: number, hour: boolean) => {
    a.count += n;
    a.sum += v * n;
    if (lo < a.min) [a.min, a.minAt] = [lo, { ts, hour }];
    if (hi > a.max) [a.max, a.maxAt] = [hi, { ts, hour }];
  };
  const whole = deps.reads.buckets(id, 'hour', from, to).filter((b) => b.bucket_ts + HOUR <= to && b.avg !== null);
  for (const b of whole) take(b.avg!, b.count, b.min ?? b.avg!, b.max ?? b.avg!, b.bucket_ts, true);
  a.buckets = whole.length;
  if (onlyRollups) return a;
  const raw = (lo: number, hi: number) => {
    if (hi <= lo) return;
    for (const p of deps.reads.between(id, lo - 0.001, hi - 0.001, MAX_WINDOW)) {
      if (typeof p.value !== 'number') continue;
      a.readings++;
      take(p.value, 1, p.value, p.value, p.ts, false);
    }
  };
  if (!whole.length) raw(from, to);
  else {
    raw(from, whole[0].bucket_ts);
    raw(whole[whole.length - 1].bucket_ts + HOUR, to);
  }
  return a;
}

/** The exact reading of an hour's minimum or maximum (one bounded read of that hour). */
function pinpoint(deps: ReadingDeps, id: number, at: { ts: number; hour: boolean }, v: number): number {
  if (!at.hour) return at.ts;
  const hit = deps.reads.between(id, at.ts - 0.001, at.ts + HOUR - 0.001, MAX_WINDOW).find((p) => p.value === v);
  return hit?.ts ?? at.ts;
}

/** Energy over [from, to]: a cumulative meter's rise, or power (W/kW) integrated over time, in kWh. */
function energy(deps: ReadingDeps, q: ReadingQuestion, from: number, to: number): { kwh: number; readings: number } {
  const s = q.series;
  const start = deps.reads.atOrBefore(s.id, from);
  const pts = deps.reads.between(s.id, from, to, MAX_WINDOW).filter((p) => typeof p.value === 'number');
  if (s.concept === 'energy') {
    const first = typeof start?.value === 'number' ? start.value : (pts[0]?.value as number | undefined);
    const last = pts.length ? (pts[pts.length - 1].value as number) : first;
    const scale = /^wh$/i.test(s.unit ?? '') ? 1 / 1000 : 1;
    return { kwh: Math.max(0, ((last ?? 0) - (first ?? 0)) * scale), readings: pts.length + (start ? 1 : 0) };
  }
  const w = /^kw$/i.test(s.unit ?? '') ? 1000 : 1;
  let [ts, v] = [from, typeof start?.value === 'number' ? start.value : 0];
  let joules = 0;
  for (const p of pts) {
    joules += v * w * (p.ts - ts);
    [ts, v] = [p.ts, p.value as number];
  }
  joules += v * w * (to - ts);
  return { kwh: joules / 3_600_000, readings: pts.length + (start ? 1 : 0) };
}

/** "I have no readings of the bedroom temperature yesterday evening. My last reading … was …" */
function noneIn(deps: ReadingDeps, q: ReadingQuestion, thing: string, spoken: string, to: number): string {
  return `I have no readings of ${thing} ${spoken}.${quietBefore(deps, q, to, false).note}`;
}

/** "The bedroom temperature was about 19.5 °C on average", "… was at its lowest, 17 °C,", "… came to 42 mm in all". */
function statSentence(thing: string, stat: Stat, value: string): string {
  if (stat === 'mean') return `${sentence(thing)} was about ${value} on average`;
  if (stat === 'sum') return `${sentence(thing)} came to ${value} in all`;
  return `${sentence(thing)} was at its ${stat === 'min' ? 'lowest' : 'highest'}, ${value},`;
}

export function measureAnswer(deps: ReadingDeps, q: ReadingQuestion): AskOutput {
  const s = q.series;
  const thing = sayThing(s, true);
  const say = (v: number, unit = s.unit) => sayValue(v, s.concept, unit);
  const base = { kind: 'measure' as const, ...answerBase(q) };
  const window = q.when && q.when.from < q.when.to && q.when.at === undefined;
  if (!window) {
    // A moment ("at 11 pm"), or now: the reading then.
    const at = q.when ? (q.when.at ?? q.when.to) : q.now;
    const p = deps.reads.atOrBefore(s.id, at);
    const evidence: Evidence[] = [evidenceOf(q, 'readings', p?.ts ?? at, at, p ? 1 : 0)];
    if (!p || typeof p.value !== 'number') {
      return {
        result: `I have no readings of ${thing} yet.`,
        answer: { ...base, kind: 'unknown' },
        sure: true,
        evidence,
      };
    }
    const old = p.ts < at - STALE_S;
    const when = q.when ? q.when.spoken : 'now';
    const result = old
      ? `${sentence(thing)} was ${say(p.value)} when I last heard from it, ${sayMoment(p.ts, q.now, q.tz)}.`
      : `${sentence(thing)} ${at < q.now - 60 ? 'was' : 'is'} ${say(p.value)} ${when}.`;
    return { result, answer: { ...base, value: p.value, unit: s.unit ?? undefined, at: p.ts }, sure: !old, evidence };
  }
  const from = q.when!.from;
  const to = Math.min(q.when!.to, q.now);
  const spoken = q.when!.spoken;
  const stat = q.shape.stat ?? 'mean';
  deps.rollup([s.id]);
  if (stat === 'sum' && (s.concept === 'energy' || s.concept === 'power')) {
    const e = energy(deps, q, from, to);
    const quiet = quietBefore(deps, q, to, false);
    return {
      result: `${sentence(sayThing(s))} used about ${sayValue(e.kwh, 'energy', 'kWh')} ${spoken}.${quiet.note}`,
      answer: { ...base, value: Math.round(e.kwh * 1000) / 1000, unit: 'kWh', stat },
      sure: quiet.last === null && e.readings > 0,
      evidence: [evidenceOf(q, 'readings', from, to, e.readings)],
    };
  }
  const a = aggregate(deps, s.id, from, to);
  const evidence: Evidence[] = [];
  if (a.buckets) evidence.push(evidenceOf(q, 'rollup', from, to, a.buckets));
  if (a.readings || !a.buckets) evidence.push(evidenceOf(q, 'readings', from, to, a.readings));
  if (!a.count) {
    return {
      result: noneIn(deps, q, thing, spoken, to),
      answer: { ...base, kind: 'unknown', from, to },
      sure: true,
      evidence,
    };
  }
  const value = stat === 'min' ? a.min : stat === 'max' ? a.max : stat === 'sum' ? a.sum : a.sum / a.count;
  const place = stat === 'min' ? a.minAt : stat === 'max' ? a.maxAt : undefined;
  const at = place ? pinpoint(deps, s.id, place, value) : undefined;
  const quiet = quietBefore(deps, q, to, false);
  let result = statSentence(thing, stat, say(value));
  if (at !== undefined) result += ` at ${sayClock(at, q.tz)}`;
  result += ` ${spoken}`;
  if (stat === 'mean' && a.max > a.min) result += `, between ${say(a.min)} and ${say(a.max)}`;
  result += `.${quiet.note}`;
  return {
    result,
    answer: {
      ...base,
      from,
      to,
      value: Math.round(value * 1000) / 1000,
      unit: s.unit ?? undefined,
      stat,
      ...(at !== undefined && { at }),
    },
    sure: quiet.last === null,
    evidence,
  };
}

/** The same local clock window `days` days earlier (DST-safe: by wall time, not by 24 hours). */
export function daysBefore(ts: number, days: number, tz: string): number {
  const w = wallTime(ts, tz);
  return localToUtc({ ...w, day: w.day - days }, tz);
}

const UP: Record<string, string> = {
  temperature: 'warmer',
  humidity: 'more humid',
  light: 'brighter',
  noise: 'louder',
};
const DOWN: Record<string, string> = { temperature: 'colder', humidity: 'drier', light: 'darker', noise: 'quieter' };

export function usualAnswer(deps: ReadingDeps, q: ReadingQuestion): AskOutput {
  const s = q.series;
  const thing = sayThing(s, true);
  let from: number;
  let spoken: string;
  // No window: "is it warmer than usual?" asks about now (the last hour); "was it …?" about today so far.
  // "right now" is a moment at now: the last hour too.
  const atNow = q.when?.at !== undefined && q.when.at >= q.now - 60;
  const present = atNow || (!q.when && !/\b(was|were|did|has|had)\b/i.test(q.question));
  if (q.when && q.when.from < q.when.to) [from, spoken] = [q.when.from, q.when.spoken];
  else if (present) [from, spoken] = [q.now - HOUR, 'for this time of day'];
  else [from, spoken] = [localToUtc({ ...wallTime(q.now, q.tz), hour: 0, minute: 0, second: 0 }, q.tz), 'today'];
  const to = q.when && q.when.from < q.when.to ? Math.min(q.when.to, q.now) : q.now;
  if (usesEnergy(q)) return usualEnergy(deps, q, from, to, spoken);
  deps.rollup([s.id]);
  const now = aggregate(deps, s.id, from, to);
  const base = { kind: 'usual' as const, ...answerBase(q), from, to, stat: 'mean' as const };
  let [sum, count, days, buckets] = [0, 0, 0, 0];
  for (let d = 1; d <= USUAL_DAYS; d++) {
    // Whole hours from the rollups; a window of a few hours (now: the last hour) reads its raw edges too.
    const a = aggregate(deps, s.id, daysBefore(from, d, q.tz), daysBefore(to, d, q.tz), to - from > 6 * HOUR);
    if (!a.count) continue;
    [sum, count, days, buckets] = [sum + a.sum, count + a.count, days + 1, buckets + a.buckets];
  }
  const evidence: Evidence[] = [
    evidenceOf(q, now.buckets ? 'rollup' : 'readings', from, to, now.buckets + now.readings),
    evidenceOf(q, 'rollup', daysBefore(from, USUAL_DAYS, q.tz), daysBefore(to, 1, q.tz), buckets),
  ];
  if (!now.count) {
    return { result: noneIn(deps, q, thing, spoken, to), answer: { ...base, kind: 'unknown' }, sure: true, evidence };
  }
  const mean = now.sum / now.count;
  if (days < USUAL_MIN_DAYS) {
    return {
      result: `${sentence(thing)} averaged ${sayValue(mean, s.concept, s.unit)} ${spoken}, but I don't have enough days before to know what is usual.`,
      answer: { ...base, unit: s.unit ?? undefined },
      sure: false,
      evidence,
    };
  }
  const usual = count ? sum / count : mean;
  const diff = mean - usual;
  const said = sayValue(Math.abs(diff), s.concept, s.unit);
  const same = Number.parseFloat(said) === 0;
  const [up, down] = [UP[s.concept ?? ''] ?? 'higher', DOWN[s.concept ?? ''] ?? 'lower'];
  const dir = q.shape.direction ?? 0;
  const yes = dir === 0 ? '' : same ? 'No, ' : diff > 0 === dir > 0 ? 'Yes, ' : 'No, ';
  const compared = same ? 'about as usual' : `${said} ${diff > 0 ? up : down} than usual`;
  const result =
    `${yes}${yes ? thing : sentence(thing)} ${present ? 'is' : 'was'} ${compared} ${spoken}: ${sayValue(mean, s.concept, s.unit)} ` +
    `against ${sayValue(usual, s.concept, s.unit)} over the ${days} days before.`;
  const quiet = quietBefore(deps, q, to, false);
  return {
    result: result + quiet.note,
    answer: {
      ...base,
      value: Math.round(diff * 1000) / 1000,
      unit: s.unit ?? undefined,
      usual: Math.round(usual * 1000) / 1000,
    },
    sure: quiet.last === null,
    evidence,
  };
}

/** A meter's reading is a running total, a power reading a rate: what is compared is the energy used. */
export const usesEnergy = (q: Pick<ReadingQuestion, 'series' | 'question'>) =>
  q.series.concept === 'energy' ||
  (/^k?w$/i.test(q.series.unit ?? '') && /\b(energy|electricity|kwh|use|used)\b/i.test(q.question));

/** "Did we use more electricity than usual yesterday?": kWh used in the window against the same hours before. */
function usualEnergy(deps: ReadingDeps, q: ReadingQuestion, from: number, to: number, spoken: string): AskOutput {
  const thing = sayThing(q.series); // "the kettle", "the electricity meter"
  const now = energy(deps, q, from, to);
  const before: number[] = [];
  for (let d = 1; d <= USUAL_DAYS; d++) {
    const [f, t] = [daysBefore(from, d, q.tz), daysBefore(to, d, q.tz)];
    if (deps.reads.atOrBefore(q.series.id, f)) before.push(energy(deps, q, f, t).kwh);
  }
  const base = { kind: 'usual' as const, ...answerBase(q), from, to, stat: 'sum' as const, unit: 'kWh' };
  const evidence: Evidence[] = [evidenceOf(q, 'readings', from, to, now.readings)];
  const used = sayValue(now.kwh, 'energy', 'kWh');
  if (before.length < USUAL_MIN_DAYS) {
    const result = `${sentence(thing)} used ${used} ${spoken}, but I don't have enough days before to know what is usual.`;
    return { result, answer: base, sure: false, evidence };
  }
  const usual = before.reduce((a, b) => a + b, 0) / before.length;
  const diff = now.kwh - usual;
  const said = sayValue(Math.abs(diff), 'energy', 'kWh');
  const same = Number.parseFloat(said) === 0;
  const dir = q.shape.direction ?? 0;
  const yes = dir === 0 ? '' : same ? 'No, ' : diff > 0 === dir > 0 ? 'Yes, ' : 'No, ';
  const compared = same ? 'about as much as usual' : `${said} ${diff > 0 ? 'more' : 'less'} than usual`;
  const result =
    `${yes}${yes ? thing : sentence(thing)} used ${used} ${spoken}, ${compared} ` +
    `(${sayValue(usual, 'energy', 'kWh')} on average over the ${before.length} days before).`;
  return {
    result,
    answer: { ...base, value: Math.round(diff * 1000) / 1000, usual: Math.round(usual * 1000) / 1000 },
    sure: true,
    evidence,
  };
}
