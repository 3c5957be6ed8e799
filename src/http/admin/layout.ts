/** The page shell and the small pieces every page uses (forms with CSRF, times, confidence). */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ageText } from '../../tiers/memory/decay.js';
import { csrfOf, accessOf } from './access.js';
import { html, trusted, type Html } from './html.js';
import { ICON_LINKS } from './icons.js';

/** The menu: the everyday pages, then the rest under "More". `active` (PageOptions) is a label here. */
const NAV = [
  ['/admin/', 'Dashboard'],
  ['/admin/entities', 'Entities'],
  ['/admin/search', 'Search'],
  ['/admin/readings', 'Readings'],
  ['/graph', 'Graph'],
] as const;
const MORE = [
  ['/admin/intentions', 'Reminders'],
  ['/admin/sessions', 'Conversations'],
  ['/admin/tasks', 'Tasks'],
  ['/admin/voices', 'Voices'],
  ['/admin/patterns', 'Patterns'],
  ['/admin/markdown', 'Markdown'],
  ['/admin/prune', 'Clean up old readings'],
] as const;

export interface PageOptions {
  title: string;
  active?: string;
  scripts?: string[];
  styles?: string[];
}

// htmx: no inline indicator <style> (CSP), no eval, no <script> from responses.
const HTMX_CONFIG =
  '{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false,"selfRequestsOnly":true,"historyCacheSize":0}';

export function page(req: FastifyRequest, opts: PageOptions, body: Html): Html {
  const a = accessOf(req);
  const session = a.via === 'session';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="htmx-config" content="${HTMX_CONFIG}">
<meta name="referrer" content="same-origin">
<title>${opts.title} · Hearth</title>
${trusted(ICON_LINKS)}
<link rel="stylesheet" href="/admin/assets/admin.css">
${(opts.styles ?? []).map((s) => html`<link rel="stylesheet" href="${s}">`)}
<script src="/admin/assets/htmx.min.js" defer></script>
<script src="/admin/assets/admin.js" defer></script>
${(opts.scripts ?? []).map((s) => html`<script src="${s}" defer></script>`)}
</head>
<body>
<header class="top">
  <a class="brand" href="/admin/"><img src="/admin/assets/icon.svg" alt="" width="28" height="28">Hearth</a>
  <a class="menu-button" href="#nav" aria-controls="nav" aria-expanded="false">Menu</a>
  <nav id="nav" aria-label="Pages">${NAV.map(([href, label]) => navLink(href, label, opts.active))}
  <details class="more"${MORE.some(([, l]) => l === opts.active) ? html` data-current="true"` : ''}><summary>More</summary><div class="more-links">${MORE.map(([href, label]) => navLink(href, label, opts.active))}</div></details>
  ${session ? html`<form method="post" action="/admin/logout" class="logout">${csrfField(req)}<button type="submit">Log out</button></form>` : ''}</nav>
</header>
<main>
<h1>${opts.title}</h1>
${a.flash ? html`<p class="flash" role="status" id="flash">${a.flash}</p>` : ''}
${body}
</main>
</body>
</html>`;
}

const navLink = (href: string, label: string, active?: string) =>
  html`<a href="${href}"${active === label ? html` aria-current="page"` : ''}>${label}</a>`;

export const csrfField = (req: FastifyRequest) => html`<input type="hidden" name="_csrf" value="${csrfOf(req)}">`;

export function sendPage(reply: FastifyReply, h: Html, status = 200) {
  return reply.code(status).type('text/html; charset=utf-8').send(h.value);
}

/**
 * "2026-12-01 09:10 UTC (3 hours ago)" in the page; admin.js rewrites every <time> in the browser's
 * locale and time zone (Intl), the UTC form staying in the tooltip.
 */
export function when(ts: number | null | undefined, now: number): Html {
  if (ts === null || ts === undefined) return html`—`;
  const iso = new Date(ts * 1000).toISOString();
  return html`<time datetime="${iso}" title="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time> <span class="age">${ageText(now - ts)}</span>`;
}

export const pct = (x: number) => `${Math.round(x * 100)}\u00a0%`; // no break between the number and %

/** A bar for a confidence in [0, 1]; the number is in the text, the bar is a <meter>. */
export const confidence = (x: number) =>
  html`<meter min="0" max="1" low="0.3" high="0.7" optimum="1" value="${x}">${pct(x)}</meter> ${pct(x)}`;

/** `cls`: a class for the table ("compact": on a phone each row is a few lines, not a card of labelled cells). */
export function table(head: string[], rows: Html[], empty: string, cls?: string): Html {
  if (!rows.length) return html`<p class="empty">${empty}</p>`;
  return html`<div class="scroll"><table${cls ? html` class="${cls}"` : ''}><thead><tr>${head.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** `next` for a redirect after a form: only a path of this UI. */
export function backTo(next: unknown, fallback = '/admin/'): string {
  // Printable ASCII only (a browser's own links are percent-encoded): it goes into a Location header.
  return typeof next === 'string' && /^\/(admin(\/|\?|$)|graph(\?|$))[\x21-\x7e]*$/.test(next) ? next : fallback;
}
