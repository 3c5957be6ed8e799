/**
 * Cross-tier read models: `get_profile` (everything about one entity) and `get_context`
 * (a relevance-filtered snapshot for a prompt). Other tiers contribute sections through
 * `ProfileSection` providers so this file does not grow with each tier.
 */
import type { Clock } from '../../lib/clock.js';
import type { EntitiesRepo, EntityRow } from '../entities/entities.repo.js';
import { effectiveConfidence, type DecayConfig } from '../memory/decay.js';
import type { MemoryService } from '../memory/memory.service.js';
import type { GetContextInput, ProfileInput, RecallMode } from '../memory/memory.schemas.js';
import type { RelationsService } from '../memory/relations.service.js';
import { NOT_SURE } from '../memory/recall-text.js';
import { pack, type ContextItem } from './budget.js';
import type { CrossQueryInput, GetContextBudgetInput } from './context.schemas.js';

/** A tier's part of a profile: structured data under `key`, and lines for the text `result`. */
export interface ProfileSection {
  key: string;
  build(entity: EntityRow): { data: unknown; lines: string[] } | null;
}

/** A tier's candidates for a budgeted context (open tasks, active intentions, upcoming events, readings). */
export interface ContextSource {
  name: string;
  collect(args: { entity?: EntityRow; query?: string; includeReadings: boolean }): ContextItem[];
}

/** A tier's hits for `cross_query`, labelled with the tier. */
export interface CrossSource {
  tier: string;
  search(query: string, entity: EntityRow | undefined, topK: number): unknown[] | Promise<unknown[]>;
  /** True when this tier answers the question better than memories do (where-questions → locations): its hits come first. */
  leads?(query: string): boolean;
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
  const sources: ContextSource[] = [];
  const crossSources: CrossSource[] = [];

  /** The recall every read model here makes: a little recency, nothing filtered out, current facts only. */
  const recallFor = (query: string, entity: EntityRow | undefined, topK: number, mode: RecallMode, possible: boolean) =>
    memory.recall({
      query,
      entity_name: entity?.name,
      top_k: topK,
      mode,
      recency_weight: 0.2,
      min_confidence: 0,
      min_trust: 0,
      include_superseded: false,
      explain: false,
      possible,
    });

  function memoriesOf(entity: EntityRow, limit: number) {
    const now = clock.now();
    return memory.repo
      .ofEntity(entity.id)
      .map((m) => ({
        id: m.id,
        fact: m.fact,
        category: m.category,
        confidence: m.confidence,
        effective_confidence: Math.round(effectiveConfidence(m, now, decay) * 10_000) / 10_000,
        source: m.source,
        source_trust: m.source_trust,
        fact_key: m.fact_key,
        last_confirmed: m.last_confirmed,
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
    addSource(source: ContextSource) {
      sources.push(source);
    },
    addCrossSource(source: CrossSource) {
      crossSources.push(source);
    },

    /** Greedily fills a token budget with the most relevant items of every tier (see budget.ts). */
    async getContextBudget(input: GetContextBudgetInput) {
      const entity = input.entity_name ? entities.get(input.entity_name) : undefined;
      const warnings: string[] = [];
      const candidates: ContextItem[] = [];
      if (input.query) {
        const r = await recallFor(input.query, entity, 50, input.recall_mode, input.possible);
        warnings.push(...r.warnings);
        const top = r.results[0]?.score || 1;
        for (const m of r.results)
          candidates.push({
            tier: 'memory',
            id: m.id,
            text: `${m.entity_name}: ${m.fact}`,
            score: 0.5 + 0.5 * (m.score / top),
          });
        // Possible memories go in after every confident one and say so in their own line.
        const topP = r.possible[0]?.score || 1;
        for (const m of r.possible)
          candidates.push({
            tier: 'memory',
            id: m.id,
            text: `(not sure, possibly related) ${m.entity_name}: ${m.fact}`,
            score: 0.1 + 0.2 * (m.score / topP),
            low_confidence: true,
          });
      } else {
        const pool = entity
          ? memoriesOf(entity, 200).map((m) => ({ ...m, entity_name: entity.name }))
          : memory.repo
              .active()
              .slice(-200)
              .map((m) => ({ ...m, effective_confidence: m.confidence }));
        for (const m of pool)
          candidates.push({
            tier: 'memory',
            id: m.id,
            text: `${m.entity_name}: ${m.fact}`,
            score: 0.4 + 0.5 * m.effective_confidence,
          });
      }
      if (entity)
        for (const r of relations.list(entity.id))
          candidates.push({ tier: 'relation', id: r.id, text: relations.sentence(r), score: 0.45 });
      for (const src of sources)
        candidates.push(...src.collect({ entity, query: input.query, includeReadings: input.include_readings }));
      const packed = pack(candidates, input.token_budget);
      const result = packed.items.map((i) => i.text).join('\n') || 'Nothing relevant is remembered.';
      return { result, entity_name: entity?.name ?? null, ...packed, mode_used: input.recall_mode, warnings };
    },

    /** One query across memories and the other tiers' searches, each hit labelled by tier. */
    async crossQuery(input: CrossQueryInput) {
      const entity = input.entity_name ? entities.get(input.entity_name) : undefined;
      const r = await recallFor(input.query, entity, input.top_k, 'hybrid', input.possible);
      const results: { tier: string; [k: string]: unknown }[] = r.results.map((m) => ({ tier: 'memory', ...m }));
      const possible = r.possible.map((m) => ({ tier: 'memory', ...m }));
      let lead = 0;
      for (const src of crossSources) {
        const hits = (await src.search(input.query, entity, input.top_k)).map((hit) => ({
          tier: src.tier,
          ...(hit as object),
        }));
        if (src.leads?.(input.query)) results.splice(lead, 0, ...hits), (lead += hits.length);
        else results.push(...hits);
      }
      const line = (x: Record<string, unknown>) =>
        x.tier === 'memory'
          ? `[memory] ${x.entity_name}: ${x.fact}`
          : `[${x.tier}] ${String(x.text ?? x.snippet ?? JSON.stringify(x))}`;
      const lines = results.length ? results.map(line) : ['Nothing known answers that.'];
      if (possible.length) lines.push(NOT_SURE, ...possible.map(line));
      return { result: lines.join('\n'), results, possible, warnings: r.warnings };
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
      type Mem = {
        id: number;
        entity_name: string;
        fact: string;
        category: string;
        effective_confidence: number;
        score?: number;
      };
      let mems: Mem[];
      let possible: (Mem & { low_confidence: true })[] = [];
      const warnings: string[] = [];
      if (input.query) {
        const r = await recallFor(input.query, entity, input.top_k, 'hybrid', input.possible);
        mems = r.results;
        possible = r.possible;
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
      if (possible.length) lines.push(NOT_SURE, ...possible.map((m) => `- ${m.entity_name}: ${m.fact}`));
      const result = lines.length ? lines.join('\n') : 'Nothing relevant is remembered.';
      return {
        result,
        entity_name: entity?.name ?? null,
        memories: mems,
        possible,
        relations: rels,
        ...extra.data,
        warnings,
      };
    },
  };
}
export type ContextService = ReturnType<typeof createContextService>;
