/**
 * Tier 5 eval: `evalIntentions()` on eval/intentions.json (does check_intentions fire exactly the
 * intentions a person would expect?), on a scratch database.
 */
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import type { Embedder } from '../../src/ai/types.js';
import { sharedWordNet, type WordNet } from '../../src/ai/wordnet.js';
import { createAliasesService } from '../../src/tiers/entities/aliases.service.js';
import { createAliasesRepo } from '../../src/tiers/entities/aliases.repo.js';
import { createRelationsService } from '../../src/tiers/memory/relations.service.js';
import { CheckIntentionsInput, IntendInput } from '../../src/tiers/prospective/prospective.schemas.js';
import { createProspectiveService, type IntentionTuning } from '../../src/tiers/prospective/prospective.service.js';
import { ratio, read, scratch } from './common.js';

interface IntentionData {
  /** The household, when the set gives it: people (type, meta such as `age`, aliases) and relations between them. */
  people?: { name: string; type?: string; meta?: Record<string, unknown>; aliases?: string[] }[];
  relations?: [string, string, string][];
  intentions: { id: string; entity_name: string; trigger_text: string; action_text: string }[];
  cases: { text: string; entity_name?: string; kind: string; fire: string[] }[];
}

export interface IntentionScores {
  cases: number;
  /** Cases whose fired set is exactly the expected one. */
  exact: number;
  /** Share of expected firings that fired. */
  fire_recall: number;
  /** Share of firings that were expected. */
  fire_precision: number;
  /** Share of should-not-fire cases that fired nothing. */
  quiet_rate: number;
  by_kind: Record<string, { n: number; exact: number }>;
  misses: string[];
}

/** Fires every case against all intentions (`once = false`, so a firing does not hide later cases). */
export async function evalIntentions(
  opts: {
    embedder?: Embedder | null;
    tuning?: IntentionTuning;
    file?: string;
    wordnet?: WordNet | null;
    /** false: no relations given to the service (the household is still seeded): role words stay unresolved. */
    roles?: boolean;
  } = {},
): Promise<IntentionScores> {
  const data = read<IntentionData>(opts.file ?? 'eval/intentions.json');
  const h = scratch();
  const embedder = opts.embedder === undefined ? createLocalEmbedder() : opts.embedder;
  const wordnet = opts.wordnet === null ? undefined : (opts.wordnet ?? sharedWordNet());
  const relations = createRelationsService(h);
  const aliases = createAliasesService({ ...h, repo: createAliasesRepo(h.db) });
  for (const p of data.people ?? []) {
    const e = h.entities.ensure(p.name, p.type ?? 'person');
    h.entities.setTypeMeta(e.id, p.type ?? 'person', p.meta ?? {});
    for (const alias of p.aliases ?? []) aliases.add({ entity_name: p.name, alias });
  }
  for (const [a, rel_type, b] of data.relations ?? []) relations.relate({ entity_a: a, rel_type, entity_b: b });
  const svc = createProspectiveService({
    db: h.db,
    clock: h.clock,
    entities: h.entities,
    audit: h.audit,
    embedder,
    tuning: opts.tuning,
    wordnet,
    relations: opts.roles === false ? undefined : relations,
  });
  const label = new Map<number, string>();
  try {
    for (const i of data.intentions) {
      const { id: _label, ...input } = i; // the data set's label is not an input (unknown keys are refused)
      const r = await svc.intend(IntendInput.parse({ ...input, once: false }));
      label.set(r.id, i.id);
    }
    let exact = 0,
      expected = 0,
      hit = 0,
      fired = 0,
      right = 0,
      quiet = 0,
      negatives = 0;
    const byKind: IntentionScores['by_kind'] = {};
    const misses: string[] = [];
    for (const c of data.cases) {
      const out = await svc.check(CheckIntentionsInput.parse({ text: c.text, entity_name: c.entity_name }));
      const got = out.triggered.map((t) => label.get(t.id)!).sort();
      const want = [...c.fire].sort();
      const ok = got.join() === want.join();
      const k = (byKind[c.kind] ??= { n: 0, exact: 0 });
      k.n++;
      if (ok) exact++, k.exact++;
      else
        misses.push(
          `[${c.kind}] "${c.text}"${c.entity_name ? ` (${c.entity_name})` : ''}: fired [${got.join(', ')}], expected [${want.join(', ')}]`,
        );
      expected += want.length;
      hit += want.filter((w) => got.includes(w)).length;
      fired += got.length;
      right += got.filter((g) => want.includes(g)).length;
      if (!want.length) negatives++, got.length || quiet++;
    }
    return {
      cases: data.cases.length,
      exact: ratio(exact, data.cases.length),
      fire_recall: ratio(hit, expected),
      fire_precision: ratio(right, fired),
      quiet_rate: ratio(quiet, negatives),
      by_kind: byKind,
      misses,
    };
  } finally {
    h.close();
  }
}
