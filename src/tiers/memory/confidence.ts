/**
 * How sure recall is that a candidate answers the question (SPEC §5): a logistic model over a few
 * per-candidate signals, fitted per embedder on the calibration households ONLY (eval/household.json and
 * eval/household-b.json) by `scripts/calibrate-gate.ts`
 * (k-fold cross-validated; eval/household-heldout.json is never read by the fit — its figures are
 * printed beside, for the record). Recall answers in two tiers (recall.ts):
 *
 *   p(m)      = σ(b + w_cos·cos + w_margin·margin + w_cov·cov + w_phrase·phrase + w_agree·cos·cov + w_upd·updated)
 *   confident = { m : p(m) ≥ threshold }              → `results`
 *   possible  = the next best by p(m), p(m) ≥ floor   → `possible` (low confidence, labelled)
 *
 * The signals, each measured on the question's candidates only (nothing grows with the store):
 *   cos      cosine of the memory to the question (0 when it has no vector);
 *   margin   cos − the cosine of its best rival: for the vector top-1 (and the memories that restate
 *            it: cosine to it ≥ SAME_AS_TOP, recall.ts) the best candidate that is not a restatement;
 *            for every other memory the top-1 — the rival never below the model's `rival` (10th
 *            percentile of the calibration's runner-ups), so a store or scope with one fact does not make every
 *            answer stand out. A question whose answer is stored usually has one memory that stands
 *            out; a never-stated one has a flat list.
 *   cov      IDF-weighted share of the question's content words the memory holds (recall.ts
 *            `coverage`; a ratio of IDFs of the question's own words, so it does not grow with the store);
 *   phrase   1 when the memory holds the question's words as one run, in order ("spare batteries"),
 *            or holds the one content word of a one-word question ("peanuts"): a keyword lookup.
 *   cos·cov  agreement: a shared word counts for more when the meaning agrees too. Without it a
 *            weak shared word ("wifi password" → the router fact: coverage 0.42, cosine 0.52)
 *            would be confirmed by either signal alone.
 *   updated  1 when the memory replaced an older fact of its slot (a supersession): learned from the
 *            calibration households' supersessions against never-stated questions asked of the same
 *            entities, so an update answers its slot without answering everything about its entity.
 * And a rule beside the model: a candidate about an entity the question does not name, that does
 * not mention the one it names, is never confident (named.ts).
 *
 * Why a model and not thresholds: the old gate accepted a top-1 on cosine alone and confirmed a keyword
 * hit on any cosine above `confirm`; a sweep of 28k settings found no point with paraphrases ≥ 0.75 and
 * abstention ≥ 0.9, and the point chosen on one set did not transfer. Six weights fitted by
 * regularised maximum likelihood cannot chase single questions the way a 148k-point grid did.
 * Figures: docs/recall-quality.md.
 */

export interface Signals {
  cos: number;
  margin: number;
  cov: number;
  phrase: boolean;
  /**
   * It replaced an older fact of the same slot (supersession, candidates.ts `replaced`): a household
   * that corrected a fact is telling Hearth what the current answer is.
   */
  updated: boolean;
}

export interface ConfidenceModel {
  /** Intercept and weights of the logistic score, in the order of `featureVector`. */
  bias: number;
  weights: readonly number[];
  /**
   * The runner-up cosine assumed when a question's own runner-up is lower (the 10th percentile of the
   * calibration questions' runner-ups): with one or two facts in the store, or in the scope, nothing
   * competes and the margin would be the whole cosine — a store-size effect the model must not read as certainty.
   */
  rival: number;
  /** p at or above this is an answer (`results`). */
  threshold: number;
  /** p at or above this (and below threshold) may be listed as `possible`. */
  floor: number;
  /** Where the numbers come from (shown by explain and /health). */
  fitted: string;
}

/**
 * Kept as rules beside the model (session 10): a memory holding the question's words as one run, in
 * order — and for a one-word question, any memory with that word ("peanuts", cosine 0.46; "68", 0.17)
 * — is an answer whatever its cosine: a keyword lookup the person typed on purpose. A longer sentence
 * left with one content word is not such a lookup (candidates.ts LOOKUP_WORDS).
 */
export const PHRASE_ANSWERS = true;

export const FEATURES = ['cos', 'margin', 'cov', 'phrase', 'cos·cov', 'updated'] as const;

export function featureVector(s: Signals): number[] {
  return [s.cos, s.margin, s.cov, s.phrase ? 1 : 0, s.cos * s.cov, s.updated ? 1 : 0];
}

export function probability(m: ConfidenceModel, s: Signals): number {
  const x = featureVector(s);
  let z = m.bias;
  for (let i = 0; i < x.length; i++) z += m.weights[i] * x[i];
  return 1 / (1 + Math.exp(-z));
}

/**
 * Per embedder provider (written by `node dist/scripts/calibrate-gate.js --provider P --write`;
 * numbers and the command in docs/recall-quality.md). `default` (Ollama/OpenAI models, which cannot
 * run here) is use-lite's model with cosines read 0.05 higher, a guess marked as such in /health.
 */
export const CONFIDENCE_MODELS: Record<string, ConfidenceModel> = {
  // BEGIN fitted (scripts/calibrate-gate.ts --write replaces this block)
  local: {
    bias: -3.229,
    weights: [1.2135, 5.6293, 2.1839, 1.0385, 1.4824, 1.1585],
    rival: 0.239,
    threshold: 0.45,
    floor: 0.03,
    fitted: '2026-12-02, eval/household.json + household-b.json, 10-fold, λ 1',
  },
  'use-lite': {
    bias: -3.6123,
    weights: [2.0052, 6.2331, 2.1821, 1.313, 1.7545, 1.1993],
    rival: 0.339,
    threshold: 0.5,
    floor: 0.03,
    fitted: '2026-12-02, eval/household.json + household-b.json, 10-fold, λ 1',
  },
  // END fitted
};
CONFIDENCE_MODELS.default = shifted(
  CONFIDENCE_MODELS['use-lite'],
  0.05,
  'guess: use-lite model with cosines read 0.05 higher',
);

/** A model for an embedder whose cosines run `dc` higher: the same decision at cos − dc. */
function shifted(m: ConfidenceModel, dc: number, fitted: string): ConfidenceModel {
  // z(cos − dc) = bias − w_cos·dc − w_agree·dc·cov + …: the interaction term's shift is absorbed in w_cov.
  const [wc, wm, wv, wp, wa, ...rest] = m.weights;
  return {
    ...m,
    bias: m.bias - wc * dc,
    weights: [wc, wm, wv - wa * dc, wp, wa, ...rest],
    rival: m.rival + dc,
    fitted,
  };
}

export function modelFor(
  provider: string,
  models: Record<string, ConfidenceModel> = CONFIDENCE_MODELS,
): ConfidenceModel {
  return models[provider] ?? models.default;
}
