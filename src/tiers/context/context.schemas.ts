/** Context assembly operations (SPEC §5 "Context assembly", §6). */
import { z } from 'zod';
import { EntityName, Possible, Text } from '../../lib/schema.js';
import { RecallMode } from '../memory/memory.schemas.js';
import { bool, int, list, obj, str, warnings } from '../../lib/output.js';

export const GetContextBudgetInput = z.strictObject({
  entity_name: EntityName.optional().describe('whose context (optional)'),
  query: Text(1000).optional().describe('what the conversation is about (optional)'),
  token_budget: z
    .number()
    .int()
    .min(50)
    .max(32_000)
    .default(1500)
    .describe('upper bound for the returned text, in tokens (≈ 4 characters each)'),
  recall_mode: RecallMode.default('hybrid').describe(
    'vector, keyword or hybrid (default); "keyword" needs no embedding model (Pi without Ollama)',
  ),
  include_readings: z
    .boolean()
    .default(true)
    .describe('also fill the budget with latest sensor readings (default true)'),
  possible: Possible(
    'with a query: also pack memories recall is not sure of, after the confident ones and labelled "(not sure, possibly related)" (default true); false = confident only',
  ),
});
export type GetContextBudgetInput = z.infer<typeof GetContextBudgetInput>;

export const CrossQueryInput = z.strictObject({
  query: Text(1000).describe('a question in plain words, e.g. "how is Brian feeling today?"'),
  entity_name: EntityName.optional().describe('only about this entity'),
  top_k: z.number().int().min(1).max(50).default(5).describe('results per tier'),
  possible: Possible(
    'also list memories recall is not sure of in `possible` (low confidence) when fewer than top_k are confident (default true); false = confident only',
  ),
});
export type CrossQueryInput = z.infer<typeof CrossQueryInput>;

// What each operation answers besides `ok` and `result` (describe-only; /docs shows it beside the route).
export const GetContextBudgetOutput = z.looseObject({
  items: list({ tier: str, text: str, score: z.number(), tokens: int, low_confidence: bool.optional() }),
  omitted: z.array(z.unknown()),
  used_tokens: int,
  budget: int,
  truncated: bool,
  mode_used: str,
  warnings,
});
export const CrossQueryOutput = z.looseObject({
  results: list({ tier: str, score: z.number() }).describe('memories, turns and readings, each with its tier'),
  possible: z.array(obj({})),
  warnings,
});
export const ExtractOutput = z.looseObject({
  stored: list({ id: int, entity_name: str, fact: str, quote: str, category: str, action: str }),
  rejected: list({ index: int, reason: str, message: str }),
});
