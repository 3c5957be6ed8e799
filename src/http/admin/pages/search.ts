/** GET /admin/search?q=&past=1: facts across every entity, through the memory service's recall (hybrid). */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../../services.js';
import { RecallInput } from '../../../tiers/memory/memory.schemas.js';
import { html, query, seg } from '../html.js';
import { page, pct, table, when } from '../layout.js';
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
  type Hit = Awaited<ReturnType<Services['memory']['recall']>>['results'][number];
  let sure: Hit[] = [];
  let unsure: Hit[] = [];
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
    sure = r.results;
    unsure = r.possible ?? [];
  }
  // A hit is a fact, who it is about and since when; its confidence only in the tooltip (recall
  // already split what it is sure of from what only possibly answers).
  const row = (m: Hit) => {
    const st = wordOf(MEMORY_STATUS, m.status);
    return html`<tr class="${m.status}" title="confidence ${pct(m.effective_confidence)}"><td data-label="About"><a class="entity-link" href="/admin/entity/${seg(m.entity_name)}">${m.entity_name}</a></td>
<td class="fact">${m.fact}</td>
<td data-label="Status" class="meta">${m.status === 'active' ? '' : html`<span title="${st.title}">${st.word}</span>`}</td>
<td data-label="Since" class="meta">${when(m.valid_from, now)}</td></tr>`;
  };
  const head = ['About', 'Fact', 'Status', 'Since'];
  const toggle = past ? 'Only current facts' : 'Include replaced and disputed versions';
  const body = html`
<form method="get" action="/admin/search" class="search" role="search">
<label>Facts about <input type="search" name="q" value="${text ?? ''}" placeholder="e.g. coffee, bedtime, keys" autocomplete="off"></label>
<label class="check"><input type="checkbox" name="past" value="1"${past ? html` checked` : ''}> also replaced and disputed versions</label>
<button type="submit">Search</button>
</form>
${
  text
    ? html`<section id="sure" aria-label="Facts that answer it"><h2>Found (${sure.length})</h2>
${table(head, sure.map(row), unsure.length ? 'Nothing Hearth is sure answers that.' : 'No fact matches.', 'compact hits')}</section>
${
  unsure.length
    ? html`<section id="not-sure" aria-label="Not sure"><h2>Not sure — possibly related (${unsure.length})</h2>
<p class="muted">Hearth is not sure these answer it; an assistant would only offer them as a guess.</p>
${table(head, unsure.map(row), '', 'compact hits unsure')}</section>`
    : ''
}`
    : html`<p class="muted">Search by meaning and by words across everyone and everything Hearth remembers.</p>`
}
${text && sure.length + unsure.length ? html`<p class="muted"><a href="/admin/search${query({ q: text, past: past ? undefined : '1' })}">${toggle}</a></p>` : ''}`;
  return page(req, { title: 'Search facts', active: 'Search', styles: TIER_STYLES }, body);
}
