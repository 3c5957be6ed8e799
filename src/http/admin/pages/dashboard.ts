/** GET /admin/: counts per tier, ingest rate, embedder and broker, the pattern engine, recent changes, fading memories. */
import type { FastifyRequest } from 'fastify';
import type { Services } from '../../../services.js';
import { html, seg } from '../html.js';
import { page, table, when } from '../layout.js';
import { memoryRow, MEMORY_HEAD_WITH_ENTITY } from '../memory-view.js';
import { changeInWords, whoInWords } from '../audit-words.js';
import type { RateMeter } from '../rate.js';
import { askBox, type AskState } from './ask-box.js';
import { within } from '../../../lib/within.js';

export interface DashboardDeps {
  services: Services;
  rate: RateMeter;
  health?: () => Record<string, unknown>;
}

export async function dashboardPage(req: FastifyRequest, d: DashboardDeps, ask: AskState = {}) {
  const s = d.services;
  const now = s.clock.now();
  const c = s.status.snapshot({ readings: true });
  const rate = d.rate.rates();
  const answers = await within(
    s.embedder.ping().catch(() => false),
    500,
    false,
  );
  const mqtt = (d.health?.().mqtt ?? { mode: 'off' }) as {
    mode: string;
    url?: string;
    connected?: boolean;
    bridge?: { received: number; ingested: number; unparseable: number };
  };
  const last = s.patterns.lastRun();
  const promoted = s.patterns.promoted().slice(0, 5);
  const changes = s.manage.recentChanges(10);
  const fading = s.memory.fading({ threshold: 0.3, limit: 20 });

  const tile = (label: string, value: number | string, href?: string, tip?: string) =>
    html`<div class="tile"${tip ? html` title="${tip}"` : ''}>${href ? html`<a href="${href}">` : ''}<span class="n">${value}</span><span class="l">${label}</span>${href ? html`</a>` : ''}</div>`;

  const body = html`
${askBox(req, ask, now)}

<section class="tiles" aria-label="Counts per tier">
${tile('entities', c.entities, '/admin/entities')}
${tile('memories', c.memories.active)}
${tile('replaced / disputed', `${c.memories.superseded} / ${c.memories.contested}`, undefined, 'superseded / contested: older versions, and facts two sources disagree on')}
${tile('relations', c.relations.current, '/graph')}
${tile('things measured', c.series, '/admin/readings', 'series: one per entity and metric')}
${tile(c.readings?.exact ? 'readings' : 'readings (from ids)', c.readings?.n ?? 0)}
${tile('sessions', c.sessions)}
${tile('open tasks', c.open_tasks)}
${tile('reminders', c.active_intentions, '/admin/intentions', 'intentions: reminders waiting for their moment')}
${tile('located objects', c.located_objects)}
${tile('schedule events', c.schedule_events)}
${tile('patterns', c.promoted_patterns)}
</section>

<section><h2>Status</h2>
<dl class="status">
<dt>Ingest</dt><dd><span id="rate-minute">${rate.last_minute}</span> readings in the last minute, ${rate.last_hour} in the last hour</dd>
<dt>Embedder</dt><dd>${s.embedder.provider} / ${s.embedder.model} (${s.embedder.dim}-d): ${answers ? html`<span class="ok">answers</span>` : html`<span class="bad">does not answer</span>`}; ${c.vectors.state === 'ready' ? `vectors ready, ${c.pending_embedding} pending` : html`<span class="bad">vectors stale</span>: ${c.vectors.stale_reason}`}</dd>
<dt>MQTT</dt><dd>${mqtt.mode}${mqtt.url ? html` at <code>${mqtt.url}</code>` : ''}${mqtt.mode !== 'off' ? html`: ${mqtt.connected ? html`<span class="ok">up</span>` : html`<span class="bad">down</span>`}` : ''}${mqtt.bridge ? `; ${mqtt.bridge.received} messages, ${mqtt.bridge.ingested} ingested, ${mqtt.bridge.unparseable} unparseable` : ''}</dd>
<dt>Pattern engine</dt><dd>${last ? html`last run ${when(last.at, now)}${last.dry_run ? ' (dry run)' : ''}: ${last.found.length} found, ${last.promoted.length} new or changed, ${last.errors.length} errors` : 'not run since the hub started'}</dd>
</dl>
${last?.promoted.length ? html`<ul>${last.promoted.map((p) => html`<li>${p.fact}</li>`)}</ul>` : ''}
${promoted.length ? html`<h3>Recently detected patterns</h3><ul>${promoted.map((p) => html`<li>${p.entity_name ? html`<a href="/admin/entity/${seg(p.entity_name)}">${p.entity_name}</a>: ` : ''}${p.fact ?? p.pattern_key} <span class="muted">(${p.detector}, ${when(p.detected, now)})</span></li>`)}</ul>` : ''}
</section>

<section><h2>Fading memories</h2>
<p class="muted"><span title="effective (decayed) confidence below 30 %">Facts Hearth has grown unsure of</span>: confirm what still holds, forget what does not.</p>
${table(
  MEMORY_HEAD_WITH_ENTITY,
  fading.memories.map((m) => memoryRow(req, m, now, { next: '/admin/', withEntity: true })),
  'Nothing is fading.',
  'compact memories',
)}
</section>

<section><h2>Recent changes</h2>
${table(
  ['When', 'Who', 'What changed'],
  changes.map(
    (c) =>
      html`<tr data-op="${c.op}"><td data-label="When">${when(c.ts, now)}</td><td data-label="Who">${whoInWords(c.actor)}</td><td data-label="What changed" class="change">${changeInWords(c)}</td></tr>`,
  ),
  'No changes yet.',
)}
</section>`;
  return page(req, { title: 'Dashboard', active: 'Dashboard' }, body);
}
