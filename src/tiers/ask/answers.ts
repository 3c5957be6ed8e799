/**
 * The facts, places and reminders the ask service hands on (SPEC §5 Ask kinds fact, place, reminder):
 * the memory answers of `memory-answers.ts`, bound to the services they read.
 */
import type { AskOutput } from './ask.schemas.js';
import { answerFact, answerPlace, answerReminder, type MemoryAnswerDeps } from './memory-answers.js';

export interface AskQuestion {
  question: string;
  speaker?: string;
  possible: boolean;
  now: number;
}

export interface MemoryAnswers {
  /** A where-question ("where are my keys"), or null when it is not one. */
  place(q: AskQuestion): Promise<AskOutput | null>;
  /** A question about reminders, or null. */
  reminder(q: AskQuestion): Promise<AskOutput | null>;
  /** A fact, a hedged possible fact, or kind `unknown`. */
  fact(q: AskQuestion): Promise<AskOutput>;
}

export function memoryAnswers(deps: MemoryAnswerDeps): MemoryAnswers {
  return {
    place: (q) => answerPlace(deps, q),
    reminder: (q) => answerReminder(deps, q),
    fact: (q) => answerFact(deps, q),
  };
}
