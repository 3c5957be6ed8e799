/**
 * Two-state answers (SPEC §5 Ask): was it open / is it on (`state`, with the runs that overlap the
 * window), when did it last or first open (`last`), for how long (`duration`), how many times
 * (`count`) — in the words the series' two sides are said in ("open"/"closed", "home"/"away").
 */
import { localToUtc, wallTime } from '../../lib/tz.js';
import type { AskOutput, Span } from './ask.schemas.js';
import {
  answerBase,
  evidenceOf,
  quietBefore,
  type ReadingDeps,
  type ReadingQuestion,
  stoppedBefore,
} from './readings-answer.js';
import { changesInto, firstRun, heldFor, lastRun, type Run, stateRuns } from './runs.js';
import { sayThing, sentence } from './say-value.js';
import { sayClock, sayDuration, sayMoment, saySpan } from './say-time.js';
import { asksActive, stateWords } from './two-state.js';
import { daysBefore, USUAL_DAYS, USUAL_MIN_DAYS } from './measure-answers.js';

/** How each side is said after "last" and with a count: "was last opened", "ran 3 times". */
const VERBS: Record<string, { last: string; times: string; not: string }> = {
  open: { last: 'was last opened', times: 'was opened', not: 'was not opened' },
  closed: { last: 'was last closed', times: 'was closed', not: 'was not closed' },
  running: { last: 'last ran', times: 'ran', not: 'did not run' },
  on: { last: 'was last switched on', times: 'was switched on', not: 'was not switched on' },
  off: { last: 'was last switched off', times: 'was switched off', not: 'was not switched off' },
  home: { last: 'last came home', times: 'came home', not: 'did not come home' },
  away: { last: 'last left', times: 'left', not: 'did not leave' },
  locked: { last: 'was last locked', times: 'was locked', not: 'was not locked' },
  unlocked: { last: 'was last unlocked', times: 'was unlocked', not: 'was not unlocked' },
  'detecting motion': { last: 'last sensed motion', times: 'sensed motion', not: 'sensed no motion' },
  quiet: { last: 'was last quiet', times: 'went quiet', not: 'was never quiet' },
};
const verbOf = (word: string) =>
  VERBS[word] ?? { last: `was last ${word}`, times: `was ${word}`, not: `was not ${word}` };

const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

/** The side a question asks about and its words: `[word, other word, wants the active side]`. */
function sides(q: ReadingQuestion): [string, string, boolean] {
  const [on, off] = stateWords(q.series);
  const want = asksActive(q.question);
  return want ? [on, off, true] : [off, on, false];
}

/** Local midnight of `now`'s day: the window of a question that names none ("how many times … ?" → today). */
function today(q: ReadingQuestion): { from: number; to: number; spoken: string } {
  const w = wallTime(q.now, q.tz);
  return { from: localToUtc({ ...w, hour: 0, minute: 0, second: 0 }, q.tz), to: q.now, spoken: 'today' };
}

/** `[from, to]` read for a window question: the phrase's window (to no later than now), else today. */
function windowOf(q: ReadingQuestion) {
  if (q.when) return { from: q.when.from, to: Math.min(q.when.to, q.now), spoken: q.when.spoken };
  return today(q);
}

const spansOf = (runs: Run[], want: boolean, word: string, other: string): Span[] =>
  runs.map((r) => ({ from: r.from, to: r.to, value: r.active === want, state: r.active === want ? word : other }));

