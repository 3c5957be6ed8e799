/**
 * Where-questions through the ask door (issue #34 item 5): "where's / where is / where are / have you
 * seen / do you know where … is", answered from the spatial tier's `findAsked` (spelling, WordNet,
 * then the encoder over located object names: "the clicker for the telly" → the TV remote).
 *   found          "The car keys are in the hall drawer, last seen 2 hours ago." — sure unless the
 *                  place has faded (confidence < FADED) or the object was matched only by the encoder;
 *   several fit    "Do you mean the car keys or the house keys?" — not sure;
 *   none located   a fact that says where ("where's the stopcock" → "The stopcock … is under the
 *                  kitchen sink"; memory-answers.ts policy), else "I don't know where the dog lead
 *                  is." — the object's words only (object-match.ts `objectPhrase`), never the question.
 */
import { ageText } from '../memory/decay.js';
import { objectPhrase } from '../spatial/object-match.js';
import type { FindResult } from '../spatial/spatial.schemas.js';
import { type AskQuestion, type AskReply, answerFact, type MemoryAnswerDeps } from './memory-answers.js';

type Deps = Pick<MemoryAnswerDeps, 'memory' | 'spatial'>;

/** Below this decayed confidence a place is said as where it was, not where it is. */
export const FADED = 0.3;

/** Asks where something is, in any of the ways people do. */
const WHERE =
  /\b(where(?:'s|s)?|have you seen|has (?:anyone|anybody|someone) seen|did (?:you|anyone) see|can'?t find|cannot find|lost my|misplaced)\b/i;
/** …about an object (not "where does grandma live"): its not-found answer is "I don't know where X is". */
const OBJECT_SHAPE =
  /\b((?:know|idea|tell me|wonder|remember) where|where(?:'s|s|'re| is| are| was| were)|where (?:did|do|have|has|had) \w+ (?:leave|left|put|see|seen|last see|last seen|keep|hide|hidden)|have you seen|has (?:anyone|anybody|someone) seen|did (?:you|anyone) see|can'?t find|cannot find|lost my|misplaced)\b/i;

const SURFACE =
  /\b(counter|table|desk|shelf|shelves|sofa|couch|bed|hook|hooks|worktop|windowsill|sill|floor|chair|dresser|nightstand|bedside|mantelpiece|mantel|side|top|rack|bench|stairs|landing|doormat)$/i;
const HAS_PREPOSITION = /^(in|on|under|behind|by|at|inside|beside|next to|near|above|below|between|on top of)\b/i;
const HAS_DETERMINER = /^(the|a|an|my|our|your|his|her|their|this|that)\b|['’]s\b/i;

const isPlural = (name: string) => /([^s]s|sses|xes|ches|shes)$/i.test(name.trim().split(/\s+/).pop() ?? '');
/** "the car keys"; a name said as it is when it has its own ("Brian's wallet") or is a proper name ("Skoda"). */
const the = (name: string) => (HAS_DETERMINER.test(name) || /^\p{Lu}\p{Ll}/u.test(name) ? name : `the ${name}`);
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "in the hall drawer", "on the kitchen counter", "in Brian's jacket", "under the sink". */
export function placePhrase(container: string): string {
  const c = container.trim();
  if (HAS_PREPOSITION.test(c)) return c;
  return `${SURFACE.test(c) ? 'on' : 'in'} ${the(c)}`;
}

function placeReply(r: FindResult, q: AskQuestion): AskReply {
  const name = r.entity_name!;
  const age = ageText(Math.max(0, q.now - r.last_confirmed_ts!));
  const by = r.candidates.find((c) => c.entity_name === name)?.matched_by;
  const faded = r.confidence! < FADED;
  const plural = isPlural(name);
  const where = placePhrase(r.container_name!);
  const said = faded
    ? `${upperFirst(the(name))} ${plural ? 'were' : 'was'} ${where} ${age}; ${plural ? 'they' : 'it'} may have moved since.`
    : `${upperFirst(the(name))} ${plural ? 'are' : 'is'} ${where}, last seen ${age}.`;
  const loose = by === 'encoder';
  return {
    result: loose
      ? `I'm not sure, but if you mean ${the(name)}: ${said.charAt(0).toLowerCase()}${said.slice(1)}`
      : said,
    answer: { kind: 'place', entity: name, value: r.container_name!, at: r.last_confirmed_ts! },
    sure: !faded && !loose,
    evidence: [
      {
        type: 'place',
        entity: name,
        text: `${name}: ${r.container_name}`,
        confidence: r.confidence!,
        to: r.last_confirmed_ts!,
      },
    ],
  };
}

function whichReply(r: FindResult): AskReply {
  const names = [...new Set(r.candidates.map((c) => the(c.entity_name)))].slice(0, 3);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names[0];
  return {
    result: `Do you mean ${list}?`,
    answer: { kind: 'place' },
    sure: false,
    evidence: r.candidates.slice(0, 3).map((c) => ({
      type: 'place' as const,
      entity: c.entity_name,
      text: `${c.entity_name}: ${c.container_name}`,
      confidence: c.confidence,
      to: c.last_confirmed_ts,
    })),
  };
}

/** A where-question's answer; null when the question does not ask where. */
export async function answerPlace(deps: Deps, q: AskQuestion): Promise<AskReply | null> {
  const text = q.question.replace(/’/g, "'");
  if (!WHERE.test(text)) return null;
  const r = await deps.spatial.findAsked({ query: q.question });
  if (r.found) return placeReply(r, q);
  if (r.candidates.length) return whichReply(r);
  const fact = await answerFact(deps, q);
  if (fact.answer.kind === 'fact' || !OBJECT_SHAPE.test(text)) return fact;
  const { phrase, plural } = objectPhrase(q.question);
  return {
    result: `I don't know where ${phrase} ${plural ? 'are' : 'is'}.`,
    answer: { kind: 'unknown' },
    sure: true,
    evidence: [],
  };
}
