/** A reading's value as words: 21.456 → "21.46"; {"mood":"calm","confidence":0.9} → "mood calm, confidence 0.9". */
export function showValue(v: unknown): string {
  if (typeof v === 'number') return String(Math.round(v * 100) / 100);
  if (Array.isArray(v)) return v.map(showValue).join(', ');
  if (typeof v === 'object' && v !== null) {
    return Object.entries(v)
      .map(
        ([k, x]) =>
          `${k.replaceAll('_', ' ')} ${typeof x === 'object' && x !== null ? `(${showValue(x)})` : showValue(x)}`,
      )
      .join(', ');
  }
  return String(v);
}
