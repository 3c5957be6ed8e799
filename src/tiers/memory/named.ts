/**
 * Whom a question names, and which candidates are about someone else (recall's `elsewhere` rule,
 * recall.ts `judge`). "When is Felix's birthday" must not be answered with "Helga's birthday is on the
 * 19th of April": the fact shares the question's words and stands out from the rest, but it is about
 * another entity and does not mention the one asked about. Such a candidate may still be listed as
 * possible; it is never stated as an answer.
 *
 * A candidate is about the named entity when it belongs to it, or its text names it (the entity's own
 * name, or the words the question used for it, e.g. an alias): "Brian and Anna married in June 2010"
 * (Anna's) answers a question about Brian; "Anna drives a white Prius" (the Prius's) one about Anna.
 * A question that names several entities accepts a candidate about any of them. A question scoped to
 * an entity (`entity_name`) needs none of this: every candidate is that entity's.
 *
 * Only who-names count: an entity stored as a person or a pet, or one of unknown type written like a
 * proper name in the question (capitalised, not as its first word). A room, a device or a sensor is
 * named with everyday words ("who cleans the kitchen", "what's the kitchen temperature"), and the
 * fact that answers may well be stored under someone else without them.
 */
import { normalizeText } from '../../ai/text.js';
import { terms } from './text-match.js';

export interface Named {
  id: number;
  /** Term runs that name it in a memory's text: its name, and the question's words for it. */
  runs: string[][];
  /** Where the question names it: [start, end) of the words said, and whether they were a possessive ("Grandma's"). */
  spans?: { start: number; end: number; possessive: boolean }[];
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;
/** Entity types whose name says whom a question is about. */
const WHO_TYPES = new Set(['person', 'pet']);
/** Longest span of question words looked up as one name ("Dr. Patel", "robot vacuum", "Leo's room"). */
const MAX_NAME_WORDS = 3;

/**
 * The entities a question names, by spans of up to MAX_NAME_WORDS words, longest first ("Maya's room"
 * before "Maya"). `find` resolves a name or an alias (memory.service.ts passes the entities repo's).
 * `anyType`: every entity named, who-name or not (the calibration asks never-stated questions of them).
 */
export function namedInQuery(
  find: (name: string) => { id: number; name: string; type: string } | undefined,
  query: string,
  opts: { anyType?: boolean } = {},
): Named[] {
  const found = [...query.normalize('NFC').matchAll(WORD)];
  const raw = found.map((m) => m[0]);
  const words = raw.map((w) => normalizeText(w));
  const out = new Map<number, Named>();
  for (let i = 0; i < words.length; ) {
    let len = 0;
    for (let k = Math.min(MAX_NAME_WORDS, words.length - i); k >= 1 && !len; k--) {
      const said = words.slice(i, i + k).join(' ');
      // Possessives name the owner ("Felix's" → Felix), unless the whole span is a name ("Leo's room").
      const e = find(said) ?? (k === 1 ? find(said.replace(/['’]s$/, '')) : undefined);
      if (!e) continue;
      len = k;
      const properName = i > 0 && /^\p{Lu}/u.test(raw[i]);
      if (!opts.anyType && !WHO_TYPES.has(e.type) && !(e.type === 'unknown' && properName)) continue;
      const runs = [terms(e.name), terms(said)].filter((r) => r.length);
      const last = found[i + k - 1];
      const span = {
        start: found[i].index,
        end: last.index + last[0].length,
        possessive: /['’]s$/.test(raw[i + k - 1]),
      };
      const had = out.get(e.id);
      if (had) had.runs.push(...runs), had.spans!.push(span);
      else out.set(e.id, { id: e.id, runs, spans: [span] });
    }
    i += Math.max(len, 1);
  }
  return [...out.values()];
}

/** Does `doc` (a memory's terms, in order) hold `run` as consecutive terms? */
function holds(doc: readonly string[], run: readonly string[]): boolean {
  for (let i = doc.indexOf(run[0]); i >= 0 && i + run.length <= doc.length; i = doc.indexOf(run[0], i + 1))
    if (run.every((t, k) => doc[i + k] === t)) return true;
  return false;
}

/** Candidates that belong to none of the named entities and name none of them. */
export function aboutElsewhere(
  named: Named[],
  entityOf: ReadonlyMap<number, number>,
  termsOf: ReadonlyMap<number, readonly string[]>,
): Set<number> {
  const out = new Set<number>();
  if (!named.length) return out;
  const ids = new Set(named.map((n) => n.id));
  for (const [id, entity] of entityOf) {
    if (ids.has(entity)) continue;
    const doc = termsOf.get(id);
    if (doc && named.some((n) => n.runs.some((r) => holds(doc, r)))) continue;
    out.add(id);
  }
  return out;
}
