/**
 * Which live intentions a text fires (SPEC §5 "Intentions"), given its candidates and, when an
 * embedder answered, the text's vector. Constants tuned on eval/intentions-tune.json via
 * scripts/eval-tiers.ts:
 *   keyword  k = weighted coverage of the trigger's terms by the text's terms (trigger-match.ts), or,
 *            when higher, the same coverage through WordNet (synonyms, similar words, derivations
 *            only — "a kind of" fired on other events: "put the washing machine on" for "when the
 *            washing machine finishes"); eval/intentions-tune.json: paraphrases 12 → 13 of 20,
 *            negatives 42/47 both ways; held out (eval/intentions.json, use-lite): 3 → 4 of 8, 19/19 quiet;
 *            candidates come from the FTS5 index over normalised trigger terms (quoted literals).
 *   vector   v = cosine of the event texts (trigger-match.ts `eventText`: no lead-in, names masked)
 *            when an embedder answers; trigger vectors are a BLOB per intention, compared in JS (a
 *            household has at most a few hundred active ones).
 *   fire  ⇔  no conflict (negation / opposite event / another time), every required name present, and
 *            (k ≥ keywordMin or (v ≥ vectorMin[provider], the text shares < vectorBelow of the
 *            trigger's event words, and v leads every other live trigger's cosine by ≥ vectorLead —
 *            with `namedLead`, a trigger whose names the text says leads only the others it says the
 *            names of: "my wife walked in" (Grace, via roles.ts) competes with Grace's triggers only));
 *            score = max(k, v). A text saying "out" is on the leaving side of the arrive/leave opposites.
 */
import { tokenize } from '../../ai/text.js';
import type { WordNet, WordRel } from '../../ai/wordnet.js';
import { type PreparedQuery, prepareQuery, wordnetCoverage } from '../../ai/wordnet-coverage.js';
import { fromBlob, type Row } from './intention-rows.js';
import type { TriggeredIntention } from './prospective.schemas.js';
import {
  conflicts,
  cosine,
  coverage,
  isTopicTrigger,
  LIGHT_STEMS,
  LIGHT_WEIGHT,
  otherTime,
  requiredTerms,
} from './trigger-match.js';

export interface IntentionTuning {
  /** Minimum weighted keyword coverage. */
  keywordMin: number;
  /** Minimum cosine per embedder provider (the local hashed embedder's scale differs from a neural model's). */
  vectorMin: Record<string, number>;
  /**
   * The vector may fire only a text whose coverage of the trigger's event words (names aside) is below
   * this: a text in the trigger's own words is judged by the keyword path and its guards, the
   * embedder answers for other words.
   */
  vectorBelow: number;
  /** A vector-only firing must lead every other live trigger's cosine by this much (undefined: no such rule). */
  vectorLead?: number;
  /** The lead of a trigger whose named person the text names is over the other such triggers only. */
  namedLead?: boolean;
}
/**
 * Tuned on eval/intentions-tune.json only (`node dist/scripts/eval-tiers.js --sweep [--provider
 * use-lite]`; eval/intentions.json is held out): the setting with the most cases exactly right.
 * keywordMin 0.7 needs every content word of a two- or three-word event (two of three, 0.67, fired
 * "I bought a new bread maker" for "when the bread maker is done"): 73 % exact against 70 % at 0.6.
 * use-lite: cosine of the event texts ≥ 0.45, only for texts that share under 0.3 of the event's
 * words (vectorBelow), and only for the trigger the text is closest to, by ≥ 0.06 over the next
 * (vectorLead: "Grace is home" is near both "when Grace gets home" and "when Grace leaves the
 * house"): 83 % exact, paraphrases 12/20, negatives quiet 42/47. Without vectorLead the best was
 * 78 % / 9/20 / 41/47 at cosine 0.55 (0.45 without it fires wrongly: 66 %). The local embedder is
 * lexical and adds nothing there (0/20 paraphrases at any cosine), so it keeps 0.7; a wrong firing
 * consumes a `once` intention, so precision wins. `default` (Ollama/OpenAI models, which cannot run
 * here) is use-lite's value raised 0.05, a guess. namedLead (with role resolution, roles.ts): tuning set
 * paraphrases 14 → 16/20, negatives 42/47 kept (after "out" joined the opposites; before, 41/47).
 */
