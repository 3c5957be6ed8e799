/** GET /admin/entities?q=&type=: search by name and filter by type. */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../../services.js';
import { html, query, seg } from '../html.js';
import { page, table, when } from '../layout.js';

export const EntitiesQuery = z.object({
  q: z.string().max(200).optional(),
  type: z.string().max(50).optional(),
  offset: z.coerce.number().int().min(0).default(0),
});

const PAGE = 100;

export function entitiesPage(req: FastifyRequest, s: Services, q: z.infer<typeof EntitiesQuery>) {
  const now = s.clock.now();
  const text = q.q?.trim() || undefined;
  const type = q.type?.trim() || undefined;
  const rows = s.overview.searchEntities({ q: text, type, limit: PAGE + 1, offset: q.offset });
  const more = rows.length > PAGE;
  const types = s.overview.entityTypes();
  const body = html`
<form method="get" action="/admin/entities" class="search" role="search">
<label>Name <input type="search" name="q" value="${text ?? ''}" placeholder="e.g. Brian" autocomplete="off"></label>
<label>Type <select name="type"><option value="">all types</option>${types.map((t) => html`<option value="${t.type}"${t.type === type ? html` selected` : ''}>${t.type} (${t.n})</option>`)}</select></label>
<button type="submit">Search</button>
</form>
<p class="chips">${types.map((t) => html`<a class="chip" href="/admin/entities${query({ q: text, type: t.type })}"${t.type === type ? html` aria-current="true"` : ''}>${t.type}</a>`)}</p>
${table(
  ['Name', 'Type', 'Memories', 'Updated'],
  rows
    .slice(0, PAGE)
    .map(
      (e) =>
        html`<tr><td data-label="Name"><a class="entity-link" href="/admin/entity/${seg(e.name)}">${e.name}</a></td><td data-label="Type">${e.type}</td><td data-label="Memories">${e.memory_count}</td><td data-label="Updated">${when(e.updated, now)}</td></tr>`,
    ),
  text || type ? 'No entity matches.' : 'No entities yet.',
)}
${more ? html`<p><a class="button" href="/admin/entities${query({ q: text, type, offset: q.offset + PAGE })}">More</a></p>` : ''}`;
  return page(req, { title: 'Entities', active: 'Entities' }, body);
}
