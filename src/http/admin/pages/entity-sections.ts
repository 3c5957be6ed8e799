/**
 * The entity page's sections from the other tiers: location, readings with charts, schedule,
 * intentions, tasks, sessions — each only where it applies: a person's page (the type stored, or
 * inferred while unknown: overview `shownType`) shows them all (empty ones say so), any other
 * entity's only those with something in them (a sensor has readings, not a schedule), and the
 * readings section is also on a sensor's, device's or room's page before its first reading.
 */
import type { Services } from '../../../services.js';
import type { EntityRow } from '../../../tiers/entities/entities.repo.js';
import type { Granularity } from '../../../tiers/timeseries/timeseries.schemas.js';
import { showValue } from '../values.js';
import { html, query, seg, type Html } from '../html.js';
import { confidence, table, when } from '../layout.js';
import type { SubjectSeries } from '../../../tiers/ask/subject.js';
import { isActive, stateWords } from '../../../tiers/ask/two-state.js';
import { timeline } from './timeline.js';

const GRANULARITIES: Granularity[] = ['raw', 'hour', 'day', 'week'];
/** Types whose page shows every personal section, empty or not. */
const PERSONAL = new Set(['person']);
/** Types whose page shows the readings section even before the first reading. */
const MEASURED = new Set(['sensor', 'device', 'room']);

type Section = 'readings' | 'location' | 'schedule' | 'intentions' | 'tasks' | 'sessions';

/** What the tiers hold for one entity, read once per page. */
function contents(s: Services, e: EntityRow) {
  const now = s.clock.now();
  return {
    now,
    /** As the graph shows it: a person whose type no door set still gets a person's sections. */
    type: s.overview.shownType(e).type,
    latest: s.timeseries.latest(e.id),
    here: s.spatial.current(e.name),
    events: s.schedule.upcoming({ entityId: e.id, from: now, to: now + 14 * 86_400, limit: 20 }),
    intentions: s.prospective.list({ entity_name: e.name, active_only: true }).intentions,
    tasks: s.working.wmList({ status: 'open', entity_name: e.name, limit: 20 }).tasks,
    sessions: s.overview.sessionsOf(e.id, 20),
  };
}
type Contents = ReturnType<typeof contents>;

function applies(c: Contents): Set<Section> {
  const all = PERSONAL.has(c.type);
  const out = new Set<Section>();
  if (c.latest.length || MEASURED.has(c.type)) out.add('readings');
  if (all || c.here) out.add('location');
  if (all || c.events.length) out.add('schedule');
  if (all || c.intentions.length) out.add('intentions');
  if (all || c.tasks.length) out.add('tasks');
  if (all || c.sessions.length) out.add('sessions');
  return out;
}

/** The page's table of contents: the sections that apply to this entity. */
export function sectionsToc(s: Services, e: EntityRow): Html {
  const a = applies(contents(s, e));
  const more = a.has('schedule') || a.has('intentions') || a.has('tasks') || a.has('sessions');
  return html`<nav class="toc" aria-label="Sections"><a href="#memories">Memories</a><a href="#relations">Relations</a>${a.has('readings') ? html`<a href="#readings">Readings</a>` : ''}${a.has('location') ? html`<a href="#location">Location</a>` : ''}${more ? html`<a href="#more">Schedule, tasks, conversations</a>` : ''}<a href="#manage">Manage</a></nav>`;
}
const show = showValue;

export function locationSection(s: Services, e: EntityRow, c: Contents = contents(s, e)): Html {
  if (!applies(c).has('location')) return html``;
  const { now, here } = c;
  let trail: ReturnType<Services['spatial']['history']>['locations'] = [];
  if (here) trail = s.spatial.history({ entity_name: e.name, limit: 20 }).locations;
  return html`<section id="location"><h2>Location</h2>
${here ? html`<p class="where">In <a href="/admin/entity/${seg(here.container_name)}">${here.container_name}</a>, last confirmed ${when(here.last_confirmed_ts, now)} · ${confidence(here.confidence)}</p>` : html`<p class="empty">No known location.</p>`}
${
  trail.length > 1
    ? table(
        ['Where', 'Since', 'Current'],
        trail.map(
          (l) =>
            html`<tr><td data-label="Where">${l.container_name}</td><td data-label="Since">${when(l.created, now)}</td><td data-label="Current">${l.active ? 'yes' : ''}</td></tr>`,
        ),
        '',
      )
    : ''
}
</section>`;
}

/** How many of the newest readings the sensor page lists (all its metrics, by reading time). */
export const READINGS_LISTED = 20;

