/** Tier 2 routes (SPEC §6): the seed's paths; InfluxDB line protocol lives in influx.routes.ts. */
import type { Services } from '../../services.js';
import * as T from '../../tiers/timeseries/timeseries.schemas.js';
import * as S from '../../tiers/schedule/schedule.schemas.js';
import { routes } from '../route.js';

export const timeseriesRoutes = (s: Services) =>
  routes('timeseries', (r) => {
    r.post(
      '/record',
      T.RecordInput,
      (b) => s.timeseries.record(b),
      'Store one sensor reading (committed before the answer)',
    );
    r.post(
      '/record/bulk',
      T.RecordBulkInput,
      (b) => s.timeseries.recordBulk(b),
      'Store many readings; valid items commit together',
    );
    r.post(
      '/query_stream',
      T.QueryStreamInput,
      (b) => s.timeseries.queryStream(b),
      'Readings of one metric: raw, or hour/day/week rollups',
    );
    r.post(
      '/prune',
      T.PruneInput,
      (b) => s.prune(b, 'http'),
      'Delete raw readings older than RETENTION_DAYS once rolled up',
    );
  });

export const scheduleRoutes = (s: Services) =>
  routes('schedule', (r) => {
    r.post(
      '/schedule',
      S.ScheduleInput,
      (b) => s.schedule.schedule(b, 'http'),
      'Add a one-off or recurring event (recurrence: an RRULE or daily, weekly, monthly)',
    );
    r.get('/schedule', S.ScheduleQueryString, (q) => s.schedule.list(q), 'Occurrences of scheduled events in a window');
  });
