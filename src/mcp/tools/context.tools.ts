/** Cross-tier tools, named as in the seed. */
import type { Services } from '../../services.js';
import type { Actor } from '../../tiers/audit/audit.repo.js';
import * as C from '../../tiers/context/context.schemas.js';
import { ExtractInput } from '../../tiers/memory/extract.js';
import { tool, type ToolTable } from '../tool.js';

export function contextTools(table: ToolTable, s: Services, actor: Actor): void {
  tool(
    table,
    'get_context_budget',
    'Everything relevant that fits in token_budget tokens — ranked memories, latest readings, open tasks, active intentions, upcoming events — ' +
      'ready to paste into a prompt. Use recall_mode "keyword" on a Pi without an embedding model. Reports what was left out. ' +
      'Memories recall is not sure of come last, each line starting "(not sure, possibly related)"; possible: false leaves them out.',
    C.GetContextBudgetInput,
    (a) => s.context.getContextBudget(a),
    { readOnlyHint: true },
  );
  tool(
    table,
    'cross_query',
    'Ask one question across every tier: remembered facts, past conversations and live sensor readings, each result labelled by tier. ' +
      'A where-question ("where are my car keys?") gets the object\'s stored place first (tier location). ' +
      'Good for "how is Brian feeling today?" or "who prefers a cooler house?". `possible` holds memories it is not sure of (low_confidence: true): ' +
      'do not state them as facts.',
    C.CrossQueryInput,
    (a) => s.context.crossQuery(a),
    { readOnlyHint: true },
  );
  tool(
    table,
    'extract_and_remember',
    'Give conversation text; an LLM picks out durable facts (preferences, habits, relationships, where things are) and remembers each one. ' +
      'Needs an LLM backend; for a single explicit fact use remember.',
    ExtractInput,
    (a) => s.extract(a, actor),
  );
}
