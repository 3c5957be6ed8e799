/**
 * The facts, places and reminders the ask service hands on (SPEC §5 Ask kinds fact, place, reminder):
 * the memory answers of `memory-answers.ts`, bound to the services they read. Until that file is
 * merged, a plain "I don't know" stands in (no guessing).
 */
import type { AskOutput } from './ask.schemas.js';

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

export function memoryAnswers(_deps: unknown): MemoryAnswers {
  return {
    place: async () => null,
    reminder: async () => null,
    fact: async () => ({ result: "I don't know that.", answer: { kind: 'unknown' }, sure: true, evidence: [] }),
  };
}
