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

/**
 * A filter's levels, or null when it is invalid: checked and split once per filter (every message is
 * matched against the mappings' and the account's filters, a handful that never change).
 */
const levelsOf = new Map<string, string[] | null>();
function filterLevels(filter: string): string[] | null {
  let levels = levelsOf.get(filter);
  if (levels === undefined) {
    levels = isValidFilter(filter) ? filter.split('/') : null;
    if (levelsOf.size >= 1000) levelsOf.clear(); // filters a client made up, one after another
    levelsOf.set(filter, levels);
  }
  return levels;
}

/** Match `topic` against `filter`; the captured levels, or null when it does not match (or is invalid). */
export function matchTopic(filter: string, topic: string): string[] | null {
  if (typeof topic !== 'string' || typeof filter !== 'string') return null;
  const f = filterLevels(filter);
  if (!f) return null;
  if (topic === '' || topic.includes('+') || topic.includes('#')) return null;
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

/**
 * Whether every topic `filter` matches is also matched by `pattern` (both valid filters): the
 * subscription ACL test, so an account granted `hearth/#` may subscribe to `hearth/events/#` but
 * not to `#` or `+/events/#`. A `#` in the filter also matches its parent level [MQTT-4.7.1-2], so
 * `a/#` lies within `a/#` or `#` but not within `a/+/#` (while `#` lies within `+/#`: topics are never empty). A filter starting with a literal `$` level
 * lies within no pattern starting with a wildcard [MQTT-4.7.2-1].
 */
export function filterWithin(filter: string, pattern: string): boolean {
  if (!isValidFilter(filter) || !isValidFilter(pattern)) return false;
  const f = filter.split('/');
  const p = pattern.split('/');
  if (f[0].startsWith('$') && (p[0] === '+' || p[0] === '#')) return false;
  for (let i = 0; ; i++) {
    if (i === p.length) return i === f.length;
    if (p[i] === '#') return true;
    if (i === f.length) return false;
    // The filter's `#` here matches every deeper topic (at least one level when i = 0, topics are
    // never empty): only `#`, or `+/#` at the first level, accepts all of them.
    if (f[i] === '#')
      return p.length - 1 - i <= (i === 0 ? 1 : 0) && p[p.length - 1] === '#' && p.slice(i, -1).every((l) => l === '+');
    if (p[i] !== '+' && f[i] !== p[i]) return false;
  }
}
