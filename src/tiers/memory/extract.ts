/**
 * `extract_and_remember` (seed tier 1), an LLM you can trust: the model must back every fact with
 * an exact quote from the input, and Hearth checks it before anything is stored.
 *
 * A proposed fact is rejected, and listed with the reason, when
 * - it is malformed (not an object, bad category, empty fact): `invalid`;
 * - it has no quote, or its quote is not in the text (compared after normalising case, whitespace,
 *   typographic quotes and dashes): `no_quote`, `quote_not_in_text`;
 * - its quote does not support it: no content word of the fact (beyond the entity's name) is in the
 *   quote, or a number in the fact is not in the quote: `quote_does_not_support_fact`;
 * - it is about an entity the text never names (the request's `entity_name`, the speaker, counts
 *   as named): `entity_not_in_text`;
 * - it repeats an earlier fact of the same answer: `duplicate`.
 * The rest go through `remember` (dedup, supersession) at trust 3 (`system`, SPEC §5). The prompt's
 * categories are `CATEGORIES`, the schema's list: health facts (allergies, conditions, medication)
 * are `general` — see docs/extraction.md. Without an LLM: 503; an answer that is not the JSON asked
 * for, or a timeout: 503 and nothing stored.
 */
import { z } from 'zod';
import type { Llm } from '../../ai/types.js';
import { TRUST_LABELS } from '../../lib/trust.js';
import { HubError } from '../../lib/errors.js';
import { EntityName, Text } from '../../lib/schema.js';
import { check } from '../../lib/validation.js';
import type { Actor } from '../audit/audit.repo.js';
import type { MemoryService } from './memory.service.js';
import { CATEGORIES, RememberInput } from './memory.schemas.js';
import { DUPLICATE_JACCARD, jaccard, terms } from './text-match.js';

export const ExtractInput = z.strictObject({
  text: Text(20_000).describe('conversation text or notes to mine for durable facts'),
  entity_name: EntityName.optional().describe('who is speaking / whom the facts are about by default'),
  source: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .default('llm_extraction')
    .describe("recorded as the facts' source (default llm_extraction)"),
});
export type ExtractInput = z.infer<typeof ExtractInput>;

export type RejectReason =
  | 'invalid'
  | 'no_quote'
  | 'quote_not_in_text'
  | 'quote_does_not_support_fact'
  | 'entity_not_in_text'
  | 'duplicate';

/** The prompt; its category list is the schema's, so the model is never asked for one we reject. */
export const EXTRACT_PROMPT = `You extract durable facts about a household from text: preferences, habits, routines,
relationships, health, devices, where things are kept. Ignore small talk, questions and one-off events.
Answer with JSON only: {"facts": [{"entity_name": "...", "fact": "one plain sentence naming the entity",
"category": one of ${CATEGORIES.map((c) => `"${c}"`).join(', ')},
"quote": "the words of the text that state this fact, copied exactly",
"fact_key": "optional_snake_case_key for single-valued facts"}]}.
Health facts (allergies, conditions, medication) use "general". Every fact needs a quote copied
word for word from the text; a fact you cannot quote must be left out. Return {"facts": []} when
there is nothing durable.`;

