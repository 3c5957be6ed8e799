/** Schedule events and their occurrences (SPEC §3, `schedule` tool, `GET /schedule`). */
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { invalid } from '../../lib/errors.js';
import { toEpoch } from '../../lib/schema.js';
import { wallTime } from '../../lib/tz.js';
import type { Actor, AuditRepo } from '../audit/audit.repo.js';
import type { EntitiesRepo } from '../entities/entities.repo.js';
import { occurrences } from './recurrence.js';
import { createScheduleRepo } from './schedule.repo.js';
import type { ScheduleInput, ScheduleQuery } from './schedule.schemas.js';

export function createScheduleService(deps: {
  db: Db;
  clock: Clock;
  entities: EntitiesRepo;
  audit: AuditRepo;
  timeZone: string;
}) {
  const { db, clock, entities, audit, timeZone } = deps;
  const repo = createScheduleRepo(db);

  const when = (ts: number) => {
    const w = wallTime(ts, timeZone);
    const d = new Date(Date.UTC(w.year, w.month - 1, w.day));
    return `${d.toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' })} ${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}`;
  };

  function upcoming(q: { entityId?: number; from: number; to: number; limit: number }) {
    const rows = repo.events(q.entityId);
    const out: {
      event_id: number;
      entity_name: string;
      title: string;
      start_ts: number;
      end_ts: number | null;
      recurrence: string | null;
      when: string;
    }[] = [];
    for (const e of rows) {
      if (!e.recurrence && e.start_ts > q.to) continue;
      const duration = e.end_ts === null ? null : e.end_ts - e.start_ts;
      for (const ts of occurrences(e.start_ts, e.recurrence, timeZone, q.from, q.to, q.limit)) {
        out.push({
          event_id: e.id,
          entity_name: e.entity_name,
          title: e.title,
          start_ts: ts,
          end_ts: duration === null ? null : ts + duration,
          recurrence: e.recurrence,
          when: when(ts),
        });
      }
    }
    return out.sort((a, b) => a.start_ts - b.start_ts).slice(0, q.limit);
  }

  return {
    upcoming,
    /** `kept.created` (only `hearth import`) keeps the creation time an event had in the store it is copied from. */
    schedule(input: ScheduleInput, actor: Actor = 'system', kept?: { created: number }) {
      const start = toEpoch(input.start_ts);
      const end = toEpoch(input.end_ts);
      if (end !== undefined && end < start) throw invalid('end_ts: before start_ts');
      return db.transaction(() => {
        const e = entities.ensure(input.entity_name, input.entity_type ?? 'person');
        const id = repo.insert({
          entity_id: e.id,
          title: input.title,
          start_ts: start,
          end_ts: end ?? null,
          recurrence: input.recurrence ?? null,
          meta: JSON.stringify(input.meta ?? {}),
          created: kept?.created ?? clock.now(),
        });
        audit.record(actor, 'schedule.add', id, null, input);
        const next = upcoming({ entityId: e.id, from: clock.now(), to: clock.now() + 366 * 86_400, limit: 50 }).find(
          (o) => o.event_id === id,
        );
        return {
          result: `Scheduled for ${e.name}: ${input.title}${input.recurrence ? ` (${input.recurrence})` : ''}${next ? `, next ${next.when}` : ''}`,
          id,
          next_ts: next?.start_ts ?? null,
        };
      })();
    },
    list(q: ScheduleQuery) {
      const from = toEpoch(q.from) ?? clock.now();
      const to = toEpoch(q.to) ?? from + 7 * 86_400;
      if (to < from) throw invalid('to: before from');
      const entityId = q.entity_name === undefined ? undefined : entities.get(q.entity_name).id;
      const items = upcoming({ entityId, from, to, limit: q.limit });
      const result = items.length
        ? items.map((o) => `- ${o.when} ${o.entity_name}: ${o.title}`).join('\n')
        : 'Nothing scheduled in that window.';
      return { result, from, to, occurrences: items };
    },
  };
}
export type ScheduleService = ReturnType<typeof createScheduleService>;
