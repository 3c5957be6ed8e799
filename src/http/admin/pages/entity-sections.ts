/** The entity page's sections from the other tiers: location, readings with charts, schedule, intentions, tasks, sessions. */
import type { Services } from '../../../services.js';
import type { EntityRow } from '../../../tiers/entities/entities.repo.js';
import type { Granularity } from '../../../tiers/timeseries/timeseries.schemas.js';
import { showValue } from '../values.js';
import { html, query, seg, type Html } from '../html.js';
import { confidence, table, when } from '../layout.js';

const GRANULARITIES: Granularity[] = ['raw', 'hour', 'day', 'week'];
const show = showValue;

export function locationSection(s: Services, e: EntityRow): Html {
  const now = s.clock.now();
  const here = s.spatial.current(e.name);
  let trail: ReturnType<Services['spatial']['history']>['locations'] = [];
  if (here) trail = s.spatial.history({ entity_name: e.name, limit: 20 }).locations;
  return html`<section id="location"><h2>Location</h2>
${here ? html`<p class="where">In <a href="/admin/entity/${seg(here.container_name)}">${here.container_name}</a>, last confirmed ${when(here.last_confirmed_ts, now)} · ${confidence(here.confidence)}</p>` : html`<p class="empty">No known location.</p>`}
${trail.length > 1 ? table(['Where', 'Since', 'Current'], trail.map((l) => html`<tr><td data-label="Where">${l.container_name}</td><td data-label="Since">${when(l.created, now)}</td><td data-label="Current">${l.active ? 'yes' : ''}</td></tr>`), '') : ''}
</section>`;
}

export function readingsSection(s: Services, e: EntityRow, g: Granularity, self: string): Html {
  const now = s.clock.now();
  const latest = s.timeseries.latest(e.id);
  const switcher = html`<p class="chips" aria-label="Granularity">${GRANULARITIES.map((x) => html`<a class="chip" href="${self}${query({ g: x })}#readings"${x === g ? html` aria-current="true"` : ''}>${x}</a>`)}</p>`;
  const charts = latest.map((r) => {
    const src = `${self}/series.json${query({ metric: r.metric, g })}`;
    const numeric = typeof r.value === 'number';
    return html`<figure class="metric"><figcaption>${r.metric}: <strong>${show(r.value)}${r.unit ? ` ${r.unit}` : ''}</strong> <span class="muted">${when(r.ts, now)}</span></figcaption>
${numeric ? html`<div class="chart" data-src="${src}" data-metric="${r.metric}" role="img" aria-label="${r.metric} over time (${g})"></div>` : ''}
<p class="muted"><a href="${src}">data (JSON)</a></p></figure>`;
  });
  return html`<section id="readings"><h2>Readings</h2>
${latest.length ? html`${switcher}<div class="charts">${charts}</div>` : html`<p class="empty">No readings.</p>`}
</section>`;
}

export function tierSections(s: Services, e: EntityRow): Html {
  const now = s.clock.now();
  const events = s.schedule.upcoming({ entityId: e.id, from: now, to: now + 14 * 86_400, limit: 20 });
  const intentions = s.prospective.list({ entity_name: e.name, active_only: true }).intentions;
  const tasks = s.working.wmList({ status: 'open', entity_name: e.name, limit: 20 }).tasks;
  const sessions = s.overview.sessionsOf(e.id, 20);
  return html`${locationSection(s, e)}
<section id="more"><h2>Schedule (next 14 days)</h2>
${table(['When', 'What', 'Repeats'], events.map((o) => html`<tr><td data-label="When">${o.when}</td><td data-label="What">${o.title}</td><td data-label="Repeats">${o.recurrence ?? ''}</td></tr>`), 'Nothing scheduled.')}
<h2>Open intentions</h2>
${table(['When', 'Then', 'Fired'], intentions.map((i) => html`<tr><td data-label="When">${i.trigger_text}</td><td data-label="Then">${i.action_text}</td><td data-label="Fired">${i.fired_count}</td></tr>`), 'No open intentions.')}
<h2>Working-memory tasks</h2>
${table(['Task', 'Notes', 'Expires', 'Opened'], tasks.map((t) => html`<tr><td data-label="Task">${t.task_name}</td><td data-label="Notes">${t.slot_count}</td><td data-label="Expires">${t.ttl_ts ? when(t.ttl_ts, now) : 'never'}</td><td data-label="Opened">${when(t.created, now)}</td></tr>`), 'No open tasks.')}
<h2>Sessions</h2>
${table(['Started', 'Turns', 'Status', 'Summary'], sessions.map((x) => html`<tr><td data-label="Started">${when(x.started_at, now)}</td><td data-label="Turns">${x.turn_count}</td><td data-label="Status">${x.status}</td><td data-label="Summary">${x.summary ?? ''}</td></tr>`), 'No conversations.')}
</section>`;
}
