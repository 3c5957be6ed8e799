/**
 * Answers about readings (SPEC §5 Ask kinds state, measure, last, duration, count, usual): the
 * dispatcher and what every reading answer shares — the question as read, when readings stop too
 * early to be sure, and how a loose subject is named ("I took that to mean the front door.").
 * Two-state answers are in state-answers.ts, numbers in measure-answers.ts.
 */
import type { WindowReads } from '../timeseries/window.reader.js';
import type { AskOutput, Evidence } from './ask.schemas.js';
import { measureAnswer, usesEnergy, usualAnswer } from './measure-answers.js';
import { sayThing } from './say-value.js';
import { sayMoment } from './say-time.js';
import type { Shape } from './shape.js';
import { countAnswer, durationAnswer, lastAnswer, stateAnswer, usualStateAnswer } from './state-answers.js';
import type { SubjectSeries } from './subject.js';
import type { AskWhen, DayParts } from './when.js';

export interface ReadingDeps {
  reads: WindowReads;
  /** Brings the series' rollups up to date before they are read (timeseries.rollup). */
  rollup: (seriesIds: number[]) => void;
}

export interface ReadingQuestion {
  question: string;
  series: SubjectSeries;
  shape: Shape;
  when: AskWhen | null;
  now: number;
  tz: string;
  /** What "last night" covers ([ask] config), for spoken spans. */
  dayParts?: DayParts;
  /** The subject matched loosely, or another fitted as well: the answer names its choice and is not sure. */
  loose: boolean;
  /** The runner-up subject, when two fitted. */
  other?: SubjectSeries;
}

/** Readings older than this before the end of a window mean the sensor went quiet (numbers; two states report less). */
const QUIET_NUMERIC_S = 2 * 3600;
const QUIET_TWO_STATE_S = 26 * 3600;

/** When the series' readings stop before `to` by more than a sensor's usual silence: its last reading's time. */
export function stoppedBefore(deps: ReadingDeps, q: ReadingQuestion, to: number, twoState: boolean): number | null {
  const last = deps.reads.last(q.series.id);
  if (!last) return null;
  return last.ts < to - (twoState ? QUIET_TWO_STATE_S : QUIET_NUMERIC_S) ? last.ts : null;
}

/**
 * When the series' readings stop before `to` (stoppedBefore): the last one's time, and the note an
 * answer ends with, " My last reading from the kettle was yesterday at 9 pm, 14 hours ago."; else
 * null and ''.
 */
export function quietBefore(
  deps: ReadingDeps,
  q: ReadingQuestion,
  to: number,
  twoState: boolean,
): { last: number | null; note: string } {
  const last = stoppedBefore(deps, q, to, twoState);
  return {
    last,
    note: last === null ? '' : ` My last reading from ${sayThing(q.series)} was ${sayMoment(last, q.now, q.tz)}.`,
  };
}

export function evidenceOf(
  q: ReadingQuestion,
  type: 'readings' | 'rollup',
  from: number,
  to: number,
  count: number,
): Evidence {
  return { type, entity: q.series.entity_name, metric: q.series.metric, from, to, count };
}

/** What answers name about their subject and window, for `answer`. */
export const answerBase = (q: ReadingQuestion) => ({
  entity: q.series.entity_name,
  metric: q.series.metric,
  ...(q.when && { from: q.when.from, to: q.when.to }),
  ...(q.when?.at !== undefined && { at: q.when.at }),
});

/** Prefix naming the choice when the subject was loose: "I took that to mean the garage door." */
function choiceNote(q: ReadingQuestion): string {
  if (!q.loose) return '';
  const other = q.other ? ` (not ${sayThing(q.other, true)})` : '';
  return `I'm not sure which you mean; I took it to be ${sayThing(q.series, true)}${other}. `;
}

/** Answers a reading question of the shape `q.shape`; `twoState` says how the series reads. */
export function answerReadings(deps: ReadingDeps, q: ReadingQuestion, twoState: boolean): AskOutput {
  const reply =
    q.shape.kind === 'usual'
      ? twoState && !usesEnergy(q)
        ? usualStateAnswer(deps, q)
        : usualAnswer(deps, q)
      : !twoState || q.shape.kind === 'measure'
        ? measureAnswer(deps, q)
        : q.shape.kind === 'last'
          ? lastAnswer(deps, q)
          : q.shape.kind === 'duration'
            ? durationAnswer(deps, q)
            : q.shape.kind === 'count'
              ? countAnswer(deps, q)
              : stateAnswer(deps, q);
  if (!q.loose) return reply;
  return { ...reply, result: choiceNote(q) + reply.result, sure: false };
}
