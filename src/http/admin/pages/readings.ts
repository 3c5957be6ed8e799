/** GET /admin/readings?entity=&metric=: readings as they arrive (Server-Sent Events), newest first. */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { showValue } from '../values.js';
import { html, query, seg } from '../html.js';
import { page, when } from '../layout.js';
import type { ReadingStream, StreamFilter } from '../stream.js';

export const StreamQuery = z.object({
  entity: z.string().trim().max(200).optional(),
  metric: z.string().trim().max(200).optional(),
});

const show = showValue;

export function readingsPage(req: FastifyRequest, stream: ReadingStream, f: StreamFilter, now: number) {
  const filter = { entity: f.entity || undefined, metric: f.metric || undefined };
  const recent = stream.recent(filter);
  const body = html`
<form method="get" action="/admin/readings" class="search">
<label>Entity <input name="entity" value="${filter.entity ?? ''}" placeholder="any" autocomplete="off"></label>
<label>Metric <input name="metric" value="${filter.metric ?? ''}" placeholder="any" autocomplete="off"></label>
<button type="submit">Filter</button>
</form>
<p class="muted" id="stream-status" aria-live="polite">Readings arriving at this hub appear here as they are stored${filter.entity || filter.metric ? ' (filtered)' : ''}.</p>
<div class="scroll"><table class="readings"><thead><tr><th>When</th><th>Entity</th><th>Metric</th><th>Value</th><th>Source</th></tr></thead>
<tbody id="stream-rows" data-src="/admin/readings/stream${query(filter)}">
${recent.map((r) => html`<tr data-ts="${r.ts}"><td data-label="When">${when(r.ts, now)}</td><td data-label="Entity"><a href="/admin/entity/${seg(r.entity_name)}">${r.entity_name}</a></td><td data-label="Metric">${r.metric}</td><td data-label="Value">${show(r.value)}${r.unit ? ` ${r.unit}` : ''}</td><td data-label="Source">${r.source}</td></tr>`)}
</tbody></table></div>
${recent.length ? '' : html`<p class="empty" id="stream-empty">Nothing has arrived since the hub started; waiting…</p>`}`;
  return page(req, { title: 'Readings', active: 'Readings', scripts: ['/admin/assets/stream.js'] }, body);
}
