/**
 * The shape of a question about readings (SPEC §5 Ask kinds): state (was it open / is it on), measure
 * (how warm, with the statistic its words ask for), last/first time, duration, count of changes, or
 * compared with the usual level. `readingShape` says whether the words ask about readings at all, so
 * a question like "when is Anna's birthday?" goes to the facts.
 */
import { askedConcept } from './concepts.js';
import { STATE_WORDS } from './two-state.js';

export type ReadingKind = 'state' | 'measure' | 'last' | 'duration' | 'count' | 'usual';
export type Stat = 'mean' | 'min' | 'max' | 'sum';

export interface Shape {
  kind: ReadingKind;
  stat?: Stat;
  /** "when did … first": the first time in the window rather than the last. */
  first?: boolean;
  /** "warmer"/"higher" (1), "colder"/"lower" (-1), or neither (0): what a `usual` question expects. */
  direction?: 1 | -1 | 0;
}

const USUAL =
  /\b(than|as) (usual|normal|normally|typical|average|always)\b|\b(usual|unusual(ly)?|normal for)\b|\bthan (it|they|he|she|we) (normally|usually|typically|generally) (is|are|was|were|do|does|did)\b|\b(normal|typical)\s*[?.!]*\s*$/;
const DURATION = /\bhow long\b|\bfor how many (minutes|hours)\b/;
const COUNT = /\bhow (many times|often)\b|\bhow many\b.*\b(open(ed|ings)?|run|ran|runs|switch(ed|es)?|times)\b/;
const LAST =
  /\b(when|what time)\b.*\b(last|first|recently)\b|\blast time\b|\bwhen (did|was|were|has|had)\b|\bwhat time did\b/;
const MIN = /\b(coldest|coolest|lowest|minimum|min|least|driest|darkest|quietest)\b|\bhow (cold|cool|low) did\b/;
const MAX =
  /\b(warmest|hottest|highest|maximum|max|peak|most|dampest|brightest|loudest)\b|\bhow (warm|hot|high|humid) did\b/;
const SUM = /\b(total|in all|altogether|consum(e|ed|ption))\b|\bhow much (energy|electricity)\b/;
const MEASURE = /\bhow (warm|cold|hot|chilly|cool|humid|damp|dry|bright|dark|loud|noisy|much|high|low)\b|\baverage\b/;
/** Money is never a reading: a fact answers, or nothing. */
const MONEY = /\b(cost|costs|price|priced|paid|pay|buy|bought|worth|spend|spent)\b/;
const UP = /\b(warmer|hotter|higher|more|above|damper|brighter|louder|longer|busier)\b/;
const DOWN = /\b(colder|cooler|lower|less|below|drier|darker|quieter|shorter)\b/;

/** Does the question ask about readings (a state, a measure, a time, a count)? */
export function readingShape(question: string): boolean {
  const q = question.toLowerCase();
  if (MONEY.test(q)) return false; // "how much did the washing machine cost?" is not about its power
  return (
    STATE_WORDS.test(q) ||
    askedConcept(q) !== null ||
    MEASURE.test(q) ||
    DURATION.test(q) ||
    COUNT.test(q) ||
    USUAL.test(q) ||
    MIN.test(q) ||
    MAX.test(q)
  );
}

/** The kind a question asks for, given whether its subject is read as two states. */
export function readShape(question: string, twoState: boolean): Shape {
  const q = question.toLowerCase();
  const direction = UP.test(q) ? 1 : DOWN.test(q) ? -1 : 0;
  if (USUAL.test(q)) return twoState ? { kind: 'usual', direction } : { kind: 'usual', stat: 'mean', direction };
  if (DURATION.test(q)) return { kind: 'duration' };
  if (COUNT.test(q)) return { kind: 'count' };
  if (LAST.test(q) && (twoState || /\b(last|first)\b/.test(q))) return { kind: 'last', first: /\bfirst\b/.test(q) };
  const stat: Stat = MIN.test(q) ? 'min' : MAX.test(q) ? 'max' : SUM.test(q) ? 'sum' : 'mean';
  if (twoState && !(askedConcept(q) && !STATE_WORDS.test(q)) && stat === 'mean') return { kind: 'state' };
  return { kind: 'measure', stat };
}