export const DEFAULT_INTENTION_TUNING: IntentionTuning = {
  keywordMin: 0.7,
  vectorMin: { local: 0.7, 'use-lite': 0.45, default: 0.5 },
  vectorBelow: 0.3,
  vectorLead: 0.06,
  namedLead: true,
};

/** WordNet relations that say the same event in other words; "a kind of" (hypernym, hyponym) fired on other events. */
const EVENT_RELS: ReadonlySet<WordRel> = new Set(['self', 'lemma', 'synonym', 'similar', 'derived']);

const OUT = /\bout\b/i;

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/** What a checked text brings: its words, the person names known, and its vector when an embedder answered. */
export interface CheckedText {
  text: string;
  /** `triggerTerms(text)`, as the keyword index holds them. */
  terms: Set<string>;
  names: string[];
  vector: Float32Array | null;
  /** The fingerprint a trigger vector must carry to be compared with `vector`. */
  vecModel: string | null;
  /** The embedder's provider (its `vectorMin`); null without an embedder: keyword only. */
  provider: string | null;
}

export type Hit = TriggeredIntention & { row: Row };

export function createRelevance(tuning: IntentionTuning, wordnet?: WordNet) {
  // A trigger's WordNet expansion is made once (triggers are few and checked often).
  const prepared = new Map<string, PreparedQuery>();
  const triggerExpansion = (text: string) => {
    let p = prepared.get(text);
    if (!p) {
      if (prepared.size >= 1000) prepared.clear();
      prepared.set(text, (p = prepareQuery(wordnet, text, { rels: EVENT_RELS })));
    }
    return p;
  };

  /** The candidates the text fires, best first (ties by id). */
  return function relevant(candidates: readonly Row[], c: CheckedText): Hit[] {
    const { terms: textTerms, names, vector: textVec, vecModel } = c;
    const textStems = new Set([...tokenize(c.text), ...textTerms]);
    // "out" is a stopword to the tokenizer, but "Pepper has gone out" is the opposite of "comes back in".
    const sideTerms = OUT.test(c.text) ? new Set([...textTerms, 'out']) : textTerms;
    const vectorMin = c.provider !== null ? (tuning.vectorMin[c.provider] ?? tuning.vectorMin.default) : Infinity;
    const hits: Hit[] = [];
    const cos = new Map<number, number>();
    for (const r of candidates)
      cos.set(r.id, textVec && r.embedding && r.embed_model === vecModel ? cosine(textVec, fromBlob(r.embedding)) : 0);
    // A trigger whose person the text names (its required names all there) competes, for the lead,
    // only with the other triggers the text names the person of: the name is evidence the others lack.
    const required = new Map(candidates.map((r) => [r.id, requiredTerms(r.trigger_text, names)]));
    const named = (id: number) =>
      tuning.namedLead === true && required.get(id)!.length > 0 && required.get(id)!.every((t) => textTerms.has(t));
    const lead = (id: number) => {
      let other = 0;
      for (const [o, v] of cos) if (o !== id && (!named(id) || named(o)) && v > other) other = v;
      return cos.get(id)! - other;
    };
    for (const r of candidates) {
      const trig = r.terms.split(' ');
      if (conflicts(new Set(trig), sideTerms) || otherTime(r.trigger_text, c.text)) continue;
      if (!required.get(r.id)!.every((t) => textTerms.has(t))) continue;
      let k = coverage(trig, textTerms, isTopicTrigger(r.trigger_text));
      // The same coverage through WordNet (generic words light, as above); it may only add evidence.
      if (wordnet && k < tuning.keywordMin) {
        const w = (t: string) => (LIGHT_STEMS.has(t) ? LIGHT_WEIGHT : 1);
        k = Math.max(k, wordnetCoverage(triggerExpansion(r.trigger_text), textStems, w));
      }
      // How much of the trigger's event (names aside: they are checked above) the text says in the same words.
      const kEvent = coverage(
        trig.filter((t) => !required.get(r.id)!.includes(t)),
        textTerms,
      );
      const v = cos.get(r.id)!;
      if (
        k < tuning.keywordMin &&
        (v < vectorMin ||
          kEvent >= tuning.vectorBelow ||
          (tuning.vectorLead !== undefined && lead(r.id) < tuning.vectorLead))
      )
        continue;
      hits.push({
        id: r.id,
        entity_name: r.entity_name,
        trigger_text: r.trigger_text,
        action_text: r.action_text,
        score: round(Math.max(k, v)),
        row: r,
      });
    }
    return hits.sort((a, b) => b.score - a.score || a.id - b.id);
  };
}
