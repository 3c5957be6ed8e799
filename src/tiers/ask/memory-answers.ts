/**
 * Facts, places and reminders through the ask door (SPEC §5 "Ask", issue #34 item 5), with one spoken
 * policy for facts:
 *   - a confident recall result is stated as it is ("Anna's birthday is on the 3rd of May."), sure;
 *   - else, with `possible`, the best possible fact about the person or thing asked about is offered
 *     as "I'm not sure, but I remember that …", not sure — only when its p (the confidence model's,
 *     recall.ts) reaches OFFER_MIN, and never one marked `about_another` (the question names someone
 *     it is neither about nor mentions: no guess about someone else);
 *   - else "I don't know …" — kind `unknown`, never the question said back.
 * Whom the question is about is recall's reading (src/tiers/memory/who.ts): names, aliases
 * ("Grandma" → Jadwiga), roles ("my wife") and the speaker's "I"/"me"/"my".
 * Places: place-answers.ts; reminders: reminder-answers.ts.
 */
import type { Services } from '../../services.js';
import { RecallInput } from '../memory/memory.schemas.js';
import type { RecallHit } from '../memory/recall.js';
import type { AskAnswer, Evidence } from './ask.schemas.js';

export { answerPlace } from './place-answers.js';
export { answerReminder } from './reminder-answers.js';

export interface AskReply {
  result: string;
  answer: AskAnswer;
  sure: boolean;
  evidence: Evidence[];
}
export interface AskQuestion {
  question: string;
  speaker?: string;
  possible: boolean;
  now: number;
}
/** The slice of the services the memory answers read. */
export type MemoryAnswerDeps = Pick<Services, 'memory' | 'spatial' | 'prospective' | 'entities'>;

/**
 * The least p (recall's confidence model, 0–1) at which a possible fact is offered. Chosen with
 * use-lite on the two calibration households only (eval/household.json, household-b.json;
 * `node dist/scripts/eval-ask-facts.js --sweep`): of 0 … 0.4 it gives the most paraphrases offered
 * right, less those offered wrong and the never-stated questions offered anything (0.2: 22 − 5 − 10;
 * 0.25: 18 − 1 − 5; 0.3: 16 − 0 − 2; 0.4: 4 − 0 − 0). docs/ask.md has the figures.
 */
export const OFFER_MIN = 0.3;
/** Confident results listed as evidence beside the one stated. */
const EVIDENCE_MAX = 3;

/** A fact as a spoken sentence: trimmed, capitalised, ending in a full stop. */
export function sentence(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  const s = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/** "The stopcock is …" → "the stopcock is …" after "I remember that"; names stay capitalised. */
function afterThat(text: string): string {
  const s = sentence(text);
  return /^(The|A|An|There|It|Our|This|That|These|Those|Every|Each|Some|Most|All|No)\b/.test(s)
    ? s.charAt(0).toLowerCase() + s.slice(1)
    : s;
}

const evidenceOf = (h: RecallHit): Evidence => ({
  type: 'memory',
  id: h.id,
  entity: h.entity_name,
  text: h.fact,
  confidence: h.effective_confidence,
});

/** "I don't know that." — about whom, when the question names someone ("I don't know that about Jadwiga."). */
export function dontKnow(about: readonly string[] = []): AskReply {
  const who = about.length ? ` about ${about.join(' or ')}` : '';
  return {
    result: `I don't know that${who}.`,
    answer: { kind: 'unknown', ...(about.length === 1 && { entity: about[0] }) },
    sure: true,
    evidence: [],
  };
}

/** A fact question: a stated fact, a hedged possible one, or "I don't know". */
export async function answerFact(deps: Pick<Services, 'memory'>, q: AskQuestion): Promise<AskReply> {
  const out = await deps.memory.recall(
    RecallInput.parse({
      query: q.question,
      possible: q.possible,
      explain: true,
      ...(q.speaker !== undefined && { speaker: q.speaker }),
    }),
  );
  const top = out.results[0];
  if (top) {
    return {
      result: sentence(top.fact),
      answer: { kind: 'fact', entity: top.entity_name, value: top.fact },
      sure: true,
      evidence: out.results.slice(0, EVIDENCE_MAX).map(evidenceOf),
    };
  }
  const about = out.about ?? [];
  const offer = q.possible ? out.possible.find((h) => !h.about_another && (h.explain?.p ?? 0) >= OFFER_MIN) : undefined;
  if (!offer) return dontKnow(about);
  return {
    result: `I'm not sure, but I remember that ${afterThat(offer.fact)}`,
    answer: { kind: 'fact', entity: offer.entity_name, value: offer.fact },
    sure: false,
    evidence: [evidenceOf(offer)],
  };
}
