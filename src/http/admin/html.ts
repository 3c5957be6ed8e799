/**
 * HTML by tagged template with escaping by default: every interpolated value is escaped unless it
 * is already `Html` (the result of another `html` call). Arrays render each item; null, undefined
 * and false render nothing. Attributes must be double-quoted in templates.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export const escapeHtml = (s: string): string => s.replace(/[&<>"'`]/g, (c) => ESCAPES[c]);

function render(v: unknown): string {
  if (v instanceof Html) return v.value;
  if (v === null || v === undefined || v === false) return '';
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Markup that is trusted as is (constants only, never user data). */
export const trusted = (s: string) => new Html(s);

/** A path segment for an href: `/admin/entity/${seg(name)}`. */
export const seg = (s: string) => encodeURIComponent(s);

/** A query string from defined values. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
