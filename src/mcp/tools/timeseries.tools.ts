/** Tier 2 tools, named as in the seed. */
import type { Services } from '../../services.js';
import type { Actor } from '../../tiers/audit/audit.repo.js';
import * as T from '../../tiers/timeseries/timeseries.schemas.js';
import * as S from '../../tiers/schedule/schedule.schemas.js';
import { tool, type ToolTable } from '../tool.js';

export function timeseriesTools(table: ToolTable, s: Services, actor: Actor): void {
  tool(
    table,
    'record',
    'Store one reading from a sensor or an observation: a number (temperature=21.5), a category (presence="home", mood="calm") ' +
      'or an object of parts (mood={"mood":"focused","confidence":0.87}). Entities are created if new.',
    T.RecordInput,
    (a) => s.timeseries.record(a),
  );
  tool(
    table,
    'query_stream',
    'Read a metric of an entity over time: raw points, or hour/day/week rollups (count, avg, min, max, p10, p90, mode). ' +
      'Use day rollups for questions like "how warm was the bedroom this week".',
    T.QueryStreamInput,
    (a) => s.timeseries.queryStream(a),
    { readOnlyHint: true },
  );
  tool(
    table,
    'prune',
    'Delete raw readings older than the retention window (RETENTION_DAYS) that are already rolled up; rollups are kept. dry_run previews.',
    T.PruneInput,
    (a) => s.prune(a, actor),
    { destructiveHint: true },
  );
}

export function scheduleTools(table: ToolTable, s: Services, actor: Actor): void {
  tool(
    table,
    'schedule',
    'Add an event for a person or the house: one-off, or recurring with recurrence set to an RRULE (FREQ=WEEKLY;BYDAY=TU,TH) or daily/weekly/monthly. ' +
      'Times are local to the home; upcoming events appear in get_profile and get_context.',
    S.ScheduleInput,
    (a) => s.schedule.schedule(a, actor),
  );
}
