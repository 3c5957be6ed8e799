/**
 * Colloquial object names through the encoder (issue #34 item 5): when neither spelling nor WordNet
 * names a located object (object-match.ts), the object's words as asked ("the clicker for the telly")
 * are embedded and compared with the located objects' names ("TV remote") by cosine. The best is the
 * answer when its cosine reaches ENCODER_MIN and leads the runner-up by ENCODER_MARGIN; names whose
 * cosine reaches ENCODER_MIN are candidates otherwise. Names' vectors are kept per embedder
 * (fingerprint), so a question embeds one text; the local lexical embedder (a hashed bag of words,
 * no meaning) is never used: it would only repeat the spelling match, less well.
 *
 * ENCODER_MIN and ENCODER_MARGIN were set on use-lite over eval/spatial.json's objects (the tuning
 * set), not on eval/spatial-synonyms.json (held out).
 */
import type { Embedder } from '../../ai/types.js';
import { objectSpan, type Ranked } from './object-match.js';

export const ENCODER_MIN = 0.5;
export const ENCODER_MARGIN = 0.08;
const NAMES_MAX = 2000;

export type EncoderRanked<T> = Omit<Ranked<T>, 'by'> & { by: 'encoder' };

export function createEncoderMatch(embedder: Embedder | undefined) {
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
    if (!asked || !items.length) return { ranked: [] };
    const vecs = await vectors([asked, ...items.map(nameOf)]);
    if (!vecs) return { ranked: [] };
    const [q, ...vs] = vecs;
    const ranked = items
      .map((item, i) => ({ item, score: dot(q, vs[i]), by: 'encoder' as const }))
      .filter((r) => r.score >= ENCODER_MIN)
      .sort((a, b) => b.score - a.score);
    const [first, second] = ranked;
    const best = first && (!second || first.score - second.score >= ENCODER_MARGIN) ? first : undefined;
    return { ranked, best };
  };
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
