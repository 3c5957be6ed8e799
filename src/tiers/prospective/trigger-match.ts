/**
 * Is a text relevant to an intention's trigger? Lexical evidence for `check_intentions` (SPEC §5).
 *
 *   coverage = Σ w(t) over trigger terms the text has / Σ w(t) over trigger terms
 *
 * with w = 1 for content words and LIGHT_WEIGHT for generic verbs and fillers ("get", "go",
 * "next time", "mention"), so "when Anna gets home" needs "Anna" and "home", not "gets".
 * Terms are our tokenizer's stems (`src/ai/text.ts`) with irregular verb forms folded onto their
 * base ("got" → get, "came" → come, "left" → leave), which Porter stemming does not do.
 *
 * Three guards keep a shared word from firing a trigger about something else:
 *  - names: a capitalised word inside the trigger ("when *Anna* gets home") or a known person's
 *    name must appear in the text — "Brian got home" does not fire Anna's trigger;
 *  - negation: a text that negates ("Anna isn't home yet") never fires a trigger that does not;
 *  - opposites: a text with one side of an opposed pair and none of the trigger's side
 *    ("Anna left home" for "when Anna gets home", "lights off" for "when the lights turn on");
 *  - another time: a text that places its event on another day or in the future ("it rained
 *    yesterday", "Grace will be home tomorrow", "the parcel arrives on Friday") reports or plans
 *    the event rather than saying it is happening. A topic trigger ("when someone mentions the car")
 *    is exempt, the mention itself being the event; a talk trigger ("next time I talk to Brian") is
 *    moved only by a future or a maybe, since a time word may be what the talk is about.
 */
import { tokenize } from '../../ai/text.js';

/** Weight of generic words in coverage (tuned on eval/intentions.json). */
export const LIGHT_WEIGHT = 0.3;

/** Irregular forms the stemmer leaves alone, folded onto the stem of their base form. */
const IRREGULAR: Record<string, string> = {
  got: 'get',
  gotten: 'get',
  goe: 'go',
  went: 'go',
  gone: 'go',
  came: 'come',
  left: 'leav',
  woke: 'wake',
  woken: 'wake',
  bought: 'bui',
  brought: 'bring',
  began: 'begin',
  begun: 'begin',
  ran: 'run',
  saw: 'see',
  seen: 'see',
  ate: 'eat',
  eaten: 'eat',
  told: 'tell',
  said: 'sai',
  met: 'meet',
  drove: 'drive',
  driven: 'drive',
  took: 'take',
  taken: 'take',
  made: 'make',
  fell: 'fall',
  fallen: 'fall',
  slept: 'sleep',
  rang: 'ring',
  rung: 'ring',
  arriv: 'arriv',
  thought: 'think',
};

/** Generic words: they carry the *kind* of event, rarely which one. */
const LIGHT = new Set(
  'get go come make take do have next time talk speak mention someon anyon somebodi anybodi sai tell ask see meet back start thing now todai tonight time dai week morn even soon ever again right remind'.split(
    ' ',
  ),
);

/** The generic stems (for callers weighting coverage their own way, e.g. through WordNet). */
export const LIGHT_STEMS: ReadonlySet<string> = LIGHT;

/** Opposed events by stem; a text on one side with nothing of the trigger's side conflicts. */
const OPPOSITES: [string[], string[]][] = [
  [
    ['arriv', 'get', 'come', 'back', 'return', 'enter', 'reach'],
    ['leav', 'depart', 'exit', 'awai', 'out'],
  ],
  [['on'], ['off']],
  [
    ['open', 'unlock'],
    ['close', 'shut', 'lock'],
  ],
  [
    ['start', 'begin'],
    ['finish', 'done', 'end', 'stop', 'complet'],
  ],
  [['wake'], ['sleep', 'asleep', 'bed']],
];

const NEGATION = new Set([
  'not',
  'no',
  'never',
  'dont',
  'doesnt',
  'didnt',
  'isnt',
  'wasnt',
  'arent',
  'werent',
  'cant',
  'cannot',
  'wont',
  'hasnt',
  'havent',
]);

/** Stemmed terms with irregular verbs folded, in order (duplicates kept). */
export function triggerTokens(text: string): string[] {
  return tokenize(text).map((t) => (Object.hasOwn(IRREGULAR, t) ? IRREGULAR[t] : t));
}

/** Unique terms — what the FTS row of an intention holds. */
export function triggerTerms(text: string): string[] {
  return [...new Set(triggerTokens(text))];
}

/**
 * Weighted share of the trigger's terms that the text contains, in [0, 1]. For a trigger about a
 * topic being raised ("when someone mentions the car") the text itself is the talk, so only the
 * topic's words count: "the car is making a weird noise" raises the car.
 */
export function coverage(trigger: string[], text: ReadonlySet<string>, topic = false): number {
  const light = topic ? 0 : LIGHT_WEIGHT;
  let total = 0;
  let hit = 0;
  for (const t of new Set(trigger)) {
    const w = LIGHT.has(t) || (topic && TOPIC_VERB.has(t)) ? light : 1;
    total += w;
    if (text.has(t)) hit += w;
  }
  return total > 0 ? hit / total : 0;
}

