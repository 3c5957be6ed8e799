/** Cross-tier routes: budgeted context, cross_query, LLM extraction (SPEC §6). */
import * as C from '../../tiers/context/context.schemas.js';
import { ExtractInput } from '../../tiers/memory/extract.js';
import type { Services } from '../../services.js';
import { routes } from '../route.js';

export const contextRoutes = (s: Services) =>
  routes('context', (r) => {
    r.post(
      '/get_context_budget',
      C.GetContextBudgetInput,
      (b) => s.context.getContextBudget(b),
      'Context that fits a token budget: memories, readings, tasks, intentions, schedule',
    );
    r.post(
      '/cross_query',
      C.CrossQueryInput,
      (b) => s.context.crossQuery(b),
      'One question across memories, sessions and live readings',
    );
    r.post(
      '/extract_and_remember',
      ExtractInput,
      (b) => s.extract(b, 'http'),
      'Let the LLM pick durable facts out of text and remember them',
    );
  });
