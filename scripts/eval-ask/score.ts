/**
 * Scoring of the ask eval: what each question expects (eval/ask-tune.json, eval/ask-heldout.json),
 * its truth computed from the generated readings (home.ts) — never from Hearth — and whether an
 * answer is correct, a correct "I don't know", or wrong while sure.
 */
import { local, NOW, type Reading } from './home.js';

type Truth = {
  entity: string;
  metric: string;
  stat: 'mean' | 'min' | 'max' | 'latest' | 'at' | 'delta';
  from?: string;
  to?: string;
  at?: string;
};

export type Expect =
  | { kind: 'state'; value: boolean }
  | { kind: 'measure'; truth: Truth; tol: number }
  | { kind: 'last'; at: string[] }
  | { kind: 'duration'; seconds: number; tol: number }
  | { kind: 'count'; count: number }
  | { kind: 'usual'; sign?: number; min_abs?: number; max_abs?: number }
  | { kind: 'fact' | 'place' | 'reminder'; contains: string[]; kinds?: string[] }
  | { kind: 'unknown' };

export interface Question {
  q: string;
  speaker?: string;
  expect: Expect;
  /** Other answers that are as right (e.g. "did it open this morning?" answered with a count of 1). */
  also?: Expect[];
}

export interface Answer {
  result: string;
  sure: boolean;
  answer: { kind: string; value?: unknown; at?: number; seconds?: number; count?: number };
}

/** The true value of a measure question, from the readings the home was given. */
export function truthOf(t: Truth, readings: Reading[]): number {
  const series = readings.filter(
    (r) => r.entity_name === t.entity && r.metric === t.metric && typeof r.value === 'number',
  );
  const before = (ts: number) => {
    const r = series.filter((x) => x.ts <= ts).at(-1);
    if (!r) throw new Error(`no ${t.entity}/${t.metric} reading before ${ts}`);
    return r.value as number;
  };
  if (t.stat === 'latest') return before(NOW);
  if (t.stat === 'at') return before(local(t.at ?? ''));
  const [from, to] = [local(t.from ?? ''), Math.min(local(t.to ?? ''), NOW)];
  if (t.stat === 'delta') return before(to) - before(from);
  const values = series.filter((r) => r.ts >= from && r.ts < to).map((r) => r.value as number);
  if (!values.length) throw new Error(`no ${t.entity}/${t.metric} readings in ${t.from}–${t.to}`);
  if (t.stat === 'min') return Math.min(...values);
  if (t.stat === 'max') return Math.max(...values);
  return values.reduce((a, b) => a + b, 0) / values.length;
}

const FIVE_MINUTES = 300;

function matches(e: Expect, a: Answer, readings: Reading[]): boolean {
  const got = a.answer;
  if (e.kind === 'unknown') return got.kind === 'unknown';
  const kinds = 'kinds' in e && e.kinds ? e.kinds : [e.kind];
  if (!kinds.includes(got.kind)) return false;
  switch (e.kind) {
    case 'state':
      return got.value === e.value;
    case 'measure':
      return typeof got.value === 'number' && Math.abs(got.value - truthOf(e.truth, readings)) <= e.tol;
    case 'last':
      return typeof got.at === 'number' && e.at.some((t) => Math.abs((got.at as number) - local(t)) <= FIVE_MINUTES);
    case 'duration':
      return typeof got.seconds === 'number' && Math.abs(got.seconds - e.seconds) <= e.tol;
    case 'count':
      return got.count === e.count;
    case 'usual': {
      if (typeof got.value !== 'number') return false;
      if (e.sign !== undefined && Math.sign(got.value) !== e.sign) return false;
      if (e.min_abs !== undefined && Math.abs(got.value) < e.min_abs) return false;
      return e.max_abs === undefined || Math.abs(got.value) <= e.max_abs;
    }
    default: {
      const text = `${typeof got.value === 'string' ? got.value : ''} ${a.result}`.toLowerCase();
      return e.contains.some((c) => text.includes(c.toLowerCase()));
    }
  }
}

export type Verdict = 'correct' | 'idk' | 'wrong_sure' | 'wrong_unsure' | 'missed_idk';

/**
 * correct: the right answer; idk: a correct "I don't know" (the home cannot answer); wrong_sure: a
 * wrong answer given as sure; wrong_unsure: wrong but hedged or "I don't know" to an answerable question;
 * missed_idk: an unanswerable question answered with something other than "I don't know".
 */
export function verdict(q: Question, a: Answer, readings: Reading[]): Verdict {
  const right = [q.expect, ...(q.also ?? [])].some((e) => matches(e, a, readings));
  if (q.expect.kind === 'unknown') return right ? 'idk' : a.sure ? 'wrong_sure' : 'missed_idk';
  if (right) return 'correct';
  return a.sure && a.answer.kind !== 'unknown' ? 'wrong_sure' : 'wrong_unsure';
}

/** The expected answer in a few words, for the verbose listing. */
export function describe(e: Expect, readings: Reading[]): string {
  switch (e.kind) {
    case 'measure':
      return `measure ${truthOf(e.truth, readings).toFixed(2)} ±${e.tol}`;
    case 'state':
      return `state ${e.value}`;
    case 'last':
      return `last ${e.at.join(' or ')}`;
    case 'duration':
      return `duration ${e.seconds} s ±${e.tol}`;
    case 'count':
      return `count ${e.count}`;
    case 'usual':
      return `usual ${JSON.stringify({ ...e, kind: undefined })}`;
    case 'unknown':
      return 'unknown';
    default:
      return `${e.kind} ~ ${e.contains.join(' | ')}`;
  }
}
