/**
 * Cross-tier read models: `get_profile` (everything about one entity) and `get_context`
 * (a relevance-filtered snapshot for a prompt). Other tiers contribute sections through
 * `ProfileSection` providers so this file does not grow with each tier.
 */
import type { Clock } from '../../lib/clock.js';
import type { EntitiesRepo, EntityRow } from '../entities/entities.repo.js';
import { effectiveConfidence, type DecayConfig } from '../memory/decay.js';
import type { MemoryService } from '../memory/memory.service.js';
import type { GetContextInput, ProfileInput } from '../memory/memory.schemas.js';
import type { RelationsService } from '../memory/relations.service.js';

/** A tier's part of a profile: structured data under `key`, and lines for the text `result`. */
export interface ProfileSection {
  key: string;
  build(entity: EntityRow): { data: unknown; lines: string[] } | null;
}

export function createContextService(deps: {
  clock: Clock;
  entities: EntitiesRepo;
  memory: MemoryService;
  relations: RelationsService;
  decay: DecayConfig;
  sections?: ProfileSection[];
}) {
  const { clock, entities, memory, relations, decay } = deps;
  const sections = deps.sections ?? [];

  function memoriesOf(entity: EntityRow, limit: number) {
    const now = clock.now();
    return memory.repo
      .ofEntity(entity.id)
      .map((m) => ({
        id: m.id, fact: m.fact, category: m.category, confidence: m.confidence,
        effective_confidence: Math.round(effectiveConfidence(m, now, decay) * 10_000) / 10_000,
        source: m.source, source_trust: m.source_trust, fact_key: m.fact_key, last_confirmed: m.last_confirmed,
      }))
      .sort((a, b) => b.effective_confidence - a.effective_confidence || b.last_confirmed - a.last_confirmed)
      .slice(0, limit);
  }

  function extraSections(entity: EntityRow) {
    const data: Record<string, unknown> = {};
    const lines: string[] = [];
    for (const s of sections) {
      const part = s.build(entity);
      if (!part) continue;
      data[s.key] = part.data;
      lines.push(...part.lines);
    }
    return { data, lines };
  }

  return {
    /** Add a tier's section (called while wiring services). */
    addSection(section: ProfileSection) {
      sections.push(section);
    },

    getProfile(input: ProfileInput) {
      const entity = entities.get(input.entity_name);
      const mems = memoriesOf(entity, 1000);
      const rels = relations.list(entity.id);
      const extra = extraSections(entity);
      const lines = [
        `${entity.name} (${entity.type})`,
        ...mems.map((m) => `- [${m.category}] ${m.fact}`),
        ...rels.map((r) => `- ${relations.sentence(r)}`),
        ...extra.lines,
      ];
      return { result: lines.join('\n'), entity, memories: mems, relations: rels, ...extra.data };
    },

    async getContext(input: GetContextInput) {
      const entity = input.entity_name ? entities.get(input.entity_name) : undefined;
      let mems: { id: number; entity_name: string; fact: string; category: string; effective_confidence: number; score?: number }[];
      const warnings: string[] = [];
      if (input.query) {
        const r = await memory.recall({
          query: input.query, entity_name: entity?.name, top_k: input.top_k, mode: 'hybrid', recency_weight: 0.2,
          min_confidence: 0, min_trust: 0, include_superseded: false, explain: false,
        });
        mems = r.results;
        warnings.push(...r.warnings);
      } else {
        mems = memoriesOf(entity!, input.top_k).map((m) => ({ ...m, entity_name: entity!.name }));
      }
      const rels = entity ? relations.list(entity.id) : [];
      const extra = entity ? extraSections(entity) : { data: {}, lines: [] };
      const lines = [
        ...mems.map((m) => `- ${m.entity_name}: ${m.fact}`),
        ...rels.map((r) => `- ${relations.sentence(r)}`),
        ...extra.lines,
      ];
      const result = lines.length ? lines.join('\n') : 'Nothing relevant is remembered.';
      return { result, entity_name: entity?.name ?? null, memories: mems, relations: rels, ...extra.data, warnings };
    },
  };
}
export type ContextService = ReturnType<typeof createContextService>;
