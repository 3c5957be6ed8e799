/**
 * Colloquial object names through the encoder (issue #34 item 5): when neither spelling nor WordNet
 * names a located object (object-match.ts), the object's words as asked ("keys to the skoda") are
 * embedded and compared with the located objects' names ("car keys") by cosine. Names' vectors are
 * kept per embedder (fingerprint), so a question embeds one text; the local lexical embedder (a
 * hashed bag of words, no meaning) is never used: it would only repeat the spelling match, less well.
 *
 * Use-lite puts unrelated short names at 0.5–0.65 ("scissors" ~ "winter gloves" 0.55, "blue mug" ~
 * "blue water bottle" 0.64), so the encoder alone answers only when it stands out, and otherwise
 * needs WordNet to agree:
 *   - a name that shares words with the question but not its own head word is another thing the
 *     spelling match already turned down ("blue mug" is not the "blue water bottle", "mobile phone"
 *     not the "phone charger"): left out;
 *   - the best name answers when its cosine reaches ENCODER_MIN and leads the next by ENCODER_MARGIN,
 *     or when it is the best by cosine (≥ AGREE_COS) and WordNet's meaning score (object-match.ts
 *     `meaningScorer`) gives it ≥ AGREE_MEANING: "clicker for the telly" ~ "TV remote" is cosine 0.46
 *     (the next 0.42) and meaning 0.41 (telly = TV).
 * Constants set with use-lite on eval/spatial.json (the tuning set) and the three examples;
 * eval/spatial-synonyms.json is held out (`node dist/scripts/eval-tiers.js`).
 */
import type { Embedder } from '../../ai/types.js';
import type { WordNet } from '../../ai/wordnet.js';
import { meaningScorer, objectSpan, objectTerms, type Ranked } from './object-match.js';

export const ENCODER_MIN = 0.6;
export const ENCODER_MARGIN = 0.1;
export const AGREE_COS = 0.4;
export const AGREE_MEANING = 0.4;
const NAMES_MAX = 2000;

export type EncoderRanked<T> = Omit<Ranked<T>, 'by'> & { by: 'encoder' };

export function createEncoderMatch(embedder: Embedder | undefined, wordnet?: WordNet) {
  const names = new Map<string, Float32Array>();
  let fingerprint = '';

  async function vectors(texts: string[]): Promise<Float32Array[] | null> {
    if (!embedder || embedder.provider === 'local') return null;
    if (embedder.fingerprint !== fingerprint) names.clear(), (fingerprint = embedder.fingerprint);
    try {
      const missing = [...new Set(texts.slice(1).filter((t) => !names.has(t)))];
      const vecs = await embedder.embed([texts[0], ...missing]);
      if (names.size + missing.length > NAMES_MAX) names.clear();
      missing.forEach((t, i) => names.set(t, vecs[i + 1]));
      return [vecs[0], ...texts.slice(1).map((t) => names.get(t)!)];
    } catch {
      return null; // the encoder is down: spelling and WordNet still answered what they could
    }
  }

  /** Items ranked by the cosine of their name to the question's object words; `best` as in rankNames. */
  return async function byEncoder<T>(
    question: string,
    items: readonly T[],
    nameOf: (t: T) => string,
  ): Promise<{ ranked: EncoderRanked<T>[]; best?: EncoderRanked<T> }> {
    const asked = objectSpan(question)?.words;
    if (!asked) return { ranked: [] };
    const said = new Set(objectTerms(asked));
    const fits = items.filter((item) => {
      const name = objectTerms(nameOf(item));
      return !name.some((t) => said.has(t)) || said.has(name[name.length - 1]);
    });
    if (!fits.length) return { ranked: [] };
    const vecs = await vectors([asked, ...fits.map(nameOf)]);
    if (!vecs) return { ranked: [] };
    const [q, ...vs] = vecs;
    const all = fits
      .map((item, i) => ({ item, score: dot(q, vs[i]), by: 'encoder' as const }))
      .sort((a, b) => b.score - a.score);
    const [first, second] = all;
    const lead = first.score - (second?.score ?? 0);
    const agrees = () =>
      first.score >= AGREE_COS &&
      !!wordnet?.available() &&
      meaningScorer(question, wordnet)(nameOf(first.item)) >= AGREE_MEANING;
    const best = (first.score >= ENCODER_MIN && lead >= ENCODER_MARGIN) || agrees() ? first : undefined;
    const ranked = all.filter((r) => r.score >= ENCODER_MIN || r === best);
    return { ranked, best };
  };
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
