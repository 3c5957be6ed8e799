/**
 * Schedule operations, named as in the seed (SPEC §6): each declared once for HTTP and MCP
 * (lib/operation.ts). Descriptions are written for the assistant that calls them.
 */
import { operationTable } from '../../lib/operation.js';
import { actorOf } from '../audit/audit.repo.js';
import * as S from './schedule.schemas.js';
import type { ScheduleService } from './schedule.service.js';

type Svc = { schedule: ScheduleService };

export const scheduleOperations = operationTable<Svc>('schedule', (op) => [
  op({
    name: 'schedule',
    http: { method: 'POST', path: '/schedule' },
    input: S.ScheduleInput,
    output: S.ScheduleOutput,
    summary: 'Add a one-off or recurring event (recurrence: an RRULE or daily, weekly, monthly)',
    description:
      'Add an event for a person or the house: one-off, or recurring with recurrence set to an RRULE (FREQ=WEEKLY;BYDAY=TU,TH) or daily/weekly/monthly. ' +
      'Times are local to the home; upcoming events appear in get_profile and get_context.',
    call: (s, input, ctx) => s.schedule.schedule(input, actorOf(ctx)),
  }),
  op({
    name: 'list_schedule',
    http: { method: 'GET', path: '/schedule' },
    mcp: false,
    input: S.ScheduleQueryString,
    output: S.ScheduleListOutput,
    summary: 'Occurrences of scheduled events in a window',
    description: 'Occurrences of scheduled events in a window (HTTP only).',
    annotations: { readOnlyHint: true },
    call: (s, input) => s.schedule.list(input),
  }),
]);
