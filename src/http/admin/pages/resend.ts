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
  fields: { fact?: string; category?: string; fact_key?: string; [name: string]: string | undefined };
  next: string;
}

/** The UI's own forms that can be sent again: the path, and which group of it names the verb. */
const ACTION = new RegExp(
  '^/admin/(?:memory/\\d{1,15}/(confirm|forget|edit)|entity/[^/?#]{1,2000}/(remember|rename|type|merge|delete)|(prune)' +
    '|intentions/\\d{1,15}/(dismiss)|voices/(enroll|merge)|relation/\\d{1,15}/(end))$',
);
const verbOf = (m: RegExpExecArray) => {
  const v = m.slice(1).find((x) => x !== undefined)!;
  return m[5] === 'merge' ? 'merge_voice' : v;
};
const BUTTON: Record<string, string> = {
  confirm: 'Confirm',
  forget: 'Forget for good',
  edit: 'Save new version',
  remember: 'Remember',
  prune: 'Delete the readings now',
  rename: 'Rename',
  type: 'Save type',
  merge: 'Merge',
  delete: 'Delete for good',
  dismiss: 'Dismiss the reminder',
  enroll: 'Name this voice',
  merge_voice: 'Merge the voices',
  end: 'End the relation',
};
/** The fields each form's answer echoes: a label shows the field to check, `null` carries it unseen. */
const ECHO: Record<string, [string, string | null][]> = {
  edit: [
    ['fact', null],
    ['category', null],
  ],
  remember: [
    ['fact', null],
    ['category', null],
    ['fact_key', null],
  ],
  rename: [['new_name', 'New name']],
  type: [['type', 'Type']],
  merge: [
    ['other', 'Merge with'],
    ['keep', null],
    ['source_id', null],
    ['target_id', null],
    ['version', null],
  ],
  delete: [
    ['entity_id', null],
    ['version', null],
  ],
  enroll: [
    ['entity_name', null],
    ['new_name', 'Name'],
  ],
  merge_voice: [
    ['source_name', null],
    ['target_name', 'Into'],
  ],
};
const DANGER = new Set(['forget', 'prune', 'delete', 'merge', 'merge_voice']);
const str = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : undefined);
const echoed = (verb: string, get: (name: string) => unknown): Pending['fields'] => {
  const fields: Pending['fields'] = {};
  for (const [name] of ECHO[verb] ?? []) {
    const v = str(get(name), 4000);
    if (v !== undefined) fields[name] = v;
  }
  if (verb === 'edit' || verb === 'remember') fields.fact ??= '';
  return fields;
};

/** The admin form a POST carried, or undefined when it is not one of the UI's forms. */
export function pendingOf(req: FastifyRequest): Pending | undefined {
  const path = req.url.split('?')[0];
  const m = ACTION.exec(path);
  if (!m) return undefined;
  const verb = verbOf(m);
  const body = (req.body ?? {}) as Record<string, unknown>;
  const home = m[2]
    ? path.slice(0, path.lastIndexOf('/'))
    : m[4]
      ? '/admin/intentions'
      : m[5]
        ? '/admin/voices'
        : '/admin/';
  return { action: path, verb, fields: echoed(verb, (k) => body[k]), next: backTo(body.next, home) };
}

/** Hidden fields that carry a pending form through the login page. */
export const pendingFields = (p: Pending) => html`<input type="hidden" name="resume_action" value="${p.action}">
${Object.entries(p.fields).map(([k, v]) => (v === undefined ? '' : html`<input type="hidden" name="resume_${k}" value="${v}">`))}`;

/** The pending form a login post carried back (the `resume_*` fields), checked like any other. */
export function pendingFromLogin(body: Record<string, unknown>, next: string): Pending | undefined {
  const action = str(body.resume_action, 2100);
  const m = action ? ACTION.exec(action) : null;
  if (!action || !m) return undefined;
  const verb = verbOf(m);
  const fields = echoed(verb, (k) => body[`resume_${k}`]);
  if ((verb === 'edit' || verb === 'remember') && typeof body.resume_fact !== 'string') delete fields.fact;
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
${(ECHO[p.verb] ?? [])
  .filter(([name]) => !['fact', 'category', 'fact_key'].includes(name) && f[name] !== undefined)
  .map(([name, label]) =>
    label
      ? html`<label>${label} <input name="${name}" maxlength="1000" value="${f[name]}"></label>`
      : html`<input type="hidden" name="${name}" value="${f[name]}">`,
  )}
<button type="submit" class="${DANGER.has(p.verb) ? 'danger' : ''}" data-action="resend">${BUTTON[p.verb]}</button>
</form>
<p><a href="${p.next}">Back to the page you came from</a> (without sending)</p>`;
  return page(req, { title: why === 'stale' ? 'Send your change again' : 'Logged in: send your change again' }, body);
}
