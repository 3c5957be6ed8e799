/**
 * Every tier's operation table (lib/operation.ts), in the order the doors list them. The HTTP app
 * registers a route for each, the MCP server a tool, `docs/mcp-tools.md`, the test helpers' tool list
 * and the fuzz seeds read them from here. A new operation of an existing tier touches that tier's
 * `<tier>.operations.ts` (and its service) only; a new tier adds one line here.
 */
import type { OperationTable } from './lib/operation.js';
import type { Services } from './services.js';
import { patternsOperations } from './patterns/patterns.operations.js';
import { markdownOperations } from './io/markdown/markdown.operations.js';
import { askOperations } from './tiers/ask/ask.operations.js';
import { entitiesOperations } from './tiers/entities/entities.operations.js';
import { scheduleOperations } from './tiers/schedule/schedule.operations.js';
import { timeseriesOperations } from './tiers/timeseries/timeseries.operations.js';
import { contextOperations } from './tiers/context/context.operations.js';
import { episodicOperations } from './tiers/episodic/episodic.operations.js';
import { memoryOperations } from './tiers/memory/memory.operations.js';
import { prospectiveOperations } from './tiers/prospective/prospective.operations.js';
import { spatialOperations } from './tiers/spatial/spatial.operations.js';
import { voicesOperations } from './tiers/voices/voices.operations.js';
import { workingOperations } from './tiers/working/working.operations.js';

export const OPERATION_TABLES: readonly OperationTable<Services>[] = [
  memoryOperations,
  timeseriesOperations,
  scheduleOperations,
  patternsOperations,
  markdownOperations,
  entitiesOperations,
  askOperations,
  contextOperations,
  episodicOperations,
  workingOperations,
  prospectiveOperations,
  spatialOperations,
  voicesOperations,
];
