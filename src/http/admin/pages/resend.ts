/**
 * A form the hub could not accept as sent — the page was stale (its CSRF token no longer matches) or
 * the login had ended — shown again in plain words with what was typed, a fresh token and a link
 * back. Nothing was changed; the person checks the text and sends it again. Only this UI's own
 * actions and their own fields are echoed, and a form from another site is never offered again.
 */
import type { FastifyRequest } from 'fastify';
import { CATEGORIES } from '../../../tiers/memory/memory.schemas.js';
import { html } from '../html.js';
import { backTo, csrfField, page } from '../layout.js';

export interface Pending {
  action: string;
  verb: string;
  fields: { fact?: string; category?: string; fact_key?: string };
  next: string;
}

const ACTION = /^\/admin\/(?:memory\/\d{1,15}\/(confirm|forget|edit)|entity\/[^/?#]{1,2000}\/(remember)|(prune))$/;
const BUTTON: Record<string, string> = {
  confirm: 'Confirm',
  forget: 'Forget for good',
  edit: 'Save new version',
  remember: 'Remember',
  prune: 'Delete the readings now',
};
const str = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : undefined);

/** The admin form a POST carried, or undefined when it is not one of the UI's forms. */
export function pendingOf(req: FastifyRequest): Pending | undefined {
  const path = req.url.split('?')[0];
  const m = ACTION.exec(path);
  if (!m) return undefined;
  const verb = m[1] ?? m[2] ?? m[3];
  const body = (req.body ?? {}) as Record<string, unknown>;
  const fields: Pending['fields'] = {};
  if (verb === 'edit' || verb === 'remember')
    (fields.fact = str(body.fact, 4000) ?? ''), (fields.category = str(body.category, 50));
  if (verb === 'remember') fields.fact_key = str(body.fact_key, 200);
  const home = verb === 'remember' ? path.slice(0, -'/remember'.length) : '/admin/';
  return { action: path, verb, fields, next: backTo(body.next, home) };
}

/** Hidden fields that carry a pending form through the login page. */
export const pendingFields = (p: Pending) => html`<input type="hidden" name="resume_action" value="${p.action}">
${Object.entries(p.fields).map(([k, v]) => (v === undefined ? '' : html`<input type="hidden" name="resume_${k}" value="${v}">`))}`;

/** The pending form a login post carried back (the `resume_*` fields), checked like any other. */
export function pendingFromLogin(body: Record<string, unknown>, next: string): Pending | undefined {
  const action = str(body.resume_action, 2100);
  const m = action ? ACTION.exec(action) : null;
  if (!action || !m) return undefined;
  const verb = m[1] ?? m[2] ?? m[3];
  const fields: Pending['fields'] = {};
  for (const k of ['fact', 'category', 'fact_key'] as const)
    if (typeof body[`resume_${k}`] === 'string') fields[k] = str(body[`resume_${k}`], 4000);
  return { action, verb, fields, next };
}

export function resendPage(req: FastifyRequest, p: Pending, why: 'stale' | 'login') {
  const f = p.fields;
  const lede =
    why === 'stale'
      ? 'This page was open for a long time, or was opened before the hub’s login changed, so the form was not accepted. Nothing has been changed.'
      : 'You are logged in again. Nothing has been changed yet.';
  const body = html`<p class="error" role="alert">${lede}</p>
<p>${f.fact !== undefined ? 'Your text is kept below: check it and send it again.' : 'Send it again if you still want this.'}</p>
<form method="post" action="${p.action}" class="stack resend">${csrfField(req)}
<input type="hidden" name="next" value="${p.next}">
${f.fact !== undefined ? html`<label>Fact <textarea name="fact" required maxlength="4000" rows="3">${f.fact}</textarea></label>` : ''}
${f.category !== undefined ? html`<label>Category <select name="category">${CATEGORIES.map((c) => html`<option value="${c}"${c === f.category ? html` selected` : ''}>${c}</option>`)}</select></label>` : ''}
${p.verb === 'remember' ? html`<label>Key (optional) <input name="fact_key" maxlength="100" value="${f.fact_key ?? ''}"></label>` : ''}
<button type="submit" class="${p.verb === 'forget' || p.verb === 'prune' ? 'danger' : ''}" data-action="resend">${BUTTON[p.verb]}</button>
</form>
<p><a href="${p.next}">Back to the page you came from</a> (without sending)</p>`;
  return page(req, { title: why === 'stale' ? 'Send your change again' : 'Logged in: send your change again' }, body);
}