/** The stems of TOPIC's verbs that LIGHT does not hold ("brings up"): a topic trigger counts only its topic. */
const TOPIC_VERB = new Set(['bring', 'up']);

/** Triggers whose event is a topic being raised, not a person being talked to. */
const TOPIC =
  /\b(mention\w*|brings?\s+up|bringing\s+up|brought\s+up|talks?\s+about|talking\s+about|speaks?\s+about)\b/i;
export const isTopicTrigger = (triggerText: string) => TOPIC.test(triggerText);

/**
 * Terms the text must contain: capitalised words after the first word of the trigger (a name
 * typed as a name) and any term of a known person's name that the trigger contains.
 */
export function requiredTerms(triggerText: string, personNames: readonly string[] = []): string[] {
  const out = new Set(capitalisedNames(triggerText).flatMap(triggerTokens));
  const have = new Set(triggerTokens(triggerText));
  for (const name of personNames) {
    const nameTerms = triggerTokens(name);
    if (nameTerms.length && nameTerms.every((t) => have.has(t))) for (const t of nameTerms) out.add(t);
  }
  return [...out];
}

/** True when the text negates and the trigger does not, or says the opposite event. */
export function conflicts(trigger: ReadonlySet<string>, text: ReadonlySet<string>): boolean {
  const neg = (s: ReadonlySet<string>) => [...s].some((t) => NEGATION.has(t));
  if (neg(text) && !neg(trigger)) return true;
  for (const [a, b] of OPPOSITES) {
    for (const [mine, other] of [
      [a, b],
      [b, a],
    ]) {
      const triggerSide = mine.some((t) => trigger.has(t)) && !other.some((t) => trigger.has(t));
      if (triggerSide && other.some((t) => text.has(t)) && !mine.some((t) => text.has(t))) return true;
    }
  }
  return false;
}

const DAYS = 'mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekends?';
const PERIODS = `night|week|month|year|summer|winter|spring|autumn|term|christmas|january|february|march|april|june|july|august|september|october|november|december|${DAYS}`;
/** Words that move a text's event off "now": other days, future tense, might. */
const ELSEWHEN = new RegExp(
  `\\b(yesterday|tomorrow|(last|next|this|on|every)\\s+(${PERIODS})|(${DAYS})|will|shall|won['’]t|\\w+['’]ll|might)\\b`,
  'i',
);
/**
 * Triggers whose event is someone talking: a time word may be what the talk is about ("Brian and I
 * are talking about next week"), so only a future or maybe moves the talk itself ("I'll talk to
 * Brian tomorrow"). A topic trigger ("when someone mentions the car") is exempt altogether: the
 * text is the mention.
 */
const TALK = /\b(talk\w*|say\w*|said|ask\w*|discuss\w*|speak\w*|spoke)\b/i; // mentions, bringing up: TOPIC
const NOT_YET = /\b(will|shall|won['’]t|\w+['’]ll|might|going\s+to)\b/i;

/** True when the text places its event at another time than now and the trigger does not. */
export function otherTime(triggerText: string, text: string): boolean {
  if (ELSEWHEN.test(triggerText) || isTopicTrigger(triggerText)) return false;
  return TALK.test(triggerText) ? NOT_YET.test(text) && !NOT_YET.test(triggerText) : ELSEWHEN.test(text);
}

/** A trigger's lead-in ("when", "if", "next time"): not part of its event. */
export const LEAD_IN = /^\s*(?:(?:the\s+)?next\s+time|whenever|when|if|once|as\s+soon\s+as)\s+/i;
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

/** The capitalised words after the first word of a trigger ("when *Grace* gets home"): names typed as names. */
export function capitalisedNames(triggerText: string): string[] {
  return (triggerText.match(WORD) ?? [])
    .filter((w, i) => i > 0 && w !== 'I' && /^\p{Lu}/u.test(w))
    .map((w) => w.replace(/['’]s$/u, ''));
}

/**
 * What the embedder compares: the event without its lead-in ("when", "if", "next time") and with
 * names replaced by "someone". Names are checked exactly by the name guard; left in, a shared name
 * dominates a short text's vector ("Anna is at work" ≈ "when Anna gets home").
 */
export function eventText(text: string, names: Iterable<string>): string {
  const masked = new Set([...names].flatMap((n) => n.toLowerCase().match(WORD) ?? []));
  return text
    .replace(LEAD_IN, '')
    .replace(WORD, (w) => (masked.has(w.toLowerCase().replace(/['’]s$/u, '')) ? 'someone' : w));
}

/** A trigger's event text: known person names and the trigger's own capitalised names masked. */
export const triggerEventText = (triggerText: string, personNames: readonly string[]) =>
  eventText(triggerText, [...personNames, ...capitalisedNames(triggerText)]);

/** Cosine of two L2-normalised vectors (0 when either is all zeros or the lengths differ). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return Number.isFinite(dot) ? dot : 0;
}
