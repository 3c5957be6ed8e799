/** GET /admin/search?q=&past=1: facts across every entity, through the memory service's recall (hybrid). */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../../services.js';
import { RecallInput } from '../../../tiers/memory/memory.schemas.js';
import { html, query, seg } from '../html.js';
import { confidence, page, table, when } from '../layout.js';
import { MEMORY_STATUS, TIER_STYLES, wordOf } from '../tier-words.js';

/** An empty box is no search; anything else is checked by recall's own schema (400 naming `q`). */
export const blankIsNone = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
export const SearchQuery = z.object({
  q: z.preprocess(blankIsNone, RecallInput.shape.query.optional()),
  past: z.enum(['0', '1']).optional(),
});

export async function searchPage(req: FastifyRequest, s: Services, q: z.infer<typeof SearchQuery>) {
  const now = s.clock.now();
  const text = q.q?.trim() || undefined;
  const past = q.past === '1';
  let rows: Awaited<ReturnType<Services['memory']['recall']>>['results'] = [];
  if (text) {
    const r = await s.memory.recall(
      {
        query: text,
        top_k: 50,
        mode: 'hybrid',
        recency_weight: 0.2,
        min_confidence: 0,
        min_trust: 0,
        include_superseded: past,
        possible: true,
        explain: false,
      },
      { touch: false },
    );
    rows = [...r.results, ...(r.possible ?? [])];
  }
  const toggle = past ? 'Only current facts' : 'Include replaced and disputed versions';
  const body = html`
<form method="get" action="/admin/search" class="search" role="search">
<label>Facts about <input type="search" name="q" value="${text ?? ''}" placeholder="e.g. coffee, bedtime, keys" autocomplete="off"></label>
<label class="check"><input type="checkbox" name="past" value="1"${past ? html` checked` : ''}> also replaced and disputed versions</label>
<button type="submit">Search</button>
</form>
${
  text
    ? table(
        ['About', 'Fact', 'Status', 'Confidence', 'Since'],
        rows.map((m) => {
          const st = wordOf(MEMORY_STATUS, m.status);
          return html`<tr class="${m.status}"><td data-label="About"><a class="entity-link" href="/admin/entity/${seg(m.entity_name)}">${m.entity_name}</a></td>
<td class="fact">${m.fact}</td>
<td data-label="Status"><span title="${st.title}">${st.word}</span></td>
<td data-label="Confidence">${confidence(m.effective_confidence)}</td>
<td data-label="Since">${when(m.valid_from, now)}</td></tr>`;
        }),
        'No fact matches.',
      )
    : html`<p class="muted">Search by meaning and by words across everyone and everything Hearth remembers.</p>`
}
${text && rows.length ? html`<p class="muted"><a href="/admin/search${query({ q: text, past: past ? undefined : '1' })}">${toggle}</a></p>` : ''}`;
  return page(req, { title: 'Search facts', active: 'Search', styles: TIER_STYLES }, body);
}