/** Case, whitespace, typographic quotes and dashes folded, so a faithful quote matches its text. */
export function normaliseQuote(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u201a\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}
/** A quote with its surrounding quotation marks and end punctuation removed. */
const bare = (q: string) => normaliseQuote(q).replace(/^["'`\s]+|["'`.,;:!?\s]+$/g, '');
const numbers = (s: string): string[] => s.match(/\d+(?:[.,]\d+)?/g) ?? [];
const named = (text: string, name: string) => {
  const n = normaliseQuote(name);
  const i = text.indexOf(n);
  if (i < 0) return false;
  // whole words only: "Al" is not named by "always"
  const word = /[\p{L}\p{N}]/u;
  return [...text.matchAll(new RegExp(n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'))].some(
    (m) => !word.test(text[m.index - 1] ?? ' ') && !word.test(text[m.index + n.length] ?? ' '),
  );
};

export interface Stored {
  id: number;
  entity_name: string;
  fact: string;
  quote: string;
  category: string;
  action: string;
}
export interface Rejected {
  index: number;
  entity_name?: string;
  fact?: string;
  quote?: string;
  reason: RejectReason;
  message: string;
}

export function createExtractor(deps: { llm: Llm | null; memory: MemoryService }) {
  return async function extractAndRemember(input: ExtractInput, actor: Actor = 'system') {
    if (!deps.llm)
      throw new HubError(
        'unavailable',
        'extract_and_remember needs an LLM: set MEMORY_AI_PROVIDER=ollama or openai (use remember for explicit facts)',
      );
    const user = input.entity_name ? `Speaker / default entity: ${input.entity_name}\n\n${input.text}` : input.text;
    const raw = await deps.llm.chat(
      [
        { role: 'system', content: EXTRACT_PROMPT },
        { role: 'user', content: user },
      ],
      { json: true, temperature: 0 },
    );
    let facts: unknown[];
    try {
      const parsed = JSON.parse(raw.slice(raw.indexOf('{'), raw.lastIndexOf('}') + 1)) as { facts?: unknown };
      if (!Array.isArray(parsed.facts)) throw new Error('no "facts" array');
      facts = parsed.facts.slice(0, 50);
    } catch (e) {
      throw new HubError(
        'unavailable',
        `the LLM did not answer with the expected JSON (${(e as Error).message}); nothing was stored`,
      );
    }
    const text = normaliseQuote(input.text);
    const accepted: { index: number; data: RememberInput; quote: string; terms: string[] }[] = [];
    const rejected: Rejected[] = [];
    for (const [index, f] of facts.entries()) {
      const reject = (reason: RejectReason, message: string, extra: Partial<Rejected> = {}) =>
        rejected.push({ index, reason, message, ...extra });
      if (!f || typeof f !== 'object' || Array.isArray(f)) {
        reject('invalid', 'not an object');
        continue;
      }
      const item = f as Record<string, unknown>;
      const parsed = check(
        RememberInput,
        {
          entity_name: item.entity_name ?? input.entity_name,
          fact: item.fact,
          category: item.category ?? 'general',
          fact_key: item.fact_key || undefined,
          source: input.source,
          source_trust: TRUST_LABELS.system,
          confidence: 0.8,
        },
        'fact',
      );
      const quote = typeof item.quote === 'string' ? item.quote : '';
      if (!parsed.success) {
        reject('invalid', parsed.message, { fact: typeof item.fact === 'string' ? item.fact : undefined });
        continue;
      }
      const d = parsed.data;
      const shown = { entity_name: d.entity_name, fact: d.fact, ...(quote && { quote }) };
      const q = bare(quote);
      const factTerms = terms(d.fact);
      const nameTerms = new Set(terms(d.entity_name));
      const quoteTerms = new Set(terms(q));
      if (!q) reject('no_quote', 'the LLM gave no quote from the text for this fact', shown);
      else if (!text.includes(q)) reject('quote_not_in_text', 'the quote does not appear in the text', shown);
      else if (
        !factTerms.some((t) => !nameTerms.has(t) && quoteTerms.has(t)) ||
        numbers(d.fact).some((n) => !(numbers(q) as string[]).includes(n))
      ) {
        reject(
          'quote_does_not_support_fact',
          'the quote does not state this fact (no shared words, or a number the quote lacks)',
          shown,
        );
      } else if (
        !(input.entity_name && normaliseQuote(input.entity_name) === normaliseQuote(d.entity_name)) &&
        !named(text, d.entity_name)
      ) {
        reject('entity_not_in_text', `the text never names "${d.entity_name}"`, shown);
      } else {
        const dup = accepted.findIndex(
          (a) =>
            normaliseQuote(a.data.entity_name) === normaliseQuote(d.entity_name) &&
            (normaliseQuote(a.data.fact) === normaliseQuote(d.fact) ||
              jaccard(a.terms, factTerms) >= DUPLICATE_JACCARD),
        );
        if (dup >= 0) reject('duplicate', `repeats fact ${accepted[dup].index} of the same answer`, shown);
        else accepted.push({ index, data: d, quote, terms: factTerms });
      }
    }
    const stored: Stored[] = [];
    for (const a of accepted) {
      const r = await deps.memory.remember(a.data, actor);
      stored.push({
        id: r.id,
        entity_name: a.data.entity_name,
        fact: a.data.fact,
        quote: a.quote,
        category: a.data.category,
        action: r.action,
      });
    }
    const lines = stored.map((s) => `- ${s.entity_name}: ${s.fact} (${s.action})`);
    const result =
      (stored.length
        ? `Remembered ${stored.length} facts:\n${lines.join('\n')}`
        : 'No durable facts found in the text.') +
      (rejected.length
        ? `\nRejected ${rejected.length}: ${rejected.map((r) => `${r.fact ?? `#${r.index}`} (${r.reason})`).join('; ')}`
        : '');
    return { result, stored, rejected };
  };
}
