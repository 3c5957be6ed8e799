/**
 * Tier 2 operations, named as in the seed (SPEC §6): each declared once for HTTP and MCP
 * (lib/operation.ts); InfluxDB line protocol stays a hand route (http/routes/influx.routes.ts).
 */
import { operationTable } from '../../lib/operation.js';
import { type Actor, actorOf } from '../audit/audit.repo.js';
import * as T from './timeseries.schemas.js';
import type { TimeseriesService } from './timeseries.service.js';

type S = {
  timeseries: Pick<TimeseriesService, 'record' | 'recordBulk' | 'queryStream'>;
  prune: (input: T.PruneInput, actor: Actor) => unknown;
};

export const timeseriesOperations = operationTable<S>('timeseries', (op) => [
  op({
    name: 'record',
    http: { method: 'POST', path: '/record' },
    input: T.RecordInput,
    output: T.RecordOutput,
    summary: 'Store one sensor reading (committed before the answer)',
    description:
      'Store one reading from a sensor or an observation: a number (temperature=21.5), a category (presence="home", mood="calm") ' +
      'or an object of parts (mood={"mood":"focused","confidence":0.87}). Entities are created if new.',
    call: (s, input) => s.timeseries.record(input),
  }),
  op({
    name: 'record_bulk',
    http: { method: 'POST', path: '/record/bulk' },
    mcp: false,
    input: T.RecordBulkInput,
    output: T.RecordBulkOutput,
    summary: 'Store many readings; valid items commit together',
    description: 'Store many readings at once (HTTP only; MCP clients call record).',
    call: (s, input) => s.timeseries.recordBulk(input),
  }),
  op({
    name: 'query_stream',
    http: { method: 'POST', path: '/query_stream' },
    input: T.QueryStreamInput,
    output: T.QueryStreamOutput,
    summary: 'Readings of one metric: raw, or hour/day/week rollups',
    description:
      'Read a metric of an entity over time: raw points, or hour/day/week rollups (count, avg, min, max, p10, p90, mode). ' +
      'Use day rollups for questions like "how warm was the bedroom this week".',
    annotations: { readOnlyHint: true },
    call: (s, input) => s.timeseries.queryStream(input),
  }),
  op({
    name: 'prune',
    http: { method: 'POST', path: '/prune' },
    input: T.PruneInput,
    output: T.PruneOutput,
    summary: 'Delete raw readings older than RETENTION_DAYS once rolled up',
    description:
      'Delete raw readings older than the retention window (RETENTION_DAYS) that are already rolled up; rollups are kept. dry_run previews.',
    annotations: { destructiveHint: true },
    example: { dry_run: true },
    call: (s, input, ctx) => s.prune(input, actorOf(ctx)),
  }),
]);
