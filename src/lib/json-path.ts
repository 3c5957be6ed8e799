/**
 * JSON paths of user MQTT mappings (`$.a.b`, `a.b`, `$.list[0]`, `$['odd key']`): parsed once, from
 * config, into segments. A path through a key that reaches an object's prototype is refused.
 */

/** Keys that reach an object's prototype: never followed, never used as names. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export type Segment = string | number;
/** Parse a JSON path into segments, or null when it is not one. */
export function parsePath(path: string): Segment[] | null {
  let s = path.trim();
  const segs: Segment[] = [];
  if (s.startsWith('$')) s = s.slice(1);
  else if (/^[^.[\]'"]/.test(s)) s = `.${s}`;
  while (s !== '') {
    const m = /^\.([^.[\]'"]+)/.exec(s) ?? /^\[(\d{1,6})\]/.exec(s) ?? /^\[['"]([^'"]+)['"]\]/.exec(s);
    if (!m) return null;
    const seg = m[0].startsWith('[') && /^\d+$/.test(m[1]) && !/['"]/.test(m[0]) ? Number(m[1]) : m[1];
    if (typeof seg === 'string' && FORBIDDEN_KEYS.has(seg)) return null;
    segs.push(seg);
    s = s.slice(m[0].length);
  }
  return segs.length > 32 ? null : segs;
}
