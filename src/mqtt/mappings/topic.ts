/**
 * MQTT topic-filter matching (MQTT 3.1.1 §4.7 / 5.0 §4.7), returning the levels the wildcards matched.
 *
 * Captures: each `+` captures its one level; `#` captures every remaining level as separate entries
 * (none when `sport/#` matches `sport`, which the spec allows [MQTT-4.7.1-2]). So
 * `home/+/sensor/#` on `home/kitchen/sensor/temp/1` → `['kitchen', 'temp', '1']`.
 * Topics starting with `$` (e.g. `$SYS/…`) never match a filter whose first level is `+` or `#`
 * [MQTT-4.7.2-1].
 */

/** A filter is valid when `+` and `#` stand alone on their level and `#` is last [MQTT-4.7.1-1]. */
export function isValidFilter(filter: string): boolean {
  if (typeof filter !== 'string' || filter === '' || filter.length > 65535 || filter.includes('\u0000')) return false;
  const levels = filter.split('/');
  return levels.every((l, i) => {
    if (l === '#') return i === levels.length - 1;
    if (l === '+') return true;
    return !l.includes('+') && !l.includes('#');
  });
}

/** Match `topic` against `filter`; the captured levels, or null when it does not match (or is invalid). */
export function matchTopic(filter: string, topic: string): string[] | null {
  if (typeof topic !== 'string' || !isValidFilter(filter)) return null;
  if (topic === '' || topic.includes('+') || topic.includes('#')) return null;
  const f = filter.split('/');
  const t = topic.split('/');
  if (topic.startsWith('$') && (f[0] === '+' || f[0] === '#')) return null;
  const captures: string[] = [];
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') {
      captures.push(...t.slice(i));
      return captures;
    }
    if (i >= t.length) return null;
    if (f[i] === '+') captures.push(t[i]);
    else if (f[i] !== t[i]) return null;
  }
  return f.length === t.length ? captures : null;
}

/** How many `+` levels a filter has (the index where `#` captures begin). */
export function plusCount(filter: string): number {
  return filter.split('/').filter((l) => l === '+').length;
}

/**
 * A mapping root: one or more literal topic levels, no wildcards, no leading/trailing `/`.
 * (zod refinement in `index.ts` and `user.ts`.)
 */
export function isValidRoot(root: string): boolean {
  return (
    typeof root === 'string' &&
    root !== '' &&
    !root.startsWith('/') &&
    !root.endsWith('/') &&
    !/[+#\u0000]/.test(root) &&
    root.split('/').every((l) => l !== '')
  );
}
