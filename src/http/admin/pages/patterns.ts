/**
 * GET /admin/patterns: what the pattern engine found in the readings and saved as a memory — the
 * memory's text, which readings (entity and metric) and detector, its numbers, and a link to the chart.
 */
import type { FastifyRequest } from 'fastify';
import type { Services } from '../../../services.js';
import { html, query, seg } from '../html.js';
import { confidence, page, when } from '../layout.js';
import { MEMORY_STATUS, TIER_STYLES, wordOf } from '../tier-words.js';
import { showValue } from '../values.js';

/** "peak_hour" → "peak hour"; numbers rounded as on the entity page. */
const words = (k: string) => k.replaceAll('_', ' ');

export function patternsPage(req: FastifyRequest, s: Services) {
  const now = s.clock.now();
  const promoted = s.patterns.promoted();
  const items = promoted.map((p) => {
    const metrics = p.metric.split('|');
    const st = p.status
      ? wordOf(MEMORY_STATUS, p.status)
      : { word: 'forgotten', title: 'the memory was forgotten; the finding is kept' };
    const chart = p.entity_name ? `/admin/entity/${seg(p.entity_name)}${query({ g: 'hour' })}#readings` : null;
    const stats = Object.entries(p.evidence);
    const numbers = stats.map(([k, v]) => html`<dt>${words(k)}</dt><dd>${showValue(v)}</dd>`);
    const about = p.entity_name
      ? html`<a href="/admin/entity/${seg(p.entity_name)}">${p.entity_name}</a>`
      : 'an entity since forgotten';
    return html`<article class="pattern">
<p class="fact">${p.fact ?? html`<span class="muted">(the memory was forgotten)</span>`}</p>
<p class="muted">About ${about} · from its ${metrics.join(' and ')} readings
 · found by <span title="detector ${p.detector}">${words(p.detector)}</span> ${when(p.detected, now)} · <span title="${st.title}">${st.word}</span></p>
${p.confidence !== null ? html`<p>Confidence ${confidence(p.confidence)}</p>` : ''}
${stats.length ? html`<details><summary>The numbers behind it</summary><dl class="slots">${numbers}</dl></details>` : ''}
${chart ? html`<p><a class="button" href="${chart}">See the chart</a></p>` : ''}
</article>`;
  });
  const body = html`
<p class="muted">Habits and regularities the hub noticed in sensor readings and saved as memories (for example, a room that is always cooler at night).</p>
${items.length ? items : html`<p class="empty">Nothing found yet: patterns need a few days of readings.</p>`}`;
  return page(req, { title: 'Patterns found', active: 'Patterns', styles: TIER_STYLES }, body);
}
