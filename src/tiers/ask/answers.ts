/**
 * The facts, places and reminders the ask service hands on (SPEC §5 Ask kinds fact, place, reminder):
 * the memory answers of `memory-answers.ts`, bound to the services they read, behind a small interface
 * so the ask service does not depend on the services' type.
 */
import type { AskOutput } from './ask.schemas.js';
import {
  type AskQuestion,
  type AskReply,
  answerFact,
  answerPlace,
  answerReminder,
  type MemoryAnswerDeps,
} from './memory-answers.js';

export type { AskQuestion };

export interface MemoryAnswers {
  /** A where-question ("where are my keys"), or null when it is not one. */
  place(q: AskQuestion): Promise<AskOutput | null>;
  /** A question about reminders, or null. */
  reminder(q: AskQuestion): Promise<AskOutput | null>;
  /** A fact, a hedged possible fact, or kind `unknown` ("I don't know that."). */
  fact(q: AskQuestion): Promise<AskOutput>;
}

/** A reply as the ask answer's (looser) type. */
const asOutput = (r: AskReply): AskOutput => ({
  result: r.result,
  answer: r.answer,
  sure: r.sure,
  evidence: r.evidence,
});

export function memoryAnswers(deps: MemoryAnswerDeps): MemoryAnswers {
  return {
    place: async (q) => {
      const r = await answerPlace(deps, q);
      return r && asOutput(r);
    },
    reminder: async (q) => {
      const r = await answerReminder(deps, q);
      return r && asOutput(r);
    },
    fact: async (q) => asOutput(await answerFact(deps, q)),
  };
}
