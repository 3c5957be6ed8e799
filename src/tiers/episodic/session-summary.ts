/**
 * Close-time summaries of a conversation (SPEC §5 "Sessions"): the LLM's 1–3 sentences when one is
 * configured, else an extractive summary; plus the small text helpers the episodic tier writes with.
 */
import { tokenize } from '../../ai/text.js';
import type { Llm } from '../../ai/types.js';
import type { TurnRow } from './episodic.repo.js';
import { within } from '../../lib/within.js';

export type SummarySource = 'given' | 'llm' | 'extractive' | 'none';

/** A session time as ISO 8601 without milliseconds. */
export const iso = (ts: number) => new Date(ts * 1000).toISOString().replace('.000Z', 'Z');
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * Extractive summary: the 1–3 most informative user turns (assistant turns when the user said
 * nothing usable), in conversation order. SumBasic-style (Nenkova & Vanderwende 2005): each stemmed
 * content word gets p(w) = its share of all content words in the session, so words the conversation
 * keeps returning to weigh most; a turn scores Σp(w) over its distinct words / √(distinct words), which
 * prefers turns naming several topic words without simply rewarding length. After a pick, the picked
 * words' p(w) is squared so the next pick adds something new. Turns with fewer than two content words
 * ("ok", "thanks!") are never picked. Stops at 3 turns or ~400 characters.
 */
export function extractiveSummary(turns: TurnRow[], speaker: string): string | null {
  const analysed = turns
    .map((t) => ({ t, all: tokenize(t.content) }))
    .map((d) => ({ ...d, words: [...new Set(d.all)] }));
  const p = new Map<string, number>();
  const total = analysed.reduce((n, d) => n + d.all.length, 0);
  for (const d of analysed) for (const w of d.all) p.set(w, (p.get(w) ?? 0) + 1 / total);
  const usable = (role: string) => analysed.filter((d) => d.t.role === role && d.words.length >= 2);
  let pool = usable('user');
  const label = pool.length ? speaker : 'Assistant';
  if (!pool.length) pool = usable('assistant');
  const picked: typeof pool = [];
  let chars = 0;
  while (pool.length && picked.length < 3 && chars < 400) {
    const score = (d: (typeof pool)[number]) =>
      d.words.reduce((s, w) => s + (p.get(w) ?? 0), 0) / Math.sqrt(d.words.length);
    const best = pool.reduce((a, b) => (score(b) > score(a) ? b : a));
    picked.push(best);
    chars += Math.min(200, best.t.content.length); // as clipped in the output
    pool = pool.filter((d) => d !== best);
    for (const w of best.words) p.set(w, (p.get(w) ?? 0) ** 2);
  }
  if (!picked.length) return null;
  picked.sort((a, b) => a.t.ts - b.t.ts || a.t.id - b.t.id);
  return `${label}: ${picked.map((d) => clip(oneLine(d.t.content), 200).replace(/[.!?…]+$/, '')).join(' … ')}.`;
}

/** The transcript as the LLM sees it: each turn clipped to 600 chars, at most ~12 000 chars from the start. */
function transcriptForLlm(turns: TurnRow[], speaker: string): string {
  const lines: string[] = [];
  let size = 0;
  for (const t of turns) {
    const line = `${t.role === 'user' ? speaker : t.role}: ${clip(oneLine(t.content), 600)}`;
    if (size + line.length > 12_000) break;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** At most the first three sentences of a model answer, without a "Summary:" preamble or wrapping quotes. */
function firstSentences(text: string, n: number): string {
  const t = oneLine(text)
    .replace(/^summary:\s*/i, '')
    .replace(/^["“](.*)["”]$/, '$1');
  const sentences = t.match(/[^.!?]+[.!?]+["”')\]]*/g);
  return clip((sentences ? sentences.slice(0, n).join('') : t).trim(), 1000);
}

const LATE = Symbol('late');

/** The LLM's summary of `turns` within `timeoutMs`; rejects on timeout, failure or an empty answer. */
export async function llmSummary(llm: Llm, turns: TurnRow[], speaker: string, timeoutMs: number): Promise<string> {
  const answer = await within(
    llm.chat(
      [
        {
          role: 'system',
          content:
            'Summarise this home-assistant conversation in one to three plain sentences for a household memory. State only what was said or decided; no preamble.',
        },
        { role: 'user', content: transcriptForLlm(turns, speaker) },
      ],
      { temperature: 0.2 },
    ),
    timeoutMs,
    LATE,
  );
  if (answer === LATE) throw new Error(`no answer within ${timeoutMs} ms`);
  const summary = firstSentences(answer, 3);
  if (!summary) throw new Error('empty answer');
  return summary;
}
