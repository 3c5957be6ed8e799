/**
 * A request whose path exists under another method (`GET /recall`, a POST route) is answered 405
 * with `Allow` and a message naming the method to use, instead of "no route" (issue #35 item 15).
 * One generic hook: every route registered after `trackRoutes` is recorded as a path pattern, and
 * the not-found handler asks `allowedMethods` before saying 404.
 */
import type { FastifyInstance } from 'fastify';

interface Known {
  pattern: RegExp;
  methods: Set<string>;
}

/** `/entities/:id` → /^\/entities\/[^/]+$/; `/admin/assets/*` → anything below. */
function toPattern(url: string): RegExp {
  const body = url
    .split('/')
    .map((part) => {
      if (part === '*') return '.*';
      if (part.startsWith(':')) return '[^/]+';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${body}/?$`);
}

/** Records the routes registered from now on; returns the lookup of a path's methods. */
export function trackRoutes(app: FastifyInstance): (path: string) => string[] {
  const known = new Map<string, Known>();
  app.addHook('onRoute', (route) => {
    const entry = known.get(route.url) ?? { pattern: toPattern(route.url), methods: new Set<string>() };
    for (const m of [route.method].flat()) entry.methods.add(String(m).toUpperCase());
    known.set(route.url, entry);
  });
  return (path) => {
    const methods = new Set<string>();
    for (const k of known.values()) if (k.pattern.test(path)) for (const m of k.methods) methods.add(m);
    return [...methods].sort();
  };
}

/** The 405 body for `method path` when the path answers only `allowed`. */
export function methodNotAllowed(method: string, path: string, allowed: string[]) {
  const use = allowed.filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
  const how = use.includes('POST') ? ' with a JSON body' : '';
  return {
    ok: false,
    error: 'method_not_allowed',
    message: `method: ${path} does not answer ${method}; use ${use.join(' or ')}${how}`,
  };
}
