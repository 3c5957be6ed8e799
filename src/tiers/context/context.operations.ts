/**
 * Cross-tier operations, named as in the seed (SPEC §6): budgeted context, cross_query, LLM
 * extraction — each declared once for HTTP and MCP (lib/operation.ts).
 */
import { operationTable } from '../../lib/operation.js';
import type { Actor } from '../audit/audit.repo.js';
import { ExtractInput, type createExtractor } from '../memory/extract.js';
import * as C from './context.schemas.js';
import type { ContextService } from './context.service.js';

type S = { context: ContextService; extract: ReturnType<typeof createExtractor> };

export const contextOperations = operationTable<S>('context', (op) => [
  op({
    name: 'get_context_budget',
    http: { method: 'POST', path: '/get_context_budget' },
    input: C.GetContextBudgetInput,
    output: C.GetContextBudgetOutput,
    summary: 'Context that fits a token budget: memories, readings, tasks, intentions, schedule',
    description:
      'Everything relevant that fits in token_budget tokens — ranked memories, latest readings, open tasks, active intentions, upcoming events — ' +
      'ready to paste into a prompt. Use recall_mode "keyword" on a Pi without an embedding model. Reports what was left out. ' +
      'Memories recall is not sure of come last, each line starting "(not sure, possibly related)"; possible: false leaves them out.',
    annotations: { readOnlyHint: true },
    call: (s, input) => s.context.getContextBudget(input),
  }),
  op({
    name: 'cross_query',
    http: { method: 'POST', path: '/cross_query' },
    input: C.CrossQueryInput,
    output: C.CrossQueryOutput,
    summary: 'One question across memories, sessions and live readings',
    description:
      'Ask one question across every tier: remembered facts, past conversations and live sensor readings, each result labelled by tier. ' +
      'A where-question ("where are my car keys?") gets the object\'s stored place first (tier location). ' +
      'Good for "how is Brian feeling today?" or "who prefers a cooler house?". `possible` holds memories it is not sure of (low_confidence: true): ' +
      'do not state them as facts.',
    annotations: { readOnlyHint: true },
    call: (s, input) => s.context.crossQuery(input),
  }),
  op({
    name: 'extract_and_remember',
    http: { method: 'POST', path: '/extract_and_remember' },
    input: ExtractInput,
    output: C.ExtractOutput,
    summary: 'Let the LLM pick durable facts out of text and remember them',
    description:
      'Give conversation text; an LLM picks out durable facts (preferences, habits, relationships, where things are) and remembers each one. ' +
      'Needs an LLM backend; for a single explicit fact use remember.',
    call: (s, input, ctx) => s.extract(input, ctx.actor as Actor),
  }),
]);