export function stateAnswer(deps: ReadingDeps, q: ReadingQuestion): AskOutput {
  const [word, other, want] = sides(q);
  const thing = sayThing(q.series);
  const moment = !q.when || q.when.from === q.when.to;
  const from = q.when ? (q.when.at ?? q.when.from) : q.now;
  const to = q.when ? Math.min(q.when.to, q.now) : q.now;
  const w = stateRuns(deps.reads, q.series, moment ? from : from, moment ? from : to);
  const quiet = quietBefore(deps, q, to, true);
  const evidence = [evidenceOf(q, 'readings', from, to, w.readings)];
  const spoken = q.when?.spoken ?? 'now';
  if (!w.runs.length) {
    return {
      result: `I have no readings of ${thing} ${q.when ? spoken : 'yet'}.`,
      answer: { kind: 'unknown', ...answerBase(q) },
      sure: true,
      evidence,
    };
  }
  if (moment) {
    // The run a moment falls in began when its side was last entered, not at the reading before the moment.
    const began = lastRun(deps.reads, q.series, from, w.runs[0].active).run?.from;
    if (began !== undefined) w.runs[0].from = began;
  }
  const spans = spansOf(w.runs, want, word, other);
  const held = w.runs.filter((r) => r.active === want);
  const value = held.length > 0;
  const sure = !quiet.last && !w.truncated && (moment || w.knownAtStart);
  let result: string;
  if (!q.when) {
    const since = value && w.runs[0].from < from ? w.runs[0].from : undefined;
    result =
      since !== undefined
        ? `Yes, ${thing} has been ${word} for ${sayDuration(q.now - since)}, ${saySpan(since, q.now, q.now, q.tz)}.`
        : `${value ? 'Yes' : 'No'}, ${thing} is ${value ? word : other}.`;
  } else if (moment) {
    result = `${value ? 'Yes' : 'No'}, ${thing} was ${value ? word : other} ${spoken}.`;
  } else if (!value) {
    result = `No, ${thing} stayed ${other} ${spoken}.`;
  } else if (held.length === 1) {
    const r = held[0];
    result =
      r.from <= from && r.to >= to
        ? `Yes, ${thing} was ${word} all ${spoken}.`
        : r.to >= q.now
          ? `Yes, ${thing} is ${word} now, ${saySpan(r.from, r.to, q.now, q.tz, q.dayParts)}.`
          : `Yes, ${thing} was ${word} ${saySpan(r.from, r.to, q.now, q.tz, q.dayParts)}.`;
  } else {
    const r = held[held.length - 1];
    result =
      `Yes, ${thing} was ${word} ${times(held.length)} ${spoken}, for ${sayDuration(heldFor(w.runs, want))} in all; ` +
      `the last time ${saySpan(r.from, r.to, q.now, q.tz, q.dayParts)}.`;
  }
  return { result: result + quiet.note, answer: { kind: 'state', ...answerBase(q), value, spans }, sure, evidence };
}

export function lastAnswer(deps: ReadingDeps, q: ReadingQuestion): AskOutput {
  const [word, , want] = sides(q);
  const thing = sayThing(q.series);
  const verb = verbOf(word);
  if (q.shape.first) {
    const w = windowOf(q);
    const f = firstRun(deps.reads, q.series, w.from, w.to, want);
    const evidence = [evidenceOf(q, 'readings', w.from, w.to, f.readings)];
    if (f.at === null) {
      const none = `${sentence(thing)} ${verb.not} ${w.spoken}.`;
      return { result: none, answer: { kind: 'last', ...answerBase(q) }, sure: true, evidence };
    }
    const first = verb.last.replace('last', 'first');
    return {
      result: `${sentence(thing)} ${first} ${w.spoken} at ${sayClock(f.at, q.tz)}.`,
      answer: { kind: 'last', ...answerBase(q), at: f.at },
      sure: stoppedBefore(deps, q, w.to, true) === null,
      evidence,
    };
  }
  const before = q.when ? Math.min(q.when.to, q.now) : q.now;
  const found = lastRun(deps.reads, q.series, before, want);
  const evidence = [evidenceOf(q, 'readings', found.run?.from ?? before, before, found.readings)];
  const base = { kind: 'last' as const, ...answerBase(q) };
  if (!found.run || found.run.from === undefined) {
    const where = found.exhausted ? 'in the readings I looked through' : 'in the readings I have';
    return { result: `${sentence(thing)} ${verb.not} ${where}.`, answer: base, sure: false, evidence };
  }
  const run = found.run as { from: number; to?: number };
  const at = run.from;
  const outside = q.when && at < q.when.from;
  let result = `${sentence(thing)} ${verb.last} ${sayMoment(at, q.now, q.tz)}`;
  if (run.to === undefined && before >= q.now - 60) result += `, and is still ${word}`;
  else if (run.to !== undefined) result += `, for ${sayDuration(run.to - at)}`;
  if (outside) result = `Not ${q.when!.spoken}: ${result.charAt(0).toLowerCase()}${result.slice(1)}`;
  return {
    result: `${result}.`,
    answer: { ...base, at, ...(run.to !== undefined && { seconds: run.to - at }) },
    sure: stoppedBefore(deps, q, before, true) === null,
    evidence,
  };
}

