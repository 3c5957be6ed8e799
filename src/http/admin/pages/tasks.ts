/** GET /admin/tasks?status=: an assistant's working memory — tasks in progress and their notes (slots). */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../../services.js';
import { plural } from '../../../lib/plural.js';
import { html, query, seg } from '../html.js';
import { page, when } from '../layout.js';
import { chip, TASK_STATUS, TIER_STYLES, wordOf } from '../tier-words.js';

const STATUSES = ['open', 'closed', 'expired', 'all'] as const;
export const TasksQuery = z.object({ status: z.enum(STATUSES).default('open') });
const LIMIT = 100;

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

export function tasksPage(req: FastifyRequest, s: Services, q: z.infer<typeof TasksQuery>) {
  const now = s.clock.now();
  const tasks = s.working.wmList({ status: q.status, limit: LIMIT }).tasks;
  const chipOf = (st: (typeof STATUSES)[number]) =>
    chip(
      `/admin/tasks${query({ status: st === 'open' ? undefined : st })}`,
      st === 'all' ? 'all' : wordOf(TASK_STATUS, st).word,
      st === q.status,
    );
  const chips = html`<p class="chips" aria-label="Show">${STATUSES.map(chipOf)}</p>`;
  const items = tasks.map((t) => {
    const st = wordOf(TASK_STATUS, t.status);
    const slots = (t.slot_count ? s.working.wmGet({ task_id: t.task_id }).slots : undefined) ?? [];
    const forWhom = t.entity_name
      ? html` · for <a href="/admin/entity/${seg(t.entity_name)}">${t.entity_name}</a>`
      : '';
    const saved = t.promoted_memory_id
      ? html` · <span title="promoted to long-term memory ${t.promoted_memory_id}">saved as a memory</span>`
      : '';
    const notes = slots.map(
      (x) => html`<dt>${x.key}</dt><dd>${show(x.value)} <span class="muted">${when(x.updated, now)}</span></dd>`,
    );
    const end =
      t.status === 'open'
        ? html`${t.ttl_ts ? html`expires ${when(t.ttl_ts, now)}` : 'no time limit'}`
        : html`ended ${when(t.closed_at, now)}`;
    return html`<article class="task" id="task-${t.task_id}">
<h2>${t.task_name}</h2>
<p class="muted"><span title="${st.title}">${st.word}</span>${forWhom} · opened ${when(t.created, now)} · ${end}${saved}</p>
${
  slots.length
    ? html`<details${t.status === 'open' ? html` open` : ''}><summary>${plural(slots.length, 'note')}</summary>
<dl class="slots">${notes}</dl></details>`
    : html`<p class="empty">No notes yet.</p>`
}
</article>`;
  });
  const empty = q.status === 'open' ? 'No task is open.' : 'None.';
  const body = html`
<p class="muted">What an assistant is in the middle of (planning a birthday, a shopping list): short-lived notes that end when the task does.</p>
${chips}
${items.length ? items : html`<p class="empty">${empty}</p>`}
${tasks.length === LIMIT ? html`<p class="muted">The newest ${LIMIT} are shown.</p>` : ''}`;
  return page(req, { title: 'Tasks in progress', active: 'Tasks', styles: TIER_STYLES }, body);
}