export function readingsSection(s: Services, e: EntityRow, g: Granularity, self: string): Html {
  const c = contents(s, e);
  if (!applies(c).has('readings')) return html``;
  const { now, latest } = c;
  const switcher = html`<p class="chips" aria-label="Granularity">${GRANULARITIES.map((x) => html`<a class="chip" href="${self}${query({ g: x })}#readings"${x === g ? html` aria-current="true"` : ''}>${x}</a>`)}</p>`;
  // Which metrics are two states is the ask tier's reading (the same as GET /sensors): a door's
  // contact, a plug's on/off, a person's home/away get a timeline; numbers keep their chart.
  const twoState = new Set(
    s.ask
      .sensors({ entity_name: e.name })
      .sensors.filter((x) => x.kind === 'two_state')
      .map((x) => x.metric),
  );
  const rows = new Map(
    s.timeseries.reads
      .series()
      .filter((r) => r.entity_id === e.id)
      .map((r) => [r.metric, { ...r, aliases: [], concept: null } as SubjectSeries]),
  );
  const series = latest.map((r) => {
    const q = { entity_name: e.name, metric: r.metric, granularity: 'raw' as const, limit: READINGS_LISTED };
    const recent = s.timeseries.queryStream(q).points as { ts: number; value: unknown }[];
    const row = rows.get(r.metric);
    return { ...r, recent, state: row && twoState.has(r.metric) ? row : undefined };
  });
  const word = (x: (typeof series)[number], v: unknown) => {
    const on = x.state && (typeof v === 'number' || typeof v === 'string') ? isActive(x.state, v) : null;
    return on === null ? `${show(v)}${x.unit ? ` ${x.unit}` : ''}` : stateWords(x.state!)[on ? 0 : 1];
  };
  const charts = series.map((r) => {
    if (r.state) return timeline(s, r.state);
    const src = `${self}/series.json${query({ metric: r.metric, g })}`;
    const numeric = typeof r.value === 'number';
    return html`<figure class="metric"><figcaption>${r.metric}: <strong>${word(r, r.value)}</strong> <span class="muted">${when(r.ts, now)}</span></figcaption>
${numeric ? html`<div class="chart" data-src="${src}" data-metric="${r.metric}" role="img" aria-label="${r.metric} over time (${g})"></div>` : ''}
<p class="muted"><a href="${src}">data (JSON)</a></p></figure>`;
  });
  const listed = series
    .flatMap((x) => x.recent.map((p) => ({ ...p, x })))
    .sort((a, b) => b.ts - a.ts)
    .slice(0, READINGS_LISTED);
  const many = series.length > 1;
  return html`<section id="readings"><h2>Readings</h2>
${
  latest.length
    ? html`${series.some((x) => !x.state) ? switcher : ''}<div class="charts">${charts}</div>
<h3>Latest readings</h3>
<ol class="reading-list" aria-label="Latest readings, newest first">${listed.map(
        (p) =>
          html`<li><span class="when">${when(p.ts, now)}</span><span class="what">${many ? html`<span class="metric">${p.x.metric}</span> ` : ''}<strong${p.x.state ? html` title="stored: ${show(p.value)}"` : ''}>${word(p.x, p.value)}</strong></span></li>`,
      )}</ol>`
    : html`<p class="empty">No readings.</p>`
}
</section>`;
}

export function tierSections(s: Services, e: EntityRow): Html {
  const c = contents(s, e);
  const { now } = c;
  const a = applies(c);
  const parts = [
    a.has('schedule') &&
      html`<h2>Schedule (next 14 days)</h2>
${table(
  ['When', 'What', 'Repeats'],
  c.events.map(
    (o) =>
      html`<tr><td data-label="When">${o.when}</td><td data-label="What">${o.title}</td><td data-label="Repeats">${o.recurrence ?? ''}</td></tr>`,
  ),
  'Nothing scheduled.',
)}`,
    a.has('intentions') &&
      html`<h2>Reminders waiting</h2>
${table(
  ['When', 'Then', 'Fired'],
  c.intentions.map(
    (i) =>
      html`<tr><td data-label="When">${i.trigger_text}</td><td data-label="Then">${i.action_text}</td><td data-label="Fired">${i.fired_count}</td></tr>`,
  ),
  'No reminders waiting.',
)}`,
    a.has('tasks') &&
      html`<h2>Working-memory tasks</h2>
${table(
  ['Task', 'Notes', 'Expires', 'Opened'],
  c.tasks.map(
    (t) =>
      html`<tr><td data-label="Task">${t.task_name}</td><td data-label="Notes">${t.slot_count}</td><td data-label="Expires">${t.ttl_ts ? when(t.ttl_ts, now) : 'never'}</td><td data-label="Opened">${when(t.created, now)}</td></tr>`,
  ),
  'No open tasks.',
)}`,
    a.has('sessions') &&
      html`<h2>Conversations</h2>
${table(
  ['Started', 'Turns', 'Status', 'Summary'],
  c.sessions.map(
    (x) =>
      html`<tr><td data-label="Started">${when(x.started_at, now)}</td><td data-label="Turns">${x.turn_count}</td><td data-label="Status">${x.status}</td><td data-label="Summary">${x.summary ?? ''}</td></tr>`,
  ),
  'No conversations.',
)}`,
  ].filter(Boolean);
  return html`${locationSection(s, e, c)}
${parts.length ? html`<section id="more">${parts}</section>` : ''}`;
}