export function durationAnswer(deps: ReadingDeps, q: ReadingQuestion): AskOutput {
  const [word, , want] = sides(q);
  const thing = sayThing(q.series);
  if (!q.when) {
    // "How long has the door been open?": the run going on now, else today's total.
    const now = stateRuns(deps.reads, q.series, q.now, q.now);
    if (now.runs[0]?.active === want) {
      const found = lastRun(deps.reads, q.series, q.now, want);
      if (found.run?.from !== undefined) {
        const seconds = q.now - found.run.from;
        return {
          result: `${sentence(thing)} has been ${word} for ${sayDuration(seconds)}, since ${sayClock(found.run.from, q.tz)}.`,
          answer: { kind: 'duration', ...answerBase(q), seconds, from: found.run.from, to: q.now },
          sure: stoppedBefore(deps, q, q.now, true) === null,
          evidence: [evidenceOf(q, 'readings', found.run.from, q.now, found.readings)],
        };
      }
    }
  }
  const w = windowOf(q);
  const r = stateRuns(deps.reads, q.series, w.from, w.to);
  const seconds = heldFor(r.runs, want);
  const quiet = quietBefore(deps, q, w.to, true);
  const result = seconds
    ? `${sentence(thing)} was ${word} for ${sayDuration(seconds)} ${w.spoken}.`
    : `${sentence(thing)} was not ${word} ${w.spoken}.`;
  return {
    result: result + quiet.note,
    answer: { kind: 'duration', ...answerBase(q), from: w.from, to: w.to, seconds },
    sure: quiet.last === null && !r.truncated && r.knownAtStart,
    evidence: [evidenceOf(q, 'readings', w.from, w.to, r.readings)],
  };
}

export function countAnswer(deps: ReadingDeps, q: ReadingQuestion): AskOutput {
  const [word, , want] = sides(q);
  const thing = sayThing(q.series);
  const verb = verbOf(word);
  const w = windowOf(q);
  const r = stateRuns(deps.reads, q.series, w.from, w.to);
  const count = changesInto(r.runs, want, w.from, r.knownAtStart);
  const quiet = quietBefore(deps, q, w.to, true);
  const result = count
    ? `${sentence(thing)} ${verb.times} ${times(count)} ${w.spoken}.`
    : `${sentence(thing)} ${verb.not} ${w.spoken}.`;
  return {
    result: result + quiet.note,
    answer: { kind: 'count', ...answerBase(q), from: w.from, to: w.to, count },
    sure: quiet.last === null && !r.truncated,
    evidence: [evidenceOf(q, 'readings', w.from, w.to, r.readings)],
  };
}

/** "Was the garage door open longer than usual last night?": the time held against the same hours of the days before. */
export function usualStateAnswer(deps: ReadingDeps, q: ReadingQuestion): AskOutput {
  const [word, , want] = sides(q);
  const thing = sayThing(q.series);
  const w = windowOf(q);
  const now = stateRuns(deps.reads, q.series, w.from, w.to);
  const seconds = heldFor(now.runs, want);
  let [sum, days, readings] = [0, 0, now.readings];
  for (let d = 1; d <= USUAL_DAYS; d++) {
    const r = stateRuns(deps.reads, q.series, daysBefore(w.from, d, q.tz), daysBefore(w.to, d, q.tz));
    readings += r.readings;
    if (!r.knownAtStart) continue;
    [sum, days] = [sum + heldFor(r.runs, want), days + 1];
  }
  const evidence = [evidenceOf(q, 'readings', daysBefore(w.from, USUAL_DAYS, q.tz), w.to, readings)];
  const base = { kind: 'usual' as const, ...answerBase(q), from: w.from, to: w.to, seconds };
  const held = seconds ? `${word} for ${sayDuration(seconds)}` : `not ${word}`;
  if (days < USUAL_MIN_DAYS) {
    return {
      result: `${sentence(thing)} was ${held} ${w.spoken}, but I don't have enough days before to know what is usual.`,
      answer: base,
      sure: false,
      evidence,
    };
  }
  const usual = sum / days;
  const diff = seconds - usual;
  const same = Math.abs(diff) < 60;
  const dir = q.shape.direction ?? 0;
  const yes = dir === 0 ? '' : same ? 'No, ' : diff > 0 === dir > 0 ? 'Yes, ' : 'No, ';
  const compared = same
    ? 'about as long as usual'
    : `${sayDuration(Math.abs(diff))} ${diff > 0 ? 'longer' : 'less'} than usual`;
  const quiet = quietBefore(deps, q, w.to, true);
  const result =
    `${yes}${yes ? thing : sentence(thing)} was ${held} ${w.spoken}, ${compared} ` +
    `(${usual < 60 ? `usually not ${word} at all` : `${sayDuration(usual)} on average`} over the ${days} days before).`;
  return {
    result: result + quiet.note,
    answer: { ...base, value: Math.round(diff), unit: 's', usual: Math.round(usual) },
    sure: quiet.last === null && now.knownAtStart,
    evidence,
  };
}
