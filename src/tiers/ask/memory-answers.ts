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
import type { EntitiesReader } from '../entities/entities.reader.js';
import type { MemoryService } from '../memory/memory.service.js';
import type { RelationsService } from '../memory/relations.service.js';
import type { ProspectiveService } from '../prospective/prospective.service.js';
import type { SpatialService } from '../spatial/spatial.service.js';
import { RecallInput } from '../memory/memory.schemas.js';
import type { RecallHit } from '../memory/recall.js';
import type { AskAnswer, Evidence } from './ask.schemas.js';
import { answerWho } from './who-answers.js';
import { otherThing } from './things.js';

export { answerPlace } from './place-answers.js';
export { answerWho } from './who-answers.js';
export { answerReminder } from './reminder-answers.js';

/** A type, not an interface: it is assignable to AskOutput (a loose object). */
export type AskReply = {
  result: string;
  answer: AskAnswer;
  sure: boolean;
  evidence: Evidence[];
};
export interface AskQuestion {
  question: string;
  speaker?: string;
  possible: boolean;
  now: number;
}
/** The tiers the memory answers read (the memory service as services.ts hands it out: without its repository). */
export type MemoryAnswerDeps = {
  memory: Omit<MemoryService, 'repo'>;
  spatial: SpatialService;
  prospective: ProspectiveService;
  entities: EntitiesReader;
  relations: RelationsService;
};

/**
 * A possible fact is offered when its p (recall's confidence model, 0–1) reaches OFFER_MIN and leads
 * every other possible (not about another) by OFFER_LEAD: it stands out. Chosen with use-lite on the
 * two calibration households only (eval/household.json, household-b.json;
 * `node dist/scripts/eval-ask-facts.js --sweep`), by paraphrases offered right less those offered
 * wrong and never-stated questions offered anything: p ≥ 0.3 alone 16 − 0 − 2, with the lead 16 − 0 − 0;
 * p ≥ 0.2 with the lead 21 − 3 − 6; p ≥ 0.15 alone 28 − 9 − 20. docs/ask.md has the figures.
 */
export const OFFER_MIN = 0.3;
export const OFFER_LEAD = 0.1;
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

/** The possible to offer: about whom was asked, p ≥ OFFER_MIN, leading the others by OFFER_LEAD. */
export function standsOut<H extends { about_another?: true; explain?: { p: number } }>(possible: H[]): H | undefined {
  const mine = possible.filter((h) => !h.about_another);
  const pOf = (h: H) => h.explain?.p ?? 0;
  const best = mine.reduce<H | undefined>((a, h) => (a && pOf(a) >= pOf(h) ? a : h), undefined);
  if (!best || pOf(best) < OFFER_MIN) return undefined;
  const next = Math.max(0, ...mine.filter((h) => h !== best).map(pOf));
  return pOf(best) - next >= OFFER_LEAD ? best : undefined;
}

/** A fact question: a stated fact, a hedged possible one, or "I don't know". */
export async function answerFact(
  deps: Pick<MemoryAnswerDeps, 'memory'> & Partial<Pick<MemoryAnswerDeps, 'entities' | 'relations'>>,
  q: AskQuestion,
): Promise<AskReply> {
  const who =
    deps.entities && deps.relations ? answerWho({ entities: deps.entities, relations: deps.relations }, q) : null;
  if (who) return who;
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
  // Said as the household writes them ("Anna", not the key "anna" a speaker was resolved by).
  const about = (out.about ?? []).map((n) => deps.entities?.find(n)?.name ?? n);
  // Never offered for another thing than the one asked about: the boiler's service is not the car's.
  const offer = q.possible ? standsOut(out.possible.filter((h) => !otherThing(q.question, h.fact))) : undefined;
  if (!offer) return dontKnow(about);
  return {
    result: `I'm not sure, but I remember that ${afterThat(offer.fact)}`,
    answer: { kind: 'fact', entity: offer.entity_name, value: offer.fact },
    sure: false,
    evidence: [evidenceOf(offer)],
  };
}
