/**
 * Confidence decay, computed on read (SPEC §5) — never written back, so running it twice changes
 * nothing. The seed overwrote stored confidence each hour with a factor measured from the original
 * timestamp, compounding the decay; this is the fix.
 *
 *   effective = confidence × 2^(−days_since_last_confirmed / halflife(category))
 */
export interface DecayConfig {
  decay_halflife_days: number;
  decay_category_halflife: Record<string, number>;
}

export const DAY = 86_400;

export function halflifeDays(category: string, cfg: DecayConfig): number {
  return cfg.decay_category_halflife[category] ?? cfg.decay_halflife_days;
}

export function effectiveConfidence(
  m: { confidence: number; last_confirmed: number; category: string },
  now: number,
  cfg: DecayConfig,
): number {
  const days = Math.max(0, now - m.last_confirmed) / DAY;
  return m.confidence * 2 ** (-days / halflifeDays(m.category, cfg));
}

/** Plain words for an age in seconds: "just now", "5 minutes ago", "2 hours ago", "3 days ago". */
export function ageText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const units: [number, string][] = [
    [365 * DAY, 'year'],
    [30 * DAY, 'month'],
    [7 * DAY, 'week'],
    [DAY, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    const n = Math.floor(s / size);
    if (n >= 1) return `${n} ${name}${n === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}
