/**
 * GET/POST /admin/login: the token, typed once, becomes an HttpOnly SameSite=Strict session cookie.
 * The page needs no other asset (its few style rules are inline, allowed by their hash in the CSP).
 */
import { createHash } from 'node:crypto';
import { html, trusted } from '../html.js';
import { CSP } from '../csp.js';
import { pendingFields, type Pending } from './resend.js';
import { ICON_LINKS } from '../icons.js';

const STYLE =
  'body{font:17px/1.5 system-ui,sans-serif;margin:0;padding:1rem;background:#f6f5f2;color:#222}' +
  'form{max-width:22rem;margin:12vh auto;background:#fff;padding:1.5rem;border-radius:.5rem;box-shadow:0 1px 4px #0002}' +
  'input,button{font:inherit;width:100%;box-sizing:border-box;min-height:44px;margin:.4rem 0;padding:.5rem}' +
  'button{background:#8a3b12;color:#fff;border:0;border-radius:.3rem}.err{color:#a00}';

export const LOGIN_CSP = CSP.replace(
  "style-src 'self'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
);

/** With `pending`, the form that was refused rides along (hidden) and is shown again after login. */
export function loginPage(next: string, error?: string, pending?: Pending) {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Log in · Hearth</title>${trusted(ICON_LINKS)}<style>${trusted(STYLE)}</style></head>
<body><form method="post" action="/admin/login">
<h1>Hearth</h1>
<p>Enter the hub's API token (<code>HEARTH_API_TOKEN</code>).</p>
${error ? html`<p class="err" role="alert">${error}</p>` : ''}
${pending ? html`<p class="err" role="alert">Your login has ended, so the change was not made yet. Log in and you can send it again${pending.fields.fact !== undefined ? ', with your text kept' : ''}.</p>${pendingFields(pending)}` : ''}
<input type="hidden" name="next" value="${next}">
<label for="token">Token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Log in</button>
</form></body></html>`;
}
