/**
 * What the other tiers contribute to the cross-tier read models (tiers/context/): profile sections
 * (latest readings, the week's schedule), `get_context_budget` sources (readings, schedule, open
 * tasks) and `cross_query` sources (readings, where an object is, past sessions). Registered once by
 * createServices (src/services.ts), in this order, so the context service does not grow with each tier.
 */
import type { Clock } from '../lib/clock.js';
import type { ContextService } from '../tiers/context/context.service.js';
import type { EpisodicService } from '../tiers/episodic/episodic.service.js';
import type { ScheduleService } from '../tiers/schedule/schedule.service.js';
import { isWhereQuestion } from '../tiers/spatial/object-match.js';
import type { SpatialService } from '../tiers/spatial/spatial.service.js';
import type { TimeseriesService } from '../tiers/timeseries/timeseries.service.js';
import type { WorkingService } from '../tiers/working/working.service.js';

export interface ContextPartsDeps {
  context: ContextService;
  clock: Clock;
  timeseries: TimeseriesService;
  schedule: ScheduleService;
  spatial: SpatialService;
  working: WorkingService;
  episodic: EpisodicService;
}

export function registerContextParts(deps: ContextPartsDeps): void {
  const { context, clock, timeseries, schedule, spatial, working, episodic } = deps;

  context.addSection({
    key: 'readings',
    build(entity) {
      const latest = timeseries.latest(entity.id);
      if (!latest.length) return null;
      return {
        data: latest,
        lines: latest.map(
          (r) =>
            `- ${r.metric}: ${typeof r.value === 'object' ? JSON.stringify(r.value) : r.value}${r.unit ? ` ${r.unit}` : ''}`,
        ),
      };
    },
  });
  context.addSection({
    key: 'schedule',
    build(entity) {
      const items = schedule.upcoming({
        entityId: entity.id,
        from: clock.now(),
        to: clock.now() + 7 * 86_400,
        limit: 20,
      });
      if (!items.length) return null;
      return { data: items, lines: items.map((o) => `- ${o.when}: ${o.title}`) };
    },
  });

  const readingText = (r: { entity_name: string; metric: string; value: unknown; unit: string | null }) =>
    `${r.entity_name} ${r.metric}: ${typeof r.value === 'object' ? JSON.stringify(r.value) : String(r.value)}${r.unit ? ` ${r.unit}` : ''}`;
  /** An entity's latest readings, or the series whose names match the query, each with a match score. */
  const readingsFor = (entity: { id: number; name: string } | undefined, query: string | undefined, limit?: number) =>
    entity
      ? timeseries.latest(entity.id).map((r) => ({ ...r, entity_name: entity.name, score: 0.5 }))
      : query
        ? timeseries.matchSeries(query, limit)
        : [];
  context.addSource({
    name: 'readings',
    collect({ entity, query, includeReadings }) {
      if (!includeReadings) return [];
      return readingsFor(entity, query).map((r) => ({
        tier: 'reading' as const,
        id: `${r.entity_name}/${r.metric}`,
        text: readingText(r),
        score: 0.3 + 0.3 * r.score,
      }));
    },
  });
  context.addSource({
    name: 'schedule',
    collect({ entity }) {
      const items = schedule.upcoming({
        entityId: entity?.id,
        from: clock.now(),
        to: clock.now() + (entity ? 7 : 2) * 86_400,
        limit: 20,
      });
      return items.map((o) => ({
        tier: 'schedule' as const,
        id: o.event_id,
        text: `${o.when} ${o.entity_name}: ${o.title}`,
        score: 0.55,
      }));
    },
  });
  context.addCrossSource({
    tier: 'reading',
    search: (query, entity, topK) =>
      readingsFor(entity, query, topK)
        .slice(0, topK)
        .map((r) => ({ ...r, text: readingText(r) })),
  });

  // cross_query: where an object is, first for a where-question (a memory about a spare key is not the answer).
  context.addCrossSource({
    tier: 'location',
    leads: isWhereQuestion,
    search: (query) => {
      const out = spatial.find({ query });
      if (out.found)
        return [
          {
            text: out.result,
            entity_name: out.entity_name,
            container_name: out.container_name,
            confidence: out.confidence,
            age_text: out.age_text,
          },
        ];
      if (!isWhereQuestion(query)) return [];
      return out.candidates.map((c) => ({
        text: `${c.entity_name}: ${c.container_name}, last confirmed ${c.age_text}`,
        entity_name: c.entity_name,
        container_name: c.container_name,
        confidence: c.confidence,
        age_text: c.age_text,
      }));
    },
  });
  context.addSource({
    name: 'tasks',
    collect({ entity }) {
      const { tasks } = working.wmList({ status: 'open', entity_name: entity?.name, limit: 20 });
      return tasks.map((t) => ({
        tier: 'task' as const,
        id: t.task_id,
        text: `Open task: ${t.task_name} (${t.slot_count} notes)`,
        score: 0.5,
      }));
    },
  });
  context.addCrossSource({
    tier: 'session',
    search: async (query, entity, topK) =>
      (await episodic.searchSessions({ query, entity_name: entity?.name, limit: topK })).results.map((r) => ({
        ...r,
        text: r.snippet,
      })),
  });
}
