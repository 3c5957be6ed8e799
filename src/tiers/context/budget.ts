/**
 * Token-budget context packing (SPEC §5): candidate items from every tier are ranked by score and
 * added greedily; an item that does not fit is skipped (and reported in `omitted`) while smaller
 * ones after it may still fit. Because the running total only grows, an omitted item can never
 * fit at the end either — so nothing that would fit is left out, and the total never exceeds the
 * budget. Tokens are estimated as ceil(chars / 4) per item line including its newline, which
 * bounds the estimate of the joined text from above.
 */
export interface ContextItem {
  tier: 'memory' | 'reading' | 'task' | 'intention' | 'schedule' | 'relation' | 'session';
  id?: number | string;
  text: string;
  /** 0–1; higher goes first. */
  score: number;
  /** A memory recall was not sure of (its `possible` tier): listed after the confident ones, labelled in its text. */
  low_confidence?: true;
}

export interface PackedItem extends ContextItem {
  tokens: number;
}

export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

export function pack(candidates: ContextItem[], budget: number) {
  const sorted = [...candidates].sort((a, b) => b.score - a.score || a.text.length - b.text.length);
  const items: PackedItem[] = [];
  const omitted: { tier: ContextItem['tier']; id?: number | string; tokens: number; preview: string }[] = [];
  let used = 0;
  for (const c of sorted) {
    const tokens = estimateTokens(`${c.text}\n`);
    if (used + tokens <= budget) {
      items.push({ ...c, tokens });
      used += tokens;
    } else {
      omitted.push({ tier: c.tier, id: c.id, tokens, preview: c.text.slice(0, 80) });
    }
  }
  return { items, omitted, used_tokens: used, budget, truncated: omitted.length > 0 };
}
