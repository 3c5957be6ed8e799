/**
 * `extract_and_remember` (seed tier 1): an LLM reads conversation text and returns durable facts
 * as JSON; each is validated with the shared `RememberInput` schema and stored at trust 3
 * (`system`, like every machine-derived fact — SPEC §5). Without an LLM it answers 503 and stores
 * nothing; a malformed LLM answer is reported, never half-applied silently.
 */
import { z } from 'zod';
import type { Llm } from '../../ai/types.js';
import { TRUST_LABELS } from '../../lib/trust.js';
import { HubError } from '../../lib/errors.js';
import { EntityName, Text } from '../../lib/schema.js';
import { describeIssues } from '../../lib/validation.js';
import type { Actor } from '../audit/audit.repo.js';
import type { MemoryService } from './memory.service.js';
import { CATEGORIES, RememberInput } from './memory.schemas.js';

export const ExtractInput = z.object({
  text: Text(20_000).describe('conversation text or notes to mine for durable facts'),
  entity_name: EntityName.optional().describe('who is speaking / whom the facts are about by default'),
  source: z.string().trim().min(1).max(100).default('llm_extraction').describe('recorded as the facts\' source (default llm_extraction)'),
});
export type ExtractInput = z.infer<typeof ExtractInput>;

const SYSTEM = `You extract durable facts about a household from text: preferences, habits, routines,
relationships, health, devices, where things are kept. Ignore small talk, questions and one-off events.
Answer with JSON only: {"facts": [{"entity_name": "...", "fact": "one plain sentence naming the entity",
"category": one of ${CATEGORIES.map((c) => `"${c}"`).join(', ')}, "fact_key": "optional_snake_case_key for single-valued facts"}]}.
Return {"facts": []} when there is nothing durable.`;

export function createExtractor(deps: { llm: Llm | null; memory: MemoryService }) {
  return async function extractAndRemember(input: ExtractInput, actor: Actor = 'system') {
    if (!deps.llm) throw new HubError('unavailable', 'extract_and_remember needs an LLM: set MEMORY_AI_PROVIDER=ollama or openai (use remember for explicit facts)');
    const user = input.entity_name ? `Speaker / default entity: ${input.entity_name}\n\n${input.text}` : input.text;
    const raw = await deps.llm.chat([{ role: 'system', content: SYSTEM }, { role: 'user', content: user }], { json: true, temperature: 0 });
    let facts: unknown[];
    try {
      const parsed = JSON.parse(raw.slice(raw.indexOf('{'), raw.lastIndexOf('}') + 1)) as { facts?: unknown };
      if (!Array.isArray(parsed.facts)) throw new Error('no "facts" array');
      facts = parsed.facts.slice(0, 50);
    } catch (e) {
      throw new HubError('unavailable', `the LLM did not answer with the expected JSON (${(e as Error).message}); nothing was stored`);
    }
    const stored: { id: number; entity_name: string; fact: string; action: string }[] = [];
    const skipped: { index: number; reason: string }[] = [];
    for (const [i, f] of facts.entries()) {
      if (!f || typeof f !== 'object' || Array.isArray(f)) {
        skipped.push({ index: i, reason: 'not an object' });
        continue;
      }
      const item = f as Record<string, unknown>;
      const parsed = RememberInput.safeParse({
        entity_name: item.entity_name ?? input.entity_name, fact: item.fact, category: item.category ?? 'general',
        fact_key: item.fact_key || undefined, source: input.source, source_trust: TRUST_LABELS.system, confidence: 0.8,
      });
      if (!parsed.success) {
        skipped.push({ index: i, reason: describeIssues(parsed.error.issues) });
        continue;
      }
      const r = await deps.memory.remember(parsed.data, actor);
      stored.push({ id: r.id, entity_name: parsed.data.entity_name, fact: parsed.data.fact, action: r.action });
    }
    const result = stored.length ? `Remembered ${stored.length} facts:\n${stored.map((s) => `- ${s.entity_name}: ${s.fact} (${s.action})`).join('\n')}` : 'No durable facts found in the text.';
    return { result, stored, skipped };
  };
}
