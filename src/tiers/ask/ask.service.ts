/**
 * Ask (SPEC §5 "Ask", issue #34): one question in everyday words → `{result, answer, sure, evidence}`.
 * Routing, in order:
 *   1. "where's / where is / where are / have you seen …" → the places (find);
 *   2. a question about reminders → the intentions;
 *   3. words that ask about readings (a state, a measure, a time, a count, "than usual") and a subject
 *      among the series (subject.ts) → a reading answer (readings-answer.ts);
 *   4. otherwise the facts (recall) — which also answer a reading question whose subject matched only
 *      loosely, before the loose reading answer is given; a reading question about something the home
 *      has no readings from says so ("I have no readings from the shed door.").
 * `now` is the input's (epoch seconds or ISO) or the clock's; time phrases are read in the home's zone.
 */
import type { Embedder } from '../../ai/types.js';
import type { WordNet } from '../../ai/wordnet.js';
import type { Clock } from '../../lib/clock.js';
import { toEpoch } from '../../lib/schema.js';
import type { EntityRow } from '../entities/entities.repo.js';
import type { WindowReads } from '../timeseries/window.reader.js';
import type { AskQuestion, MemoryAnswers } from './answers.js';
import type { AskInput, AskOutput, SensorsInput, SensorsOutput } from './ask.schemas.js';
import { askedConcept } from './concepts.js';
import { answerReadings } from './readings-answer.js';
import { listSensors } from './sensors.js';
import { readingShape, readShape } from './shape.js';
import { createSubjects, isSubject } from './subject.js';
import { STATE_WORDS, unsayableSide } from './two-state.js';
import { sayThing } from './say-value.js';
import { type DayParts, readWhen } from './when.js';

export interface AskDeps {
  clock: Clock;
  /** The home's zone (config `timeseries.timezone`, HEARTH_TZ). */
  tz: string;
  dayParts?: DayParts;
  timeseries: { reads: WindowReads; rollup(seriesIds: number[]): unknown };
  entities: { find(name: string): EntityRow | undefined };
  wordnet: WordNet;
  embedder: Embedder;
  answers: MemoryAnswers;
  /** A rename, merge, alias change or delete (`entities_changed`): the subject index is rebuilt. */
  events?: { on(name: 'entities_changed', fn: () => void): unknown };
}

export interface AskService {
  ask(input: AskInput): Promise<AskOutput>;
  sensors(input: SensorsInput): SensorsOutput;
}

const WHERE =
  /^\s*(where('s| is| are| was| were| did| do|s)?|have you seen|has anyone seen|did (you|anyone) see|(do you know|any idea|can you tell me) where|(i )?(can'?t|cannot|couldn'?t) find|i('ve| have)? (lost|misplaced))\b/i;

/** "the shed door" from the words that named it; a name written with a capital stays as it is. */
const the = (named: string) => (/^[A-Z]/.test(named) ? named : `the ${named}`);

export function createAskService(deps: AskDeps): AskService {
  const { clock, tz, timeseries, answers } = deps;
  const reads = timeseries.reads;
  const subjects = createSubjects({ reads, wordnet: deps.wordnet, embedder: deps.embedder });
  deps.events?.on('entities_changed', () => subjects.stale());
  const readingDeps = { reads, rollup: (ids: number[]) => void timeseries.rollup(ids) };

  async function ask(input: AskInput): Promise<AskOutput> {
    const now = toEpoch(input.now) ?? clock.now();
    const question = input.question.trim();
    const q: AskQuestion = { question, speaker: input.speaker, possible: input.possible, now };
    if (WHERE.test(question)) {
      const place = await answers.place(q);
      if (place) return place;
    }
    const reminder = await answers.reminder(q);
    if (reminder) return reminder;

    const when = readWhen(question, now, { tz, dayParts: deps.dayParts });
    const rest = when?.rest ?? question;
    if (when && when.from > now && readingShape(rest)) {
      const result = `I can't tell ${when.spoken} yet: it hasn't happened.`;
      return { result, answer: { kind: 'unknown', from: when.from, to: when.to }, sure: true, evidence: [] };
    }
    if (!readingShape(rest)) return answers.fact(q);
    const found = await subjects.find(rest);
    const strong = STATE_WORDS.test(rest.toLowerCase()) || askedConcept(rest) !== null;
    if (!isSubject(found)) {
      const fact = await answers.fact(q);
      if (fact.answer.kind !== 'unknown' || !strong || !found.named) return fact;
      return {
        result: `I have no readings from ${the(found.named)}.`,
        answer: { kind: 'unknown' },
        sure: true,
        evidence: [],
      };
    }
    const loose = !found.sure || (found.how !== 'name' && found.how !== 'concept');
    if (found.how !== 'name' && found.how !== 'concept') {
      // Matched only loosely: a fact that answers comes first.
      const fact = await answers.fact(q);
      if (fact.answer.kind !== 'unknown') return fact;
    }
    const { series, other, twoState } = found;
    const unsayable = unsayableSide(rest, series);
    if (unsayable) {
      // A door's contact says open or closed, never locked; a lock never whether its door stood open.
      const thing = sayThing(series);
      const result =
        unsayable === 'locked'
          ? `I have no readings that say whether ${thing} is locked.`
          : `I have no readings that say whether ${thing} was open, only whether it was locked.`;
      return { result, answer: { kind: 'unknown', entity: series.entity_name }, sure: true, evidence: [] };
    }
    const shape = readShape(rest, twoState);
    const dayParts = deps.dayParts;
    return answerReadings(
      readingDeps,
      { question: rest, series, shape, when, now, tz, dayParts, loose, other },
      twoState,
    );
  }

  return {
    ask,
    sensors: (input) => listSensors({ reads, entities: deps.entities }, input),
  };
}
