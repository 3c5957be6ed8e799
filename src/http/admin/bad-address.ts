/**
 * A browser that asks for a broken /admin address (bad percent-encoding: Fastify's router refuses
 * it before any route or hook runs) gets a page in the admin layout, not the API's JSON.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSP } from './csp.js';
import { html } from './html.js';
import { page } from './layout.js';
import { isAdminPath } from './paths.js';

export const wantsAdminPage = (req: FastifyRequest) =>
  isAdminPath(req.url.split('?')[0]) && /\btext\/html\b/.test(String(req.headers.accept ?? ''));

export function sendBadAddress(req: FastifyRequest, reply: FastifyReply) {
  const body = html`<p class="error" role="alert">This address is broken (a stray % or an incomplete character in it), so there is no page for it.</p>
<p><a href="/admin/">Go to the dashboard</a></p>`;
  return reply
    .code(400)
    .headers({
      'content-security-policy': CSP,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    })
    .type('text/html; charset=utf-8')
    .send(page(req, { title: 'Not a valid address' }, body).value);
}
