/**
 * Pattern engine and trend operations (SPEC §6): each declared once for HTTP and MCP
 * (lib/operation.ts). Descriptions are written for the assistant that calls them.
 */
import { operationTable } from '../lib/operation.js';
import type { PatternEngine } from './engine.js';
import * as P from './patterns.schemas.js';
import type { createTrends } from './trends.js';

type S = { patterns: Pick<PatternEngine, 'run' | 'promoted' | 'detectors'>; trends: ReturnType<typeof createTrends> };

export const patternsOperations = operationTable<S>('patterns', (op) => [
  op({
    name: 'run_patterns',
    http: { method: 'POST', path: '/patterns/run' },
    mcp: false,
    input: P.PatternsRunInput,
    output: P.PatternsRunOutput,
    summary: 'Run the detectors now and promote what they find',
    description: 'Run the pattern detectors now and promote what they find (HTTP only).',
    example: { dry_run: true, detectors: ['stable_value'] },
    call: (s, input) => s.patterns.run(input),
  }),
  op({
    name: 'list_patterns',
    http: { method: 'GET', path: '/patterns' },
    mcp: false,
    input: P.PatternsListInput,
    output: P.PatternsListOutput,
    summary: 'Detectors and the patterns they promoted',
    description: 'The detectors and the patterns they promoted, optionally of one entity (HTTP only).',
    annotations: { readOnlyHint: true },
    example: { entity_name: 'fuzz room' },
    call: (s, input) => {
      const promoted = s.patterns.promoted(input.entity_name);
      return { result: `${promoted.length} promoted patterns`, detectors: s.patterns.detectors(), promoted };
    },
  }),
  op({
    name: 'get_trends',
    http: { method: 'POST', path: '/get_trends' },
    input: P.GetTrendsInput,
    output: P.GetTrendsOutput,
    summary: 'Plain-language trend of a metric over a period',
    description:
      'Summarise how a metric has been going: level, range, rising/falling/steady with slope per day, and the change against the ' +
      'previous period of the same length. The period is the last days × 24 hours (days 1 = "the last 24 hours"), or with ' +
      'whole_days the calendar days that have ended (days 1 = "yesterday"); the summary names it and never sets part of a day ' +
      'against a whole one. Use for "has the bedroom been colder this week?".',
    annotations: { readOnlyHint: true },
    example: { entity_name: 'fuzz room', metric: 'temperature', days: 7 },
    call: (s, input) => s.trends(input),
  }),
]);
