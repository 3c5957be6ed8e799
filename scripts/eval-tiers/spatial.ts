/**
 * Tier 4 eval: `evalSpatial()` on eval/spatial.json (does find answer natural questions with the
 * right object, offer candidates when ambiguous, and nothing when nothing fits?), on a scratch database.
 */
import type { Embedder } from '../../src/ai/types.js';
import { sharedWordNet, type WordNet } from '../../src/ai/wordnet.js';
import { FindInput, LocateInput } from '../../src/tiers/spatial/spatial.schemas.js';
import { createSpatialService } from '../../src/tiers/spatial/spatial.service.js';
import { ratio, read, scratch } from './common.js';

interface SpatialData {
  objects: { entity_name: string; container_name: string }[];
  queries: { query: string; expect?: string | null; ambiguous?: string[] }[];
}

export interface SpatialScores {
  queries: number;
  /** Questions answered as labelled (right object, candidates for an ambiguity, nothing for null). */
  accuracy: number;
  by_kind: Record<'object' | 'ambiguous' | 'unknown', { n: number; correct: number }>;
  misses: string[];
}

/**
 * Locates every object, then asks every question through `find({query})` — or, with an `embedder`,
 * `findAsked({query})` (the encoder after spelling and WordNet; encoder-match.ts).
 */
export async function evalSpatial(
  opts: { file?: string; wordnet?: WordNet | null; embedder?: Embedder } = {},
): Promise<SpatialScores> {
  const data = read<SpatialData>(opts.file ?? 'eval/spatial.json');
  const h = scratch();
  const wordnet = opts.wordnet === null ? undefined : (opts.wordnet ?? sharedWordNet());
  const svc = createSpatialService({
    db: h.db,
    clock: h.clock,
    entities: h.entities,
    audit: h.audit,
    config: { location_decay_halflife_hours: 24 },
    wordnet,
    embedder: opts.embedder,
  });
  try {
    for (const o of data.objects) {
      svc.locate(LocateInput.parse(o));
      h.clock.advance(600);
    }
    const byKind: SpatialScores['by_kind'] = {
      object: { n: 0, correct: 0 },
      ambiguous: { n: 0, correct: 0 },
      unknown: { n: 0, correct: 0 },
    };
    const misses: string[] = [];
    let correct = 0;
    for (const q of data.queries) {
      const input = FindInput.parse({ query: q.query });
      const out = opts.embedder ? await svc.findAsked(input) : svc.find(input);
      const kind = q.ambiguous ? 'ambiguous' : q.expect ? 'object' : 'unknown';
      const names = out.candidates.map((c) => c.entity_name).sort();
      const ok =
        kind === 'ambiguous'
          ? !out.found && names.join() === [...q.ambiguous!].sort().join()
          : kind === 'object'
            ? out.found && out.entity_name === q.expect
            : !out.found && names.length === 0;
      byKind[kind].n++;
      if (ok) correct++, byKind[kind].correct++;
      else
        misses.push(
          `[${kind}] "${q.query}": ${out.found ? `found ${out.entity_name}` : `not found, candidates [${names.join(', ')}]`}`,
        );
    }
    return { queries: data.queries.length, accuracy: ratio(correct, data.queries.length), by_kind: byKind, misses };
  } finally {
    h.close();
  }
}
