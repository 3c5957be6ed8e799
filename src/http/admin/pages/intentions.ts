/** GET /admin/intentions?status=: reminders the assistants set ("when X, do Y"), and dismissing one. */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../../services.js';
import { html, query, seg } from '../html.js';
import { csrfField, page, table, when } from '../layout.js';
import { chip, INTENTION_STATUS, TIER_STYLES, wordOf } from '../tier-words.js';

const STATUSES = ['active', 'fired', 'dismissed', 'expired', 'all'] as const;
export const IntentionsQuery = z.object({ status: z.enum(STATUSES).default('active') });

export function intentionsPage(req: FastifyRequest, s: Services, q: z.infer<typeof IntentionsQuery>) {
  const now = s.clock.now();
  const all = s.prospective.list({ active_only: false }).intentions;
  const rows = q.status === 'all' ? all : all.filter((i) => i.status === q.status);
  const self = `/admin/intentions${query({ status: q.status === 'active' ? undefined : q.status })}`;
  const chipOf = (st: (typeof STATUSES)[number]) => {
    const label = st === 'all' ? 'all' : wordOf(INTENTION_STATUS, st).word;
    const n = st === 'all' ? all.length : all.filter((i) => i.status === st).length;
    return chip(
      `/admin/intentions${query({ status: st === 'active' ? undefined : st })}`,
      `${label} (${n})`,
      st === q.status,
    );
  };
  const body = html`
<p class="muted">Reminders an assistant set for someone: when the moment comes up in conversation, it says what was asked.</p>
<p class="chips" aria-label="Show">${STATUSES.map(chipOf)}</p>
${table(
  ['For', 'When', 'Then', 'Status', 'Reminded', 'Set', ''],
  rows.map((i) => {
    const st = wordOf(INTENTION_STATUS, i.status);
    const times = i.fired_count ? html`${i.fired_count}× · last ${when(i.last_fired, now)}` : html`not yet`;
    return html`<tr id="intention-${i.id}"><td data-label="For"><a href="/admin/entity/${seg(i.entity_name)}">${i.entity_name}</a></td>
<td data-label="When">${i.trigger_text}</td>
<td data-label="Then">${i.action_text}${i.once ? html` <span class="muted">(once)</span>` : ''}</td>
<td data-label="Status"><span title="${st.title}">${st.word}</span>${i.expires_at ? html` <span class="muted">until ${when(i.expires_at, now)}</span>` : ''}</td>
<td data-label="Reminded">${times}</td>
<td data-label="Set">${when(i.created, now)}</td>
<td class="actions">${
      i.active
        ? html`<form method="post" action="/admin/intentions/${i.id}/dismiss">${csrfField(req)}<input type="hidden" name="next" value="${self}">
<button type="submit" data-action="dismiss">Dismiss</button></form>`
        : ''
    }</td></tr>`;
  }),
  q.status === 'active' ? 'No reminders are waiting.' : 'None.',
)}`;
  return page(req, { title: 'Reminders', active: 'Reminders', styles: TIER_STYLES }, body);
}
