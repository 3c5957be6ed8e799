/** Trend tool, named as in the seed. */
import * as P from '../../patterns/patterns.schemas.js';
import type { Services } from '../../services.js';
import { tool, type ToolTable } from '../tool.js';

export function patternsTools(table: ToolTable, s: Services): void {
  tool(
    table,
    'get_trends',
    'Summarise how a metric has been going: level, range, rising/falling/steady with slope per day, and the change against the ' +
      'previous period of the same length. The period is the last days × 24 hours (days 1 = "the last 24 hours"), or with ' +
      'whole_days the calendar days that have ended (days 1 = "yesterday"); the summary names it and never sets part of a day ' +
      'against a whole one. Use for "has the bedroom been colder this week?".',
    P.GetTrendsInput,
    (a) => s.trends(a),
    { readOnlyHint: true },
  );
}
