/**
 * "Did you mean …?" for an unknown field: the known field a caller most likely meant. Misspellings
 * (`catgory` → category), other spellings (`entityName`, `Entity-Name` → entity_name), part of a
 * name (`entity` → entity_name) and a word the field's description uses (`rrule` → recurrence,
 * whose description says "RRULE"). Returns nothing rather than a far-fetched guess.
 */

/** Edit distance counting a swap of two neighbours as one edit (`unti` → unit), three rows. */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j], before[j - 2] + 1);
    }
    [before, prev] = [prev, row];
  }
  return prev[b.length];
}

/** `entityName`, `Entity-Name`, `entity name` → `entity_name`. */
const snake = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/**
 * The known fields `key` most likely meant (at most two, best first), or `[]`.
 * `describe` gives a field's description, if it has one.
 */
export function closestFields(
  key: string,
  known: readonly string[],
  describe: (field: string) => string | undefined = () => undefined,
): string[] {
  if (key.length > 100) return []; // a hostile key costs nothing
  const k = snake(key);
  if (known.includes(k)) return [k];
  // Misspellings: up to one edit per four characters, at least one, at most three.
  const budget = Math.min(3, Math.max(1, Math.floor(k.length / 4)));
  const scored = known.map((f) => [f, distance(k, f)] as const).filter(([, d]) => d <= budget);
  if (scored.length) {
    const best = Math.min(...scored.map(([, d]) => d));
    return scored
      .filter(([, d]) => d === best)
      .map(([f]) => f)
      .slice(0, 2);
  }
  if (k.length < 3) return [];
  const parts = known.filter((f) => f.split('_').includes(k));
  if (parts.length) return parts.slice(0, 2);
  const plain = k.replace(/[^a-z0-9_]/g, '');
  if (plain.length < 4) return [];
  const word = new RegExp(`\\b${plain}\\b`, 'i');
  const mentioned = known.filter((f) => word.test(describe(f) ?? ''));
  return mentioned.length === 1 ? mentioned : [];
}
